"""Tables: the lobby, seats, bots in seats, chat, presence, rematches, names."""
