"""What each viewer may see (R-60): the one choke point where secrets are stripped."""

from __future__ import annotations

import copy
from typing import Any

from . import expansion, expansion_cards
from .board import REALMS
from .content import DECKS, content
from .draws import draw_decks
from .majorities import holds_hidden_dragon, public_presence, realm_standings, standings
from .missions import payment_covers
from .scoring import final_scores
from .state import State

DECK_NAMES = (*DECKS, "missions", "reefs", "treasures")


def _player_view(
    state: State, seat: int, viewer: int | None, open_all: bool = False
) -> dict[str, Any]:
    p = state.players[seat]
    reveal = viewer == seat or state.over or open_all  # hands are shown once the game has ended
    view: dict[str, Any] = {
        "seat": seat,
        "colour": p.colour,
        "gold": p.gold,
        "heads": p.heads,
        "ships": dict(p.ships),
        "missions": list(p.missions),
        "played": list(p.played),
        "discarded": list(p.discarded),
        "hand_count": len(p.hand),
        "reef_count": len(p.reefs),
        "hand": list(p.hand) if reveal else None,
        "reefs": list(p.reefs) if reveal else None,
        "used": list(p.used),  # Reef cards paid or cashed: a public discard pile
    }
    if state.options.expansion:
        view.update(
            ancestral=p.ancestral,
            tails=dict(p.tails),
            treasure_count=len(p.treasures),
            treasures=list(p.treasures) if reveal else None,
            reefs_acquired=p.reefs_acquired,
            treasures_acquired=p.treasures_acquired,
        )
    return view


def _pending_view(state: State, viewer: int | None, open_all: bool = False) -> list[dict[str, Any]]:
    out = []
    for d in state.pending:
        item = {"kind": d["kind"], "seat": state.turn.seat}
        if "cards" in d:
            # The cards drawn to choose from are the chooser's secret.
            shown = viewer == state.turn.seat or open_all
            item["cards"] = list(d["cards"]) if shown else None
            item["card_count"] = len(d["cards"])
        for key in ("reason", "count", "ships"):  # ships just gained are public
            if key in d:
                item[key] = d[key]
        if d["kind"] == "tail":
            item["tracks"] = expansion.open_tracks(state)  # tails are public
        out.append(item)
    return out


def _missions_open(state: State, viewer: int | None) -> list[str] | None:
    """The Missions of the market the acting seat can pay for now, for that seat only: it
    depends on the Reef cards held (R-60), so every other viewer gets None."""
    turn = state.turn
    if viewer is None or viewer != turn.seat or state.over:
        return None
    if turn.phase != "mission" or state.pending or turn.missions_done >= turn.mission_limit:
        return []
    player = state.players[viewer]
    missions = content().missions
    return [
        mid
        for mid in state.market["missions"]
        if payment_covers(missions[mid], player.ships, player.reefs)
    ]


def shared_view(state: State) -> dict[str, Any]:
    """The parts of the view that are the same for every viewer: public by construction.

    A caller that builds several viewers' views of one state (the real-time fan-out) computes
    this once and passes it to `view_for`; their views then share these parts, which must be
    treated as read-only (as every view is).
    """
    board = state.board
    shared: dict[str, Any] = {
        "board": {
            "layouts": dict(zip(REALMS, state.layouts, strict=True)),
            "rows": board.symbol_rows(),
            "ships": [[r, c, col] for (r, c), col in sorted(state.ships_on_board.items())],
            "dragons": [d.view for d in state.dragons],
        },
        "market": {k: list(v) for k, v in state.market.items()},
        "deck_sizes": {k: len(state.decks[k]) for k in DECK_NAMES if k in state.decks},
        "turn": {
            "seat": state.turn.seat,
            "phase": state.turn.phase,
            "number": state.turn.number,
            "played_deck": state.turn.played_deck,
            "missions_done": state.turn.missions_done,
            "mission_limit": state.turn.mission_limit,
            "treasure_used": state.turn.treasure_used,
            "effects": list(state.turn.effects),
            "ancestral": state.turn.ancestral,
            # The decks this turn's draw may come from (the same-deck treasure adds the
            # played card's deck), so a client never works it out.
            "draw_decks": draw_decks(state),
            # What a `take_back` action would undo now (None: nothing), so the table can
            # show what is switched on for the placement and offer to undo it.
            "take_back": expansion_cards.take_back_view(state),
        },
        "public_presence": public_presence(state),
    }
    # The live majorities as a spectator sees them (every seat's once over): also what every
    # seat without a Hidden Dragon card sees, so one computation serves most viewers.
    shared["realms"] = realm_standings(state, None, shared["public_presence"])
    # Each player as everyone but that player sees them (hands hidden until the end): a view
    # differs from these only in the viewer's own entry.
    shared["players"] = [_player_view(state, s, None) for s in range(len(state.players))]
    if state.options.expansion:
        shared["reward"] = _reward_view(state.reward)
    if state.over:
        shared["scores"] = final_scores(state)
    return shared


# The Reward Board is fixed at setup and shared by a game's states (State.clone), so its copy for
# views is made once per game: id(reward) -> (reward, copy), the newest games kept. The copy is
# compared with the board before it is used (a dict comparison in C, far cheaper than the copy):
# a board changed in place (a test setting up a position, a future rule) gets a fresh copy instead
# of a stale one.
_REWARD_VIEWS: dict[int, tuple[Any, Any]] = {}
_REWARD_VIEWS_KEPT = 256


def _reward_view(reward: Any) -> Any:
    """A copy of the Reward Board for views (a view must never alias the state)."""
    kept = _REWARD_VIEWS.get(id(reward))
    if kept is not None and kept[0] is reward and kept[1] == reward:
        return kept[1]
    view = copy.deepcopy(reward)
    _REWARD_VIEWS[id(reward)] = (reward, view)  # holding `reward` keeps its id from reuse
    while len(_REWARD_VIEWS) > _REWARD_VIEWS_KEPT:
        _REWARD_VIEWS.pop(next(iter(_REWARD_VIEWS)), None)
    return view


def view_for(
    state: State, viewer: int | None, shared: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The state as seen by a seat (0..n-1) or a spectator (None), as JSON-ready data.

    `shared`: `shared_view(state)` of this same state, when the caller already has it.
    """
    if shared is None:
        shared = shared_view(state)
    view: dict[str, Any] = {
        "players_count": len(state.players),
        "expansion": state.options.expansion,
        "viewer": viewer,
        "board": shared["board"],
        "players": _players(state, viewer, shared["players"]),
        "market": shared["market"],
        "deck_sizes": shared["deck_sizes"],
        "turn": shared["turn"],
        "pending": _pending_view(state, viewer),
        "over": state.over,
        # Live majorities per realm: Hidden Dragons only the viewer's own.
        "realms": _realms(state, viewer, shared),
        "missions_open": _missions_open(state, viewer),
    }
    if "reward" in shared:
        view["reward"] = shared["reward"]
    if "scores" in shared:
        view["scores"] = shared["scores"]
    return view


def _players(
    state: State, viewer: int | None, public: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    if viewer is None or state.over or not 0 <= viewer < len(public):
        return public  # nobody's own hand to show: everyone's public entries (all, once over)
    players = list(public)
    players[viewer] = _player_view(state, viewer, viewer)
    return players


def _realms(state: State, viewer: int | None, shared: dict[str, Any]) -> list[dict[str, Any]]:
    if viewer is None or state.over or not holds_hidden_dragon(state, viewer):
        return shared["realms"]
    return realm_standings(state, viewer, shared["public_presence"])


def replay_view(state: State, shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """A spectator's view of a position of a finished game: every hand, Reef and treasure,
    every card drawn for a choice, and every Hidden Dragon counted, as R-60 allows once the
    game has ended. Only replays of finished games may use it."""
    if shared is None:
        shared = shared_view(state)
    view = view_for(state, None, shared)
    n = len(state.players)
    view["players"] = [_player_view(state, s, None, open_all=True) for s in range(n)]
    view["pending"] = _pending_view(state, None, open_all=True)
    view["realms"] = standings(state, lambda _seat: True, shared["public_presence"])
    return view


def event_for(event: dict[str, Any], viewer: int | None, over: bool = False) -> dict[str, Any]:
    """An event as a viewer may see it: its `secret` part only for the acting seat (R-60)."""
    if "secret" not in event:
        return event
    if (viewer is not None and viewer == event.get("seat")) or over:
        return event
    return {k: v for k, v in event.items() if k != "secret"}
