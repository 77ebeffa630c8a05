"""The game server: authoritative tables over REST and WebSockets (FastAPI, SQLAlchemy, Alembic).

``meeple serve`` runs :func:`create_app` (:mod:`meeple.server.app`) with a :class:`ServerConfig`
(:mod:`meeple.server.config`); docs/server.md describes the protocol, docs/architecture.md the modules.

Layers: the server sits beside ``arena`` above the bots (architecture "Layers"); only the web pages and the command
line import it. The two names above are the package's entry points, loaded on first use (importing one server module
does not load the app).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.server.app import create_app
    from meeple.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` and ``ServerConfig``, imported when first asked for."""
    if name == "create_app":
        from meeple.server.app import create_app

        return create_app
    if name == "ServerConfig":
        from meeple.server.config import ServerConfig

        return ServerConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
