"""Infrastructure the services use: the bot decision pool, the state cache, the move's statements,
the durable job queue."""
