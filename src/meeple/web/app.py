"""The browser client's app: the game server's FastAPI app with the pages' routers and their static files.

Every page is rendered from what its reader may know: a seat's board from ``game_view(state, seat)`` (the same view
the WebSocket sends), a spectator's from the public view, a replay only once the game is over. The language is the
``lang`` query parameter, else the ``lang`` cookie the switch sets, else ``Accept-Language``, else English. The pages
are the routers of :mod:`meeple.web.pages`, one per subject (docs/architecture.md lists them).

Rules: issue "Play online: the browser client"; issue #42, item 4; docs/web.md.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.staticfiles import StaticFiles

from meeple.server import ServerConfig, create_app
from meeple.web.pages import accounts, endgame, invitations, lobby, people, recovery, replays, rules, social, tables
from meeple.web.pages.common import refusal_page
from meeple.web.render import HERE

PAGES: tuple[APIRouter, ...] = (
    lobby.router,
    tables.router,
    replays.router,
    rules.router,
    people.router,
    accounts.router,
    recovery.router,
    social.router,
    endgame.router,
    invitations.router,
)
"""The pages' routers, included after the API's (a new page: a handler in its subject's router, or a new router)."""


def create_web_app(config: ServerConfig) -> FastAPI:
    """Return the game server's app with the browser pages and their static files.

    Args:
        config: the server's configuration (``meeple serve`` builds it).
    """
    app = create_app(config, pages=PAGES)
    app.state.refusal_page = refusal_page  # the read quota's 429 for pages (meeple.server.reads)
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    return app
