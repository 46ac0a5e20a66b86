"""Accounts: users and sessions, addresses and signed links, 'Your games'."""
