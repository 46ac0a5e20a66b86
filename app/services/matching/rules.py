"""The pools' settings as the services take them (from app/settings.py, MATCH_*)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.services.matching.penalties import QuitRule


@dataclass(frozen=True)
class MatchRules:
    """The pools' settings (app/settings.py, MATCH_*)."""

    entry_seconds: float
    bots_after_seconds: float
    bot_level: str
    any_players_with_bots: int
    max_pools_per_user: int
    max_entries_per_address: int
    live_initial_seconds: int
    live_per_turn_seconds: int
    daily_seconds: int
    quit: QuitRule
    max_clock_seconds: int = 30 * 86400

    @classmethod
    def from_settings(cls, s: Any) -> MatchRules:
        return cls(
            entry_seconds=s.match_entry_seconds,
            bots_after_seconds=s.match_bots_after_seconds,
            bot_level=s.match_bot_level,
            any_players_with_bots=s.match_any_players_with_bots,
            max_pools_per_user=s.match_max_pools_per_user,
            max_entries_per_address=s.match_max_entries_per_address,
            live_initial_seconds=s.match_live_initial_seconds,
            live_per_turn_seconds=s.match_live_per_turn_seconds,
            daily_seconds=s.match_daily_seconds,
            quit=QuitRule(
                s.match_quits_for_delay,
                s.match_quit_window_hours,
                s.match_quit_delay_seconds,
                s.match_quit_delay_max_seconds,
            ),
            max_clock_seconds=s.clock_max_seconds,
        )

    def clock(self, pace: str) -> dict[str, Any]:
        """The turn clock of a table of this pace (app/services/tables/clocks.py)."""
        if pace == "live":
            return {
                "mode": "live",
                "initial": self.live_initial_seconds,
                "per_turn": self.live_per_turn_seconds,
            }
        return {"mode": "daily", "per_turn": self.daily_seconds}
