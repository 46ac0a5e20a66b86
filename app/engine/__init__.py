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
"""

from __future__ import annotations

from typing import Any

from .actions import Action, parse_action
from .actions import to_json as _action_json
from .errors import CODES, EngineError
from .events import describe, line
from .explain import Reason, explain, explain_unparsed
from .legal import legal_actions, listed_form
from .rules import apply, to_act
from .scoring import final_scores
from .setup import new_game
from .state import GameOptions, State, state_from_json, state_to_json
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
    "CODES",
    "Action",
    "EngineError",
    "GameOptions",
    "Reason",
    "State",
    "apply",
    "canonical_action",
    "describe",
    "event_for",
    "explain",
    "explain_unparsed",
    "final_scores",
    "is_over",
    "legal_actions",
    "line",
    "listed_form",
    "new_game",
    "parse_action",
    "replay",
    "replay_view",
    "shared_view",
    "state_from_json",
    "state_to_json",
    "to_act",
    "view_for",
]
