"""Notices by email: their words (compose.py) and the outbox sender (mailer.py); the turn
notices' rows are written with the moves (app/infra/turn_notices.py)."""
