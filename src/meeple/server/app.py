"""The FastAPI application: its lifespan, its middleware and its routers (``include_router``), nothing else.

``create_app(ServerConfig(...))`` builds an app; ``meeple serve`` runs it with uvicorn. At start-up the services are
built (:mod:`meeple.server.services`: the Alembic migrations are applied first), every live table is made due (bots
restart, clocks are checked), and the background loops (:mod:`meeple.server.loops`) and, on PostgreSQL, the LISTEN
thread start. The routes are the routers' of :mod:`meeple.server.routes`, the WebSocket :mod:`meeple.server.socket`'s
and ``/healthz``, ``/readyz``, ``/metrics`` :mod:`meeple.server.ops`'s.

While the database is down, REST routes answer 503 with ``Retry-After`` and new WebSockets are closed with 1013
("try again later"); a move that cannot be committed is answered ``server_error`` naming its ``move_id``.

Rules: issue "Play online: an authoritative game server"; docs/server.md (the protocol).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any, Literal

from fastapi import APIRouter, FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import Response
from pydantic.json_schema import models_json_schema

import meeple.server.services as composition
from meeple.core.errors import MeepleError
from meeple.server.config import ServerConfig
from meeple.server.hardening import CSP, SecurityMiddleware
from meeple.server.loops import start_loops
from meeple.server.metrics import Metrics
from meeple.server.ops import CurrentMetrics, ops_router
from meeple.server.protocol import WEBSOCKET_MESSAGES
from meeple.server.quotas import Limiter
from meeple.server.reads import ReadQuota
from meeple.server.replies import add_error_handlers
from meeple.server.routes import accounts, friends, invitations, lobby, people, recovery, rematch, tables
from meeple.server.socket import router as socket_router

__all__ = ["ROUTERS", "ServerConfig", "create_app"]

ROUTERS: tuple[APIRouter, ...] = (
    tables.router,
    lobby.router,
    rematch.router,
    accounts.router,
    recovery.router,
    people.router,
    friends.router,
    invitations.router,
    socket_router,
)
"""The server's routers, in the order their routes are matched (docs/architecture.md lists their routes)."""


def create_app(config: ServerConfig, pages: Sequence[APIRouter] = ()) -> FastAPI:
    """Return the server's FastAPI application for ``config`` (the database is migrated at start-up).

    Args:
        config: how the server runs.
        pages: more routers, included after the API's (the browser pages: :func:`meeple.web.create_web_app`).
    """
    limiter = Limiter(config.quotas)
    refused = composition.Refusals(Metrics())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = await composition.build(config, limiter, refused)
        composition.attach(app, services)
        await composition.start(services)
        loops = start_loops(services)
        try:
            yield
        finally:
            for task in loops:
                task.cancel()
            await composition.close(services)
            composition.attach(app, None)

    app = FastAPI(
        title="meeple server",
        version="1",
        summary="Authoritative tables for Citadels, Capitol, Capital Lux 2 and Caprice (docs/server.md).",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if config.api_docs else None,
    )
    app.add_middleware(ReadQuota, limiter=limiter, on_refused=refused)
    app.add_middleware(
        SecurityMiddleware,
        public_urls=config.public_urls + config.origins,
        trust_host=config.trust_host,
        body_bytes=config.quotas.body_bytes,
        on_refused=refused,
    )
    if config.api_docs:
        _add_api_docs(app)
    add_error_handlers(app, refused)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    app.add_middleware(CurrentMetrics, metrics=refused.metrics)
    ops = ops_router(refused.metrics, lambda: _engine(app), config.metrics_allow_ips, lambda: _faults(app))
    for router in (ops, *ROUTERS, *pages):
        app.include_router(router)
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema of the REST routes, plus the WebSocket messages (which OpenAPI cannot describe)."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
        mode: Literal["validation"] = "validation"
        models = [(m, mode) for m in WEBSOCKET_MESSAGES]
        _, defs = models_json_schema(models, ref_template="#/components/schemas/{model}")
        schema.setdefault("components", {}).setdefault("schemas", {}).update(defs.get("$defs", {}))
        app.openapi_schema = schema
    return app.openapi_schema


def _engine(app: FastAPI) -> Any:
    """The database engine once the app has started (None before): ``/readyz``."""
    services = composition.maybe_services(app)
    return services.engine if services is not None else None


def _faults(app: FastAPI) -> list[str]:
    """The faults the table service reports (its ``health.faults``: the database or LISTEN lost), for ``/readyz``."""
    services = composition.maybe_services(app)
    return [str(f) for f in services.tables.health.faults] if services is not None else []


def _add_api_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI served from this server (the ``swagger-ui-bundle`` package's files; no CDN).

    Raises:
        MeepleError: the package is not installed (``pip install 'meeple[apidocs]'``).
    """
    try:
        from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]
    except ModuleNotFoundError:
        raise MeepleError("--api-docs needs the Swagger UI files: pip install 'meeple[apidocs]'") from None
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.staticfiles import StaticFiles

    app.mount("/static/api-docs", StaticFiles(directory=swagger_ui_path), name="api-docs")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        page = get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="meeple server API",
            swagger_js_url="/static/api-docs/swagger-ui-bundle.js",
            swagger_css_url="/static/api-docs/swagger-ui.css",
            swagger_favicon_url="/static/api-docs/favicon-32x32.png",
        )
        # the page starts Swagger UI with one inline script: allowed by its hash, nothing else inline
        hashes = " ".join(
            f"'sha256-{base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()}'"
            for code in re.findall(r"<script>(.*?)</script>", bytes(page.body).decode(), re.S)
        )
        page.headers["content-security-policy"] = CSP.replace("script-src 'self'", f"script-src 'self' {hashes}")
        return page
