"""Watching: live games at a glance, replays, spectator delay."""
