"""Fixtures of the server tests: an app on a temporary SQLite database behind FastAPI's test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A running app (lifespan started) on a fresh SQLite file; bots think in a thread."""
    app = create_app(ServerConfig(db=f"sqlite:///{tmp_path / 'server.db'}", bot_workers=0, allow_seed=True))
    with TestClient(app) as c:
        yield c
