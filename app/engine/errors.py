"""The one error family of the rules engine, with stable codes."""

from __future__ import annotations


class EngineError(ValueError):
    """An action the engine refuses; the state it was applied to is unchanged.

    `code` is stable (clients and the web layer switch on it); `message` is for people
    and names the action that was refused.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# Every code the engine raises. The web layer maps them to HTTP statuses and socket errors.
CODES = frozenset(
    {
        "bad_action",  # malformed: unknown type, missing or mistyped field
        "not_your_turn",  # someone else must decide now
        "decision_pending",  # a pending choice must be resolved first
        "wrong_phase",  # a legal kind of action, but not at this point of the turn
        "no_such_card",  # the card is not where the action says it is
        "illegal_placement",  # squares do not match the card or break R-21
        "cannot_afford",  # the placement costs more Gold than the player can raise
        "wrong_deck",  # the draw comes from the deck of the card just played
        "bad_payment",  # the ships offered do not pay for the mission
        "not_allowed",  # a once-per-game/turn allowance is used up, or the option is off
        "game_over",  # the game has ended
    }
)
