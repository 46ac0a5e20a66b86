"""Tables: the lobby (games and seats), turn clocks, bots in seats, chat, presence,
rematches, seat names, caps on live games."""
