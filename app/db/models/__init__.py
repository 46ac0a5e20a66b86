"""The database's tables as SQLAlchemy 2 models, one module per domain: accounts (users, login
sessions, days away), games (tables, seats, moves, chat), notices (the email outbox, push
subscriptions), jobs, ratings (ratings, results, profile sums), reviews (game analyses) and
matching (the quick-match pools); base.py holds what they share.

Import a model from its module (`from app.db.models.games import Game`). Every module is loaded
here, so whichever one is imported first, every table is mapped and in `Base.metadata` (the
relationships name each other by string, and migrations compare the whole metadata)."""

from app.db.models import accounts, games, jobs, matching, notices, ratings, reviews

__all__ = ["accounts", "games", "jobs", "matching", "notices", "ratings", "reviews"]
