"""Infrastructure the services use: the bot decision pool (worker processes), the move's SQL
statements (in a session, alone, or from the event loop), the turn notices' outbox rows, the
durable job queue, worker threads for blocking calls."""
