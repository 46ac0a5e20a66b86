"""Final scoring (R-40..R-45): a per-player, per-category breakdown and the winners."""

from __future__ import annotations

from typing import Any

from .board import REALM_MASKS, REALMS, bit
from .bonus import TRACKS, tail_detail, tail_scores
from .content import content
from .state import State

CATEGORIES = ("gold", "ships", "missions", "most_missions", "realms")


def _card_kinds(card_ids: list[str]) -> list[Any]:
    reefs = content().reefs
    return [reefs[c] for c in card_ids]


def gold_vp(state: State, seat: int) -> int:
    """1 VP per Gold; a Gold card still held counts 4 (R-40)."""
    p = state.players[seat]
    return p.gold + sum(c.gold for c in _card_kinds(p.reefs) if c.kind == "gold")


def ships_vp(state: State, seat: int) -> int:
    """1 VP per ship: tokens, Two-Ship cards (2), Wild cards (1) (R-40)."""
    p = state.players[seat]
    cards = _card_kinds(p.reefs)
    return (
        sum(p.ships.values())
        + 2 * sum(1 for c in cards if c.kind == "two_ships")
        + sum(1 for c in cards if c.kind == "wild_ship")
    )


def mission_vp(state: State, seat: int) -> int:
    """VP printed on the completed missions."""
    missions = content().missions
    return sum(missions[m].vp for m in state.players[seat].missions)


def most_missions(state: State) -> list[int]:
    """Seats that get the 5 VP for most missions (R-41)."""
    counts = [len(p.missions) for p in state.players]
    top = max(counts)
    if top == 0:
        return []
    tied = [s for s, n in enumerate(counts) if n == top]
    best_vp = max(mission_vp(state, s) for s in tied)
    return [s for s in tied if mission_vp(state, s) == best_vp]


def realm_presence(state: State, realm: str) -> dict[int, tuple[int, int]]:
    """Per seat with presence: (Dragons counted, pieces on the board) in a realm (R-42)."""
    rmask = REALM_MASKS[realm]
    dragons = [0] * len(state.players)
    for d in state.dragons:
        if d.mask & rmask:
            dragons[d.owner] += 1
            if d.ancestral and bit(*d.head) & rmask:
                dragons[d.owner] += 1  # the Ancestral head counts as two Dragons
    out = {}
    for p in state.players:
        hidden = sum(
            1 for c in _card_kinds(p.reefs) if c.kind == "hidden_dragon" and c.realm == realm
        )
        count = dragons[p.seat] + hidden
        if count:
            out[p.seat] = (count, (p.pieces & rmask).bit_count())
    return out


def uncovered_whirlpools(state: State, realm: str) -> int:
    """Whirlpools of a realm not covered by any piece."""
    return (state.board.whirlpools & REALM_MASKS[realm] & ~state.occupied).bit_count()


def realm_majority(state: State, realm: str) -> dict[int, int]:
    """VP per seat for one realm's majority (R-43)."""
    return majority_vp(
        realm_presence(state, realm), uncovered_whirlpools(state, realm), len(state.players)
    )


def majority_vp(
    presence: dict[int, tuple[int, int]], whirlpools: int, players: int
) -> dict[int, int]:
    """VP per seat for one realm from its presence, seat -> (Dragons, pieces) (R-43).

    Also the live standings' rule (majorities.py), so the table shows what scoring will give.
    """
    if not presence:
        return {}
    # Rank by (Dragons, pieces): pieces break ties; hidden Dragons only count in the first.
    ranks = sorted(set(presence.values()), reverse=True)
    tiers = [[s for s, v in presence.items() if v == rank] for rank in ranks]
    if players == 2:
        first = tiers[0]
        return {first[0]: 2 * whirlpools} if len(first) == 1 else {}
    first_vp = 3 * whirlpools
    scores = {s: first_vp for s in tiers[0]}
    if len(tiers[0]) == 1 and len(tiers) > 1:
        scores.update({s: first_vp // 2 for s in tiers[1]})
    return scores


def final_scores(state: State) -> dict[str, Any]:
    """The breakdown per player and category (R-45), the realm details, and the winners."""
    n = len(state.players)
    realms = {realm: realm_majority(state, realm) for realm in REALMS}
    most = most_missions(state)
    tails = tail_scores(state) if state.options.expansion else None
    players = []
    for seat in range(n):
        cats = {
            "gold": gold_vp(state, seat),
            "ships": ships_vp(state, seat),
            "missions": mission_vp(state, seat),
            "most_missions": 5 if seat in most else 0,
            "realms": sum(r.get(seat, 0) for r in realms.values()),
        }
        entry: dict[str, Any] = {
            "seat": seat,
            "categories": cats,
            "realms": {realm: realms[realm].get(seat, 0) for realm in REALMS},
            "realm_detail": {realm: _realm_cell(state, seat, realm) for realm in REALMS},
            "total": 0,
            "missions_completed": len(state.players[seat].missions),
        }
        if tails is not None:
            cats["tails"] = tails[seat]
            entry["tails_detail"] = [tail_detail(state, seat, t) for t in TRACKS]
        entry["total"] = sum(cats.values())
        players.append(entry)
    return {
        "players": players,
        "winners": winners(players),
        "realm_whirlpools": {realm: uncovered_whirlpools(state, realm) for realm in REALMS},
    }


def _realm_cell(state: State, seat: int, realm: str) -> dict[str, Any]:
    """A realm cell of the final scores: Dragons counted (R-42), of which Hidden Dragon cards,
    and pieces; final scoring always counts the Hidden Dragons, so `hidden_included` is true."""
    count, pieces = realm_presence(state, realm).get(seat, (0, 0))
    hidden = sum(
        1
        for c in _card_kinds(state.players[seat].reefs)
        if c.kind == "hidden_dragon" and c.realm == realm
    )
    if not count:
        pieces = (state.players[seat].pieces & REALM_MASKS[realm]).bit_count()
    return {"count": count, "hidden": hidden, "hidden_included": True, "pieces": pieces}


def winners(players: list[dict[str, Any]]) -> list[int]:
    """R-44: most VP; then (expansion) tail VP; then missions completed; else shared."""

    def key(p: dict[str, Any]) -> tuple[int, int, int]:
        return (p["total"], p["categories"].get("tails", 0), p["missions_completed"])

    best = max(key(p) for p in players)
    return [p["seat"] for p in players if key(p) == best]
