"""Types and tools several layers share: the error family, after-commit listeners, the committed
move and the live core's snapshots, the clock."""
