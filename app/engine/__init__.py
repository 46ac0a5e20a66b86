"""The Sea Dragons rules engine: pure and deterministic (no I/O, no clock, no global random).

Public API:
    new_game(options, seed) -> State
    legal_actions(state, seat) -> list[action dict]
    apply(state, action, seat) -> (State, events)       raises EngineError
    to_act(state), is_over(state), final_scores(state)
    view_for(state, viewer), event_for(event, viewer), describe(event)
    replay_view(state): a position of a finished game with every secret shown (R-60)
    state_to_json(state), state_from_json(data), replay(options, seed, moves)
    canonical_action(action): what to store in a move log
    listed_form(state, action): a played action as legal_actions lists it (its head moved)
    parse_action(data) -> Action: an action parsed once (apply takes it as it is)
    explain(state, seat, action) -> Reason | None: why `apply` would refuse it (code, facts)
    explain_unparsed(data, error) -> Reason: the same for an action that does not parse

Rules other layers apply themselves, so that each has one definition (here):
    packed_legal(state, seat), pack_legal(actions), expand_legal(packed): the compact wire form
        of the legal actions (the sockets send it)
    realm_heads(mask), realm_head_bits(mask): the heads the Ancestral head may take on a set
        of squares, as squares and as square bits (R-56)
    realm_vp(dragons, pieces, whirlpools, players): a realm's ranking, fast form (R-43)
    ranking_key(player): a player's place in the final ranking (R-44)
    reef_ships(card), reef_gold(card), reef_vp(card): a Reef card held at the end (R-40)
    TRACKS: the Reward Board's tracks (R-50); BONUS_TILE_CAP: a Bonus tile's most VP and
        tile_per(tile, players): its VP per item counted (R-53)
    most_missions_seats(counts, vps), MOST_MISSIONS_VP: who gets the most-missions VP (R-41)
    GOLD_PER_TURBULENT_SQUARE (R-22), TRIPLE_GOLD_FACTOR, CONTACT_GOLD_PER_DRAGON (R-54)
    MIN_PLAYERS, MAX_PLAYERS: a game's size (GameOptions refuses others)
    client_content(): the printed content and rule constants the client is sent (/content.json)
"""

from __future__ import annotations

from typing import Any

from .actions import Action, parse_action
from .actions import to_json as _action_json
from .bonus import TILE_CAP as BONUS_TILE_CAP
from .bonus import tile_per
from .client_content import client_content
from .content import TRACKS
from .errors import CODES, EngineError
from .events import describe, line
from .explain import Reason, explain, explain_unparsed
from .legal import legal_actions, listed_form, realm_head_bits, realm_heads
from .legal_wire import expand_legal, pack_legal, packed_legal
from .placement import CONTACT_GOLD_PER_DRAGON, GOLD_PER_TURBULENT_SQUARE, TRIPLE_GOLD_FACTOR
from .rules import apply, to_act
from .scoring import MOST_MISSIONS_VP, final_scores, most_missions_seats, ranking_key, realm_vp
from .setup import new_game
from .state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    GameOptions,
    State,
    state_from_json,
    state_to_json,
)
from .tally import reef_gold, reef_ships, reef_vp
from .views import event_for, replay_view, shared_view, view_for


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.over


def canonical_action(action: dict[str, Any] | Action) -> dict[str, Any]:
    """The action in its canonical JSON form, without unknown fields (raises bad_action)."""
    return _action_json(action if isinstance(action, Action) else parse_action(action))


def replay(options: GameOptions, seed: int, moves: list[tuple[int, dict[str, Any]]]) -> State:
    """The state reached by applying `(seat, action)` moves to a new game."""
    state = new_game(options, seed)
    for seat, action in moves:
        state, _ = apply(state, action, seat)
    return state


__all__ = [
    "BONUS_TILE_CAP",
    "CODES",
    "CONTACT_GOLD_PER_DRAGON",
    "GOLD_PER_TURBULENT_SQUARE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOST_MISSIONS_VP",
    "TRACKS",
    "TRIPLE_GOLD_FACTOR",
    "Action",
    "EngineError",
    "GameOptions",
    "Reason",
    "State",
    "apply",
    "canonical_action",
    "client_content",
    "describe",
    "event_for",
    "expand_legal",
    "explain",
    "explain_unparsed",
    "final_scores",
    "is_over",
    "legal_actions",
    "line",
    "listed_form",
    "most_missions_seats",
    "new_game",
    "pack_legal",
    "packed_legal",
    "parse_action",
    "ranking_key",
    "realm_head_bits",
    "realm_heads",
    "realm_vp",
    "reef_gold",
    "reef_ships",
    "reef_vp",
    "replay",
    "replay_view",
    "shared_view",
    "state_from_json",
    "state_to_json",
    "tile_per",
    "to_act",
    "view_for",
]
