"""Alembic revisions, oldest first (``alembic revision`` with ``script_location`` set here writes new ones)."""
