"""Ratings: the model, the bots' anchors, results jobs, profiles, summaries."""
