"""Sea Dragons Online."""
