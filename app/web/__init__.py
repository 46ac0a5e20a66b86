"""HTTP layer: JSON API routes, dependencies, error handlers, request limits."""
