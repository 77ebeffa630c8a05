"""Alembic migrations of the server's database (applied at start-up by :func:`meeple.server.db.migrate`)."""
