"""Final scoring (R-40..R-45): a per-player, per-category breakdown and the winners."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .board import REALM_MASKS, REALMS
from .bonus import tail_detail, tail_scores
from .content import TRACKS
from .state import State
from .tally import gold_vp, hidden_dragons, mission_vp, realm_presence, ships_vp

CATEGORIES = ("gold", "ships", "missions", "most_missions", "realms")
MOST_MISSIONS_VP = 5  # for the most missions completed


def most_missions_seats(counts: Sequence[int], vps: Sequence[int]) -> list[int]:
    """Seats that get the most-missions VP (R-41), from each seat's missions completed and
    their printed VP: the most missions; tied, the most VP from them; still tied, each."""
    top = max(counts)
    if top == 0:
        return []
    tied = [s for s, n in enumerate(counts) if n == top]
    best_vp = max(vps[s] for s in tied)
    return [s for s in tied if vps[s] == best_vp]


def most_missions(state: State) -> list[int]:
    """Seats that get the `MOST_MISSIONS_VP` for most missions (R-41)."""
    seats = range(len(state.players))
    return most_missions_seats(
        [len(p.missions) for p in state.players], [mission_vp(state, s) for s in seats]
    )


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


def realm_vp(
    dragons: Sequence[int], pieces: Sequence[int], whirlpools: int, players: int
) -> list[int]:
    """VP per seat for one realm (R-43) from per-seat lists: Dragons counted and pieces.

    The fast form of `majority_vp` (no dicts, no tiers), for callers that rank a realm many
    times: the live standings of every view, and the bots' evaluation of every candidate
    placement. tests/engine/test_realm_vp.py holds the two forms equal.
    """
    out = [0] * players
    present = [(dragons[s], pieces[s], s) for s in range(players) if dragons[s]]
    if not present or not whirlpools:
        return out
    present.sort(reverse=True)
    top = present[0][:2]
    firsts = [s for c, k, s in present if (c, k) == top]
    if players == 2:
        if len(firsts) == 1:
            out[firsts[0]] = 2 * whirlpools
        return out
    for s in firsts:
        out[s] = 3 * whirlpools
    if len(firsts) == 1 and len(present) > 1:
        second = present[1][:2]
        for c, k, s in present[1:]:
            if (c, k) == second:
                out[s] = (3 * whirlpools) // 2
    return out


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
            "most_missions": MOST_MISSIONS_VP if seat in most else 0,
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
    hidden = hidden_dragons(state, seat, realm)
    if not count:
        pieces = (state.players[seat].pieces & REALM_MASKS[realm]).bit_count()
    return {"count": count, "hidden": hidden, "hidden_included": True, "pieces": pieces}


def ranking_key(player: dict[str, Any]) -> tuple[int, int, int]:
    """A player's place in the final ranking (R-44), better is larger: total VP, then (in the
    expansion) VP from the tails, then missions completed. `player` is an entry of
    `final_scores(state)["players"]`; equal keys share a place."""
    return (player["total"], player["categories"].get("tails", 0), player["missions_completed"])


def winners(players: list[dict[str, Any]]) -> list[int]:
    """R-44: the seats with the best `ranking_key`; several when it stays equal (shared)."""
    best = max(ranking_key(p) for p in players)
    return [p["seat"] for p in players if ranking_key(p) == best]
