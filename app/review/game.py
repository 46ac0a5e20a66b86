"""The analysis of a finished game: every decision of every seat, labels, accuracy per player.

The game is replayed with the engine from its options, seed and moves. At each move the deciding
seat's view and legal actions (`view_for`, `legal_actions`) are handed to `analyse_decision`; a
move with one legal action is forced and not judged. Each decision's search is seeded from the
game id and the move number, so the same game and settings always give the same analysis.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.bots.expert import MAX_STEPS
from app.engine import (
    GameOptions,
    State,
    apply,
    explain,
    final_scores,
    legal_actions,
    listed_form,
    replay,
    view_for,
)

from .decision import analyse_decision, index_of
from .labels import LABELS, Thresholds, accuracy, label
from .leaf import LeafModel, load_leaf_model

Json = dict[str, Any]
FORMAT = 1  # bumped when the JSON's meaning changes, so stored analyses can be told apart

PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}

LEAVES = ("static", "fitted")

# Called after each move with (moves done, moves in the game).
Progress = Callable[[int, int], None]


class NotFinished(ValueError):
    """Only a finished game is analysed: before the end an analysis would reveal hidden cards."""


@dataclass(frozen=True)
class ReviewSettings:
    """The search budget per decision and the label thresholds: `rounds` of rollouts, each cut
    after `plies` actions (at most the expert's own length), and a candidate left behind by
    `prune_points` of winning chance after a round is not played out further."""

    rounds: int = 6
    thresholds: Thresholds = field(default_factory=Thresholds)
    plies: int = MAX_STEPS
    prune_points: float = float("inf")
    sample: int = 0
    leaf: str = "static"
    turns: int = 0

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ValueError("rounds must be at least 1")
        if self.plies < 1:
            raise ValueError("plies must be at least 1")
        if self.sample < 0:
            raise ValueError("sample must be at least 0")
        if self.turns < 0:
            raise ValueError("turns must be at least 0")
        if not self.prune_points > 0:
            raise ValueError("prune_points must be above 0")
        if self.leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}")

    def leaf_model(self) -> LeafModel | None:
        """The model that reads the leaves (None: the static softmax); raises ValueError when
        the fitted model is asked for and its file is missing."""
        if self.leaf == "static":
            return None
        model = load_leaf_model()
        if model is None:
            raise ValueError("the fitted leaf model's file is missing (tools/fit_review_chance.py)")
        return model

    def to_json(self) -> Json:
        """The budget as the analysis states it; the cheaper search's knobs only when used, so
        an analysis by the expert's own search reads as it always has."""
        t = self.thresholds
        out: Json = {"rounds": self.rounds}
        if self.plies < MAX_STEPS:
            out["plies"] = self.plies
        if self.sample:
            out["sample"] = self.sample
        if self.turns:
            out["turns"] = self.turns
        if self.prune_points != float("inf"):
            out["prune_points"] = self.prune_points
        if self.leaf != "static":
            out["leaf"] = self.leaf
        return out | {
            "thresholds": {"inaccuracy": t.inaccuracy, "mistake": t.mistake, "blunder": t.blunder},
        }


@dataclass(frozen=True)
class GameRecord:
    """What a finished game is replayed from: the moves are (seat, action) in order."""

    game_id: str
    options: GameOptions
    seed: int
    moves: list[tuple[int, Json]]


def decision_seed(game_id: str, move: int) -> int:
    """The search seed of one decision: a stable hash of the game id and the move number."""
    digest = hashlib.sha256(f"seadragons-review:{game_id}:{move}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def analyse_game(
    record: GameRecord, settings: ReviewSettings, progress: Progress | None = None
) -> Json:
    """The analysis as the API serves it (raises NotFinished if the moves do not end the game)."""
    check_finished(record)
    entries = analyse_moves(record, settings, 0, len(record.moves), progress)
    return assemble(record, settings, entries)


def check_finished(record: GameRecord) -> None:
    """Raise NotFinished unless the moves end the game: checked before any search (R-60)."""
    if not replay(record.options, record.seed, record.moves).over:
        raise NotFinished("the game is not finished: only finished games are analysed")


def analyse_moves(
    record: GameRecord,
    settings: ReviewSettings,
    start: int,
    stop: int,
    progress: Progress | None = None,
) -> list[Json]:
    """The entries of moves `start`..`stop - 1` (0-based), so a long analysis can be cut into
    parts that run one after another (in a worker process) and report progress between them."""
    state = replay(record.options, record.seed, record.moves[:start])
    entries: list[Json] = []
    for number in range(start + 1, stop + 1):
        seat, action = record.moves[number - 1]
        seed = decision_seed(record.game_id, number)
        entries.append({"move": number} | analyse_move(state, seat, action, seed, settings))
        state, _ = apply(state, action, seat)
        if progress is not None:
            progress(number, len(record.moves))
    return entries


def assemble(record: GameRecord, settings: ReviewSettings, entries: list[Json]) -> Json:
    """The analysis document from every move's entry (in order)."""
    final = replay(record.options, record.seed, record.moves)
    scores = final_scores(final)
    return {
        "format": FORMAT,
        "game_id": record.game_id,
        "settings": settings.to_json(),
        "players": [_player_summary(s, entries) for s in range(record.options.players)],
        "winners": scores["winners"],
        "totals": [p["total"] for p in sorted(scores["players"], key=lambda p: p["seat"])],
        "moves": entries,
    }


def analyse_move(
    state: State, seat: int, action: Json, seed: int, settings: ReviewSettings
) -> Json:
    """One move's entry, judged from `seat`'s view (the State is read only through `view_for`
    and `legal_actions`, so other seats' hidden cards cannot change it)."""
    entry: Json = {"seat": seat, "turn": state.turn.number, "played": action}
    if action.get("type") == "take_back":
        # Undoing a switch (the Ancestral head, a treasure) is offered beside the legal actions,
        # not among them: a correction, not a decision to judge.
        return entry | {"forced": True, "taken_back": True}
    legal = legal_actions(state, seat)
    if len(legal) < 2:
        entry["forced"] = True
        return entry
    played = listed_form(state, action)
    try:
        index_of(legal, played)
    except ValueError:
        if explain(state, seat, played) is not None:
            raise
        # The one legal head the list does not name (see `listed_form`): judged beside the rest.
        legal = [*legal, played]
    model = settings.leaf_model()
    # Rollouts stop early only where a fitted model reads their leaves: the static softmax
    # needs the expert's full rollouts to be calibrated (docs/benchmarks.md, "Game review").
    covered = model is not None and model.covers(len(state.players), state.options.expansion)
    turns = settings.turns if covered else 0
    found = analyse_decision(
        view_for(state, seat),
        legal,
        played,
        seed,
        settings.rounds,
        confirm_from=settings.thresholds.inaccuracy,
        plies=settings.plies,
        prune_points=settings.prune_points,
        sample=settings.sample,
        model=model,
        turns=turns,
    )
    drop = found.drop
    return entry | {
        "forced": False,
        "best": found.best.action,
        "win": {"played": _pct(found.played.win), "best": _pct(found.best.win)},
        "margin": {"played": _vp(found.played.margin), "best": _vp(found.best.margin)},
        "chances": [_pct(c) for c in found.played.chances],
        "drop": round(drop, 2),
        "label": label(drop, settings.thresholds),
        "candidates": found.candidates,
    }


def _player_summary(seat: int, entries: list[Json]) -> Json:
    judged = [e for e in entries if e["seat"] == seat and not e["forced"]]
    acc = accuracy([e["drop"] for e in judged])
    out: Json = {
        "seat": seat,
        "decisions": len(judged),
        "accuracy": None if acc is None else round(acc, 1),
    }
    for name in LABELS:
        out[PLURAL[name]] = sum(1 for e in judged if e["label"] == name)
    return out


def _pct(p: float) -> float:
    """A chance in percent, to a hundredth of a point."""
    return round(100.0 * p, 2)


def _vp(v: float) -> float:
    return round(v, 2)
