"""A move decided, before anything is written: the engine's verdict and the row it writes.

Pure: nothing here reads or writes the database, so the one road (road.py) can decide a move
wherever it runs, on the event loop or in a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import app.engine as rules
from app.infra import move_write
from app.shared.errors import ServiceError


@dataclass(frozen=True)
class Decision:
    """A move as the engine decided it, before anything is written."""

    action: rules.Action
    state: Any  # the new state
    events: list[dict[str, Any]]
    to_act: int | None
    status: str
    values: dict[str, Any]  # the game row's new values (version and snapshot among them)

    @property
    def finished(self) -> bool:
        """This move ends the game."""
        return self.status == "finished"


def decide(
    state: Any, action: dict[str, Any] | rules.Action, seat: int, version: int, now: datetime
) -> Decision:
    """The engine's verdict on `action` by `seat` at `version`; raises ServiceError (with the
    reason the engine gives) when it is illegal."""
    try:
        if not isinstance(action, rules.Action):
            action = rules.parse_action(action)  # once: the engine and the log take it as it is
        new_state, events = rules.apply(state, action, seat)
    except rules.EngineError as exc:
        why = rules.explain(state, seat, action)
        reason = why.to_json() if why is not None else None
        raise ServiceError(exc.code, exc.message, reason=reason) from None
    to_act = rules.to_act(new_state)
    status = "live"
    values: dict[str, Any] = {
        "version": version + 1,
        "snapshot": rules.state_to_json(new_state),
        "to_act": to_act,
    }
    if rules.is_over(new_state):
        status = "finished"
        values.update(status=status, finished_at=now, final_scores=rules.final_scores(new_state))
    return Decision(action, new_state, events, to_act, status, values)


def writes_alone(decision: Decision, clocked: bool, back: bool) -> bool:
    """Whether a move needs nothing written but its own statements: no turn clock to move, no
    "left" mark to clear, no finish with its effects. The one place this is decided."""
    return not clocked and not back and not decision.finished


def move_row(
    game_id: int,
    seat: int,
    version: int,
    owner: int | None,
    before: Any,
    decision: Decision,
    now: datetime,
    timeout: bool = False,
    notice: bool = True,
) -> move_write.MoveRow:
    """What the move writes (`before`: the state it was decided on). `notice`: the turn notice
    goes with the move's statements (unless a clock's record writes it)."""
    turn_notice = None
    to_act, after = decision.to_act, decision.state
    if notice and to_act is not None and after.turn.number != before.turn.number:
        turn_notice = (to_act, after.turn.number)  # a turn starts: its "your turn" notice
    return move_write.MoveRow(
        game_id,
        version,
        seat,
        owner,
        decision.values,
        {
            "seq": version + 1,
            "seat": seat,
            "action": rules.canonical_action(decision.action),  # unknown fields never kept
            "events": decision.events,
            "created_at": now,
            "timeout": timeout,
        },
        turn_notice,
    )
