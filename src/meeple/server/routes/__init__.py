"""The REST routes of the server, one FastAPI ``APIRouter`` per subject (issue #42, item 4).

- :mod:`.tables`: the games, creating and reading tables, records, replays, a seat's new token, claims.
- :mod:`.lobby`: joining, starting early, waiting, quick match.
- :mod:`.accounts`: accounts and sessions.
- :mod:`.people`: profiles, leaderboards, the account's tables.

``/healthz``, ``/readyz`` and ``/metrics`` are :mod:`meeple.server.ops`'s; the WebSocket is
:mod:`meeple.server.socket`'s. Each route reaches the services through ``services: ServicesDep``
(:mod:`meeple.server.services`); docs/architecture.md lists which router holds which route.
"""
