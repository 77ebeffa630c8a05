"""Issue #41, "E-mail, tokens, cookies, small holes" (items 8 to 15): each test failed before its fix.

The HTTP tests run on the default configuration (quotas on, the test client's address its own origin, as
``meeple serve``'s is); the start-up and process tests run ``meeple serve`` for real.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from meeple.cli.app import app as cli
from meeple.server.app import ServerConfig
from meeple.web import create_web_app
from tests.server.conftest import OWN_ORIGIN
from tests.server.helpers import ServerProcess, free_port


def _app(tmp_path: Path, **config: Any) -> TestClient:
    settings = {"origins": OWN_ORIGIN, **config}
    return TestClient(create_web_app(ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, **settings)))


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """The default configuration: quotas and sizes as ``meeple serve`` starts."""
    with _app(tmp_path) as client:
        yield client


def _table(client: TestClient, seats: list[str] | None = None) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "caprice", "seats": seats or ["human", "bot:random"]})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


# ---------------------------------------------------------------------------------------------- 11. a bad Origin
@pytest.mark.parametrize("origin", ["http://a:b", "http://a:99999", "http://[::1", "https://", "no origin at all"])
def test_an_origin_that_is_not_one_is_refused_with_403_not_a_server_error(strict: TestClient, origin: str) -> None:
    created = _table(strict)
    bad = {"origin": origin}
    r = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]}, headers=bad)
    assert r.status_code == 403 and "cross-origin request refused" in r.text
    assert strict.post("/tables", data={"game": "caprice"}, headers=bad).status_code == 403
    with pytest.raises(WebSocketDisconnect) as refused:
        with strict.websocket_connect(f"/api/tables/{created['table']}/ws", headers=bad):
            pass
    assert refused.value.code == 1008  # before accept: HTTP 403
    assert len(strict.get("/api/tables").json()) == 1


def test_origin_of_names_no_origin_for_a_text_that_has_none() -> None:
    from meeple.server.hardening import origin_of

    assert origin_of("http://a:b") is None and origin_of("ftp:") is None and origin_of("") is None
    assert origin_of("HTTP://Example.ORG:80/x") == "http://example.org"
    assert origin_of("https://[::1]:8443") == "https://[::1]:8443"


# ---------------------------------------------------------------------------------------------- 15. DNS rebinding
def test_served_directly_only_configured_origins_count_not_the_requests_host(tmp_path: Path) -> None:
    """An attacker's name re-pointed at the server (DNS rebinding) sends that name as Host and Origin: refused."""
    rebound = {"host": "rebind.example:8000", "origin": "http://rebind.example:8000"}
    body = {"game": "caprice", "seats": ["human", "human"]}
    with _app(tmp_path) as direct:
        assert direct.post("/api/tables", json=body, headers=rebound).status_code == 403
        assert direct.post("/api/tables", json=body, headers={"origin": "http://testserver"}).status_code == 201
    with _app(tmp_path, origins=(), trust_host=True) as proxied:  # behind a proxy: its Host is one of its sites
        assert proxied.post("/api/tables", json=body, headers=rebound).status_code == 201
    with _app(tmp_path, origins=("http://rebind.example:8000",)) as allowed:  # --allow-origins
        assert allowed.post("/api/tables", json=body, headers=rebound).status_code == 201


def test_meeple_serve_accepts_its_own_address_and_localhost_out_of_the_box_and_nothing_else(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", options=("--allow-origins", "https://games.example.org"))
    server.start()
    port = server.port

    def post(origin: str, host: str = f"127.0.0.1:{port}") -> int:
        request = urllib.request.Request(
            f"{server.url}/api/tables",
            data=b'{"game": "caprice", "seats": ["human", "bot:random"]}',
            headers={"Content-Type": "application/json", "Origin": origin, "Host": host},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as exc:
            return exc.code

    try:
        for own in (f"http://127.0.0.1:{port}", f"http://localhost:{port}", f"http://[::1]:{port}"):
            assert post(own) == 201, own
        assert post("https://games.example.org") == 201
        assert post(f"http://rebind.example:{port}", host=f"rebind.example:{port}") == 403
        assert post(f"http://127.0.0.1:{port + 1}") == 403
    finally:
        server.stop()


def test_default_origins_and_allow_origins() -> None:
    from meeple.server.hardening import default_origins, parse_origins

    assert default_origins("127.0.0.1", 8000, "http://127.0.0.1:8000") == [
        "http://127.0.0.1:8000",
        "http://localhost:8000",
        "http://[::1]:8000",
    ]
    everywhere = default_origins("0.0.0.0", 8000, "http://192.0.2.7:8000")
    assert everywhere[0] == "http://192.0.2.7:8000" and "http://localhost:8000" in everywhere
    assert default_origins("192.0.2.7", 80, "https://games.example.org/") == [
        "https://games.example.org",
        "http://192.0.2.7",
    ]
    assert parse_origins(" https://a.example , http://b.example:8080/ ") == [
        "https://a.example",
        "http://b.example:8080",
    ]
    for bad in ("a.example", "https://a.example/path", "ftp://a.example", "http://a:b"):
        with pytest.raises(ValueError, match="--allow-origins"):
            parse_origins(bad)


def test_a_bad_allow_origins_is_refused_at_the_command_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", f"sqlite:///{tmp_path / 's.db'}", "--allow-origins", "x.org"])
    assert result.exit_code == 2 and "--allow-origins" in result.output and "scheme://host" in result.output
