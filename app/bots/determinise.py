"""Determinisation: a full engine State consistent with one seat's view (R-60).

What the view hides (other hands, other Reef cards, deck order) is filled with a random sample of
the cards the viewer has not seen, with exactly the public counts: hand sizes, Reef counts and
deck sizes. Searching over several such states never reads the real hidden information.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

from app.engine.board import REALMS
from app.engine.content import DECKS, content, expansion_content
from app.engine.state import COLOURS, Dragon, GameOptions, Player, State, Turn

from .greedy import unknown_pattern_cards
from .position import position_from_view

Json = dict[str, Any]


def _deal(rng: random.Random, pool: list[str], sizes: list[int]) -> list[list[str]]:
    """Shuffle `pool` and cut it into piles of the given sizes (short piles if it runs out)."""
    pool = list(pool)
    rng.shuffle(pool)
    piles, i = [], 0
    for k in sizes:
        piles.append(pool[i : i + k])
        i += k
    return piles


def _pattern_hidden(
    view: Json, rng: random.Random, others: list[int]
) -> tuple[dict[int, list[str]], dict[str, list[str]]]:
    """Opponents' hands and the S/M/L decks, from the unseen Pattern cards of each deck."""
    pos = position_from_view(view)
    in_hands: list[str] = []
    decks: dict[str, list[str]] = {}
    for deck in DECKS:
        unseen = unknown_pattern_cards(pos, deck)
        rng.shuffle(unseen)
        size = min(view["deck_sizes"][deck], len(unseen))
        # The unseen cards beyond the deck's size must be in opponents' hands.
        decks[deck], extra = unseen[:size], unseen[size:]
        in_hands.extend(extra)
    sizes = [view["players"][s]["hand_count"] for s in others]
    hands = dict(zip(others, _deal(rng, in_hands, sizes), strict=True))
    return hands, decks


def _treasures_hidden(
    view: Json, rng: random.Random, others: list[int]
) -> tuple[dict[int, list[str]], list[str]]:
    """Opponents' Hidden Treasures and the treasure deck, from the treasures not seen.

    Seen: the viewer's own hand, every discard pile (used cards are public) and the cards of the
    viewer's own pending treasure draw. The rest, cards put back at the bottom included, is split
    by the public counts.
    """
    me = view["viewer"]
    seen = set(view["players"][me]["treasures"] or ())
    for p in view["players"]:
        seen.update(p.get("used") or ())
    for d in view["pending"]:
        if d["kind"] == "treasure":
            seen.update(d.get("cards") or ())
    unseen = [t for t in sorted(expansion_content().treasures) if t not in seen]
    sizes = [view["players"][s]["treasure_count"] for s in others]
    *hands, deck = _deal(rng, unseen, [*sizes, view["deck_sizes"]["treasures"]])
    return dict(zip(others, hands, strict=True)), deck


# The view's turn also carries facts derived from the state (the decks a draw may use): not fields.
_TURN_FIELDS = frozenset(f.name for f in dataclasses.fields(Turn))


def _turn(shown: Json, held: list[str]) -> Turn:
    kept = {k: v for k, v in shown.items() if k in _TURN_FIELDS}
    turn = Turn(**{**kept, "effects": list(shown["effects"])})
    # The view shows only the newest thing `take_back` would undo; bots never take back, so that
    # one entry (the treasure back at the end of the hand) is all a world needs to look the same.
    newest = shown.get("take_back")
    if newest is not None and newest["kind"] == "ancestral":
        turn.undo = [{"kind": "ancestral"}]
    elif newest is not None:
        turn.undo = [{"kind": "treasure", "card": newest["card"], "index": len(held)}]
    return turn


def determinise(view: Json, rng: random.Random) -> State:
    """A State that `view_for(state, view['viewer'])` would show as `view` (base or expansion)."""
    me = view["viewer"]
    n = view["players_count"]
    c = content()
    others = [s for s in range(n) if s != me]
    hands, decks = _pattern_hidden(view, rng, others)

    completed = {m for p in view["players"] for m in p["missions"]}
    missions = [m for m in c.missions if m not in completed and m not in view["market"]["missions"]]
    rng.shuffle(missions)
    decks["missions"] = missions[: view["deck_sizes"]["missions"]]

    mine = view["players"][me]
    pending_cards = [cid for d in view["pending"] for cid in (d.get("cards") or ())]
    reef_ids = list(c.base_reef_ids) + (list(c.coral_reef_ids) if view["expansion"] else [])
    known = set(mine["reefs"] or ()) | set(pending_cards)
    for p in view["players"]:
        known.update(p.get("used") or ())
    unseen_reefs = [r for r in reef_ids if r not in known]
    sizes = [view["players"][s]["reef_count"] for s in others] + [view["deck_sizes"]["reefs"]]
    *reef_hands, decks["reefs"] = _deal(rng, unseen_reefs, sizes)
    reefs = dict(zip(others, reef_hands, strict=True))
    treasures: dict[int, list[str]] = {}
    if "treasures" in view["deck_sizes"]:
        treasures, decks["treasures"] = _treasures_hidden(view, rng, others)

    players = []
    for pv in view["players"]:
        s = pv["seat"]
        players.append(
            Player(
                seat=s,
                colour=pv.get("colour", COLOURS[s]),
                gold=pv["gold"],
                heads=pv["heads"],
                hand=list(pv["hand"]) if s == me else hands[s],
                reefs=list(pv["reefs"]) if s == me else reefs[s],
                ships=dict(pv["ships"]),
                missions=list(pv["missions"]),
                played=list(pv["played"]),
                discarded=list(pv["discarded"]),
                used=list(pv.get("used") or ()),
            )
        )
        if view["expansion"]:
            p = players[-1]
            p.ancestral = pv["ancestral"]
            p.tails = dict(pv["tails"])
            p.treasures = list(pv["treasures"]) if s == me else treasures[s]
            p.reefs_acquired = pv["reefs_acquired"]
            p.treasures_acquired = pv["treasures_acquired"]
    state = State(
        options=GameOptions(players=n, expansion=view["expansion"]),
        layouts=tuple(view["board"]["layouts"][r] for r in REALMS),
        ships_on_board={(r, col): colour for r, col, colour in view["board"]["ships"]},
        dragons=[],
        players=players,
        decks=decks,
        market={k: list(v) for k, v in view["market"].items()},
        turn=_turn(view["turn"], list(mine.get("treasures") or ())),
        pending=[_pending(d) for d in view["pending"]],
        reward=copy.deepcopy(view.get("reward") or {}),
    )
    for d in view["board"]["dragons"]:
        cells = tuple(sorted((int(r), int(col)) for r, col in d["cells"]))
        head = (int(d["head"][0]), int(d["head"][1]))
        state.add_dragon(Dragon(d["owner"], cells, head, d["card"], d.get("ancestral", False)))
    return state


def _pending(d: Json) -> Json:
    """A pending choice as the engine stores it (the viewer's own, so its cards are visible)."""
    out = {k: v for k, v in d.items() if k not in ("seat", "card_count")}
    if out.get("cards") is None:
        out.pop("cards", None)
    return out
