"""Playing a game: the one road every move takes, clocks and deadlines, previews and hints."""
