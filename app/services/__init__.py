"""Use cases: each public function owns its transaction (helpers never commit)."""
