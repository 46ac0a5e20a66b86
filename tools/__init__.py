"""Developer tools: run from a checkout (`python -m tools.NAME`), never shipped in the package."""
