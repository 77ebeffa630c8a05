"""The game server: authoritative tables over REST and WebSockets (FastAPI, SQLAlchemy, Alembic).

``meeple serve`` runs :func:`meeple.server.app.create_app`; docs/server.md describes the protocol.

Layers: the server sits beside ``arena`` above the bots (architecture "Layers"); only the command line imports it.
"""
