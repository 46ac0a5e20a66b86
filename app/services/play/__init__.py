"""Playing a game: the one road every move takes (road.py, with decide.py and effects.py),
reading a game and its log, turn deadlines, placement previews and hints."""
