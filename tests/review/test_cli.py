"""`seadragons analyse`: the analysis itself as JSON, from a recorded file or the database."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.cli import main
from app.db.models.accounts import User
from app.db.models.games import Game
from app.review import GameRecord, ReviewSettings, analyse_game
from app.review import cli as review_cli
from app.review.source import records_from_lines
from app.settings import Settings

from .conftest import greedy_game, play_to_the_end


def _server_budget(rounds: int) -> ReviewSettings:
    """The server's budget (settings) with `--rounds`, as the command line builds it."""
    from app.review.source import review_settings

    return dataclasses.replace(review_settings(Settings()), rounds=rounds)


def _recorded_line(seed: int) -> str:
    record = greedy_game(2, seed)
    return json.dumps(
        {"options": record.options.to_dict(), "seed": record.seed, "actions": record.moves}
    )


@pytest.mark.slow  # the expert analyses whole games
def test_recorded_games_print_one_analysis_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(_recorded_line(5) + "\n\n" + _recorded_line(6) + "\n")
    # What the command analysed and got, each once: the analysis is a function of the record and
    # the budget alone (tests/review/test_budget.py), so the record and budget it was given and
    # the JSON it printed are the whole check, without analysing each game a second time here.
    analysed: list[tuple[GameRecord, ReviewSettings, dict[str, object]]] = []

    def analyse(record: GameRecord, settings: ReviewSettings) -> dict[str, object]:
        analysed.append((record, settings, analyse_game(record, settings)))
        return analysed[-1][2]

    monkeypatch.setattr(review_cli, "analyse_game", analyse)
    assert main(["analyse", "--recorded", str(path), "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    records = list(records_from_lines(path.read_text().splitlines()))
    assert [r.game_id for r in records] == ["recorded-5", "recorded-6"]
    assert [(record, settings) for record, settings, _ in analysed] == [
        (record, _server_budget(1)) for record in records
    ]
    for line, (_, _, analysis) in zip(lines, analysed, strict=True):
        assert json.loads(line) == json.loads(json.dumps(analysis))


def test_a_bad_line_is_named_and_nothing_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(_recorded_line(5) + '\n{"seed": 3}\n')
    assert main(["analyse", "--recorded", str(path), "--rounds", "1"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert "line 2" in out.err


def test_an_unfinished_recorded_game_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = greedy_game(2, 5)
    line = {"options": record.options.to_dict(), "seed": 5, "actions": record.moves[:-3]}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert main(["analyse", "--recorded", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "not finished" in out.err


def test_give_a_game_or_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse"]) == 2
    assert "GAME_ID or --recorded" in capsys.readouterr().err


@pytest.fixture
def db_env(database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("SEADRAGONS_DATABASE_URL", database_url)
    return database_url


@pytest.mark.slow  # the expert analyses a whole game
def test_a_game_in_the_database_only_once_it_is_finished(
    db_env: str,
    live_game: Callable[..., tuple[Game, list[User]]],
    db: Session,
    capsys: pytest.CaptureFixture[str],
) -> None:
    game, _ = live_game(2)
    play_to_the_end(db, game.id, stop_before=12)
    assert main(["analyse", str(game.id), "--rounds", "1"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "not finished" in out.err

    play_to_the_end(db, game.id)
    assert main(["analyse", str(game.id), "--rounds", "1"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["game_id"] == str(game.id)
    db.expire_all()
    assert len(printed["moves"]) == db.get(Game, game.id).version

    assert main(["analyse", "999999"]) == 2
    assert "no game 999999" in capsys.readouterr().err
