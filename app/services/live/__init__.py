"""The live core's storage: what app/realtime reads and writes, in SQL."""
