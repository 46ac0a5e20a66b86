"""Quick match ("Play now"): pools of players waiting for the same kind of table."""
