"""Notices: turn notices, their email's words, and the mail outbox."""
