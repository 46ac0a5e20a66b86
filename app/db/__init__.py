"""Database: SQLAlchemy 2 models, the session factory and migrations."""
