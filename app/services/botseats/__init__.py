"""Bot seats: the runner that plays them, and whether anyone attends."""
