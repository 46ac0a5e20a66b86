"""What several layers share, with no logic of the app's own: the error family, the
after-commit listeners, the move's values (command, known state, committed move), the live
core's snapshots, the edge's HTTP helpers (cookie, address, Origin rule), the clock, the
key-by-key diff, and the caches of what never changes once committed."""
