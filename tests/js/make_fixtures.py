"""Build sample documents from the real engine for the JS unit tests and page screenshots.

`python tests/js/make_fixtures.py` rewrites tests/js/fixtures/*.json; the JS tests read them so
they check the client against the engine's real view format, not a hand-written imitation.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.engine import (  # noqa: E402
    GameOptions,
    apply,
    client_content,
    legal_actions,
    new_game,
    pack_legal,
    preview,
    replay_view,
    to_act,
    view_for,
)
from app.engine.content import expansion_content  # noqa: E402
from app.services.watching import replays  # noqa: E402

OUT = Path(__file__).parent / "fixtures"


def play(players: int, seed: int, moves: int, expansion: bool = False) -> Any:
    """A game after `moves` random legal actions (placements preferred, so the board fills)."""
    rng = random.Random(seed)
    state = new_game(GameOptions(players=players, expansion=expansion), seed)
    for _ in range(moves):
        if state.over:
            break
        seat = to_act(state)
        acts = legal_actions(state, seat)
        places = [a for a in acts if a["type"] == "place"]
        missions = [a for a in acts if a["type"] == "mission"]
        pool = places or missions or [a for a in acts if a["type"] != "pass"] or acts
        state, _ = apply(state, rng.choice(pool), seat)
    # Stop at the start of a placement so the sample shows a hand ready to be played.
    while not state.over and (state.turn.phase != "place" or state.pending):
        seat = to_act(state)
        acts = [a for a in legal_actions(state, seat) if a["type"] != "pass"]
        state, _ = apply(state, acts[0], seat)
    return state


def find(players: int, expansion: bool, want: Any, seeds: range = range(1, 400)) -> Any:
    """The first position of seeded random games where `want(state, legal)` holds."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(GameOptions(players=players, expansion=expansion), seed)
        while not state.over:
            seat = to_act(state)
            acts = legal_actions(state, seat)
            if want(state, acts):
                return state
            places = [a for a in acts if a["type"] == "place"]
            missions = [a for a in acts if a["type"] == "mission"]
            pool = places if places and rng.random() < 0.9 else (missions or acts)
            state, _ = apply(state, rng.choice(pool), seat)
    raise AssertionError("no such position")


def _payments_for_one_mission(state: Any, acts: list[dict[str, Any]]) -> bool:
    ids = [a["mission"] for a in acts if a["type"] == "mission"]
    paid_by_card = any(a.get("cards") for a in acts if a["type"] == "mission")
    return paid_by_card and any(ids.count(m) >= 3 for m in ids)


def doc(state: Any, seat: int | None) -> dict[str, Any]:
    """The {view, legal_actions} document as the server sends it to `seat`."""
    acting = to_act(state)
    acts = legal_actions(state, seat) if seat is not None and seat == acting else []
    return {"view": view_for(state, seat), "legal_actions": acts}


def ancestral(players: int, seed: int, moves: int) -> dict[str, Any]:
    """An expansion game right after the player declared the Ancestral head (R-56).

    A set of squares spanning two realms is listed once per realm of the head, so several
    `place` actions share their cells and differ only in the head.
    """
    state = play(players, seed, moves, expansion=True)
    seat = to_act(state)
    state, _ = apply(state, {"type": "use_ancestral"}, seat)
    return doc(state, seat)


def card_outcomes(state: Any) -> dict[str, Any]:
    """The engine's outcomes of the first placeable card (GET .../outcomes's answer)."""
    seat = to_act(state)
    card = next(a["card"] for a in legal_actions(state, seat) if a["type"] == "place")
    return {"version": 10, "card": card, "outcomes": preview.outcomes(state, seat, card)}


def with_treasure(players: int, effect: str) -> dict[str, Any]:
    """An expansion game right after a before-placing treasure with `effect` was used: the
    document and the outcomes of the first placeable card (squares other than its shape)."""
    treasures = expansion_content().treasures

    def usable(s: Any, acts: list[dict[str, Any]]) -> bool:
        return any(a["type"] == "use_treasure" and treasures[a["card"]] == effect for a in acts)

    state = find(players, True, usable)
    seat = to_act(state)
    use = next(
        a
        for a in legal_actions(state, seat)
        if a["type"] == "use_treasure" and treasures[a["card"]] == effect
    )
    state, _ = apply(state, use, seat)
    return {**doc(state, seat), "outcomes": card_outcomes(state)}


def server_replay(players: int, seed: int, expansion: bool = False) -> dict[str, Any]:
    """A finished random game as GET /api/games/{id}/replay answers it: the server's own
    builder (app.services.watching.replays.build) over stand-ins for the stored game and moves."""
    options = GameOptions(players=players, expansion=expansion)
    rng = random.Random(seed)
    state = new_game(options, seed)
    moves = []
    while not state.over:
        seat = to_act(state)
        acts = legal_actions(state, seat)
        places = [a for a in acts if a["type"] == "place"]
        # Some passes, missions and treasures too, so every kind of move is replayed.
        action = rng.choice(places if places and rng.random() < 0.9 else acts)
        state, _ = apply(state, action, seat)
        moves.append(SimpleNamespace(seq=len(moves) + 1, seat=seat, action=action))
    names = ["Ann", "Bo", "Cy", "Di", "Ed"]
    seats = [
        SimpleNamespace(seat=i, user=SimpleNamespace(display_name=names[i]), bot_level=None)
        for i in range(players)
    ]
    game = SimpleNamespace(
        id=1, seed=seed, options=options.to_dict(), seats=seats, bot_names_of=None
    )
    return replays.build(game, moves)  # type: ignore[arg-type]


def replay_checkpoints(replay: dict[str, Any], players: int, seed: int, expansion: bool) -> Any:
    """The engine's after-the-end view at a few steps of `replay` (replayed from its actions),
    so the JS test checks the documents it builds from the ops against the engine itself."""
    state = new_game(GameOptions(players=players, expansion=expansion), seed)
    n = len(replay["frames"])
    steps = sorted({1, 10, n // 2, n - 1, n})
    out = {}
    for i, frame in enumerate(replay["frames"], start=1):
        state, _ = apply(state, frame["action"], frame["seat"])
        if i in steps:
            out[str(i)] = replay_view(state)
    return out


def placing_positions(players: int, seed: int, expansion: bool, every: int) -> list[Any]:
    """Every `every`-th position of a random game where a seat chooses a placement, as that
    seat sees it: its hand and the socket's compact legal actions (the keyboard's N moves the
    ghost over exactly these)."""
    rng = random.Random(seed)
    state = new_game(GameOptions(players=players, expansion=expansion), seed)
    out, n = [], 0
    while not state.over:
        seat = to_act(state)
        acts = legal_actions(state, seat)
        places = [a for a in acts if a["type"] == "place"]
        if places:
            if n % every == 0:
                hand = state.players[seat].hand
                out.append({"seat": seat, "hand": list(hand), "legal": pack_legal(acts)})
            n += 1
        pool = places if places and rng.random() < 0.8 else acts
        state, _ = apply(state, rng.choice(pool), seat)
    return out


def main(out: Path = OUT) -> None:
    """Write the fixtures into `out`."""
    out.mkdir(exist_ok=True)
    (out / "content.json").write_text(json.dumps(client_content()))
    start = new_game(GameOptions(players=3), 1)
    mid = play(4, 7, 40)
    end = play(3, 11, 2000)
    samples = {
        "start.json": doc(start, to_act(start)),
        "mid.json": doc(mid, to_act(mid)),
        "mid_spectator.json": doc(mid, None),
        "over.json": doc(end, 0),
    }
    samples["ancestral.json"] = ancestral(3, 21, 24)
    # The socket's compact legal actions beside the full lists they stand for (lib/legal.mjs).
    cases = []
    for state in (start, mid, play(2, 3, 25, expansion=True), play(5, 9, 30)):
        actions = legal_actions(state, to_act(state))
        cases.append({"packed": pack_legal(actions), "actions": actions})
    samples["legal_wire.json"] = {"cases": cases}
    # Decisions on the pieces: a mission with several payments (one with a Reef card), and a
    # pending tail choice (a dark blue ship, expansion).
    mission = find(3, False, lambda s, acts: _payments_for_one_mission(s, acts))
    samples["mission.json"] = doc(mission, to_act(mission))
    tail = find(3, True, lambda s, acts: any(a["type"] == "choose_tail" for a in acts))
    samples["tail.json"] = doc(tail, to_act(tail))
    convert = find(
        4, True, lambda s, acts: any(a["type"] == "use_treasure" and "convert" in a for a in acts)
    )
    samples["convert.json"] = doc(convert, to_act(convert))
    samples["outcomes_mid.json"] = card_outcomes(mid)
    samples["extra_body.json"] = with_treasure(4, "extra_body")
    samples["free_shape.json"] = with_treasure(4, "free_shape")
    samples["replay.json"] = server_replay(3, 5)
    # The expansion: Ancestral heads (counted twice in their head's realm) and tails.
    samples["replay_expansion.json"] = server_replay(4, 8, expansion=True)
    samples["replay_expansion_views.json"] = replay_checkpoints(
        samples["replay_expansion.json"], 4, 8, True
    )
    samples["placing.json"] = {
        "positions": placing_positions(2, 31, False, 2)
        + placing_positions(2, 32, False, 3)
        + placing_positions(3, 33, True, 3)
    }
    for name, data in samples.items():
        (out / name).write_text(json.dumps(data))
    print("wrote", ", ".join(samples), "and content.json; end over:", end.over)


if __name__ == "__main__":
    main()
