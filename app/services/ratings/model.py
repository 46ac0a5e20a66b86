"""The rating rules, pure (no database): placings from the engine's final scores, OpenSkill
Plackett-Luce updates, the displayed number, predictions. docs/ratings.md says why each is so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from app.engine import ranking_key
from app.services.ratings.anchors import ANCHORS

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (the package's defaults)
VARIANTS = ("base", "expansion")

# The displayed rating: the ordinal mu - 3 sigma (a conservative estimate: 99.7 % of the belief
# lies above it) as 1000 + 40 per point. A newcomer shows 1000; one beta of skill (the spread of
# one game's performance) is about 167, near Elo's 200-point class.
DISPLAY_BASE = 1000
DISPLAY_PER_POINT = 40


@dataclass(frozen=True)
class Skill:
    """A belief about one player's skill."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)


NEW = Skill(MODEL.mu, MODEL.sigma)


def display(mu: float, sigma: float) -> int:
    """The number players see for (mu, sigma)."""
    return round(DISPLAY_BASE + DISPLAY_PER_POINT * (mu - 3 * sigma))


def variant_of(options: dict[str, Any]) -> str:
    """The rating pool of a game: the base game or Treasures of the Deep."""
    return "expansion" if options.get("expansion") else "base"


def anchor(level: str) -> Skill:
    """A bot level's fixed rating (bench/rating_anchors.py measured it)."""
    mu, sigma = ANCHORS[level]
    return Skill(mu, sigma)


def placings(final_scores: dict[str, Any], quit: Sequence[bool]) -> list[int]:
    """1-based place per seat by the engine's ranking key (R-44); equal keys share a place. A
    seat its owner quit (`quit`) ranks
    below every seat that was played to the end, and quitters among themselves by score."""
    keys = {p["seat"]: (not quit[p["seat"]], *ranking_key(p)) for p in final_scores["players"]}
    return [1 + sum(1 for k in keys.values() if k > keys[seat]) for seat in range(len(keys))]


def rate(
    priors: Sequence[Skill], places: Sequence[int], model: PlackettLuce = MODEL
) -> list[Skill]:
    """Every seat's skill after one game with these places (ties share), free-for-all.
    (`model`: another parameter set, for the calibration bench only.)"""
    teams = [[model.rating(mu=p.mu, sigma=p.sigma)] for p in priors]
    rated = model.rate(teams, ranks=list(places))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def predict(skills: Sequence[Skill], model: PlackettLuce = MODEL) -> list[dict[str, float]]:
    """Per seat: the chance to win and the expected place (1 = first), before a game."""
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    wins = model.predict_win(teams)
    ranks = model.predict_rank(teams)
    return [
        {"win": round(w, 4), "place": int(rank)} for w, (rank, _p) in zip(wins, ranks, strict=True)
    ]
