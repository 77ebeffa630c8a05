"""Fixtures of the server tests: an app on a temporary SQLite database behind FastAPI's test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.policy import SeatPolicy
from meeple.server.quotas import Quotas

OWN_ORIGIN = ("http://testserver",)
"""The test client's address (its ``Host``): the origin ``meeple serve`` accepts by default is its own address."""
OPEN = {
    "policy": SeatPolicy(any_bot=True, bot_tables=True, min_grace=0.0),
    "quotas": Quotas(rate_limits=False),
    "origins": OWN_ORIGIN,
}
"""A server open to any bounded bot spec, bot-only tables, any grace, without quotas: the protocol tests
(tests/server/test_limits.py and test_unplayed.py test the defaults)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A running app (lifespan started) on a fresh SQLite file; bots think in a thread; no quotas."""
    app = create_app(ServerConfig(db=f"sqlite:///{tmp_path / 'server.db'}", bot_workers=0, allow_seed=True, **OPEN))
    with TestClient(app) as c:
        yield c
