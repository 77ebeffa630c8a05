"""Reads that cost (issue 41, item 6): a quota of reads per address, the lobby bounded, indexed and shared for a
moment, and finished tables read without being kept in memory.

Found from outside: GETs were not throttled (a replay view costs 23 ms of a core, a board 10 ms: one client kept a
core busy); the lobby ranked every table ever made (65-90 ms of CPU at 50,000 tables; ``benchmarks/lobby.py``
measures it); a finished table read stayed in memory until housekeeping.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from meeple.server import reads, tables
from meeple.server.app import ServerConfig
from meeple.server.db import MIGRATIONS, make_engine
from meeple.server.policy import SeatPolicy
from meeple.server.quotas import Quotas
from meeple.server.services import services_of
from meeple.server.tables import TableService
from meeple.web import create_web_app
from tests.server.helpers import ServerProcess, http_json, postgres, seed_where


def _from(running: TestClient, host: str) -> TestClient:
    other = TestClient(running.app, client=(host, 5000))
    other.portal = running.portal
    return other


@pytest.fixture
def quota(tmp_path: Path) -> Iterator[TestClient]:
    """A server allowing 5 reads a minute per address (the other quotas as ``meeple serve`` starts)."""
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'r.db'}", bot_workers=0, quotas=Quotas(reads_per_minute=5))
    with TestClient(create_web_app(config), client=("198.51.100.1", 5000)) as client:
        yield client


def test_reads_past_the_quota_get_429_in_the_readers_language(quota: TestClient) -> None:
    assert [quota.get("/api/tables").status_code for _ in range(5)] == [200] * 5
    r = quota.get("/api/tables")
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60
    assert r.json()["detail"].startswith("too many requests from your address")
    fr = quota.get("/api/games", headers={"Accept-Language": "fr"})
    assert fr.status_code == 429 and fr.json()["detail"].startswith("trop de requêtes depuis votre adresse")
    page = quota.get("/?lang=fr")
    assert page.status_code == 429 and page.headers["content-type"].startswith("text/html")
    assert '<html lang="fr">' in page.text and "Trop de requêtes" in page.text and page.headers["Retry-After"]
    assert page.headers["content-security-policy"], "the refusal carries the security headers"
    french = _from(quota, "198.51.100.1")
    french.cookies.set("lang", "fr")  # the language switch's cookie
    cookie = french.get("/tables/nothing")
    assert cookie.status_code == 429 and "Trop de requêtes" in cookie.text
    # static files and the probes are not reads; other addresses have their own quota; writes are not reads
    assert quota.get("/static/style.css").status_code == 200 and quota.get("/healthz").status_code == 200
    assert _from(quota, "198.51.100.2").get("/api/tables").status_code == 200
    body = {"game": "caprice", "seats": ["human", "bot:random"]}
    assert quota.post("/api/tables", json=body).status_code == 201


def test_the_lobby_ranks_a_bounded_number_of_the_newest_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tables, "LOBBY_SCAN", 12)
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'b.db'}", bot_workers=0, quotas=Quotas(rate_limits=False))
    with TestClient(create_web_app(config)) as client:
        made = []
        for i in range(20):  # 20 tables of 10 creators, oldest first
            creator = _from(client, f"203.0.113.{i % 10 + 1}")
            made.append(creator.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json())
        listed = [t["table"] for t in client.get("/api/tables?limit=50").json()]
        assert listed == [t["table"] for t in reversed(made[-12:])], "the 12 newest, newest first"
        older = client.get(f"/api/tables?limit=50&before={client.get(f'/api/tables/{listed[-1]}').json()['created']}")
        assert [t["table"] for t in older.json()] == [t["table"] for t in reversed(made[:8])], (
            "paging back reaches them"
        )
        engine = services_of(client.app).engine
        with engine.connect() as conn:
            plan = " ".join(
                str(row)
                for row in conn.execute(
                    text(
                        "EXPLAIN QUERY PLAN SELECT id FROM tables WHERE status = 'waiting'"
                        " ORDER BY created DESC LIMIT 12"
                    )
                )
            )
        assert "ix_tables_status_created" in plan


def test_the_lobby_is_shared_for_a_moment_and_sees_this_processs_changes_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(reads.time, "monotonic", lambda: clock[0])
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'c.db'}", bot_workers=0, quotas=Quotas(rate_limits=False))
    with TestClient(create_web_app(config)) as client:
        state = services_of(client.app)
        listing: reads.Listing = state.listing
        for _ in range(20):
            client.get("/api/tables")
            client.get("/")
        first = listing.queries
        assert first <= 2, "20 lobby pages and 20 API lists: one query each"
        created = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
        assert [t["table"] for t in client.get("/api/tables").json()] == [created], "this process's change: at once"
        assert created in client.get("/").text
        joiner = _from(client, "203.0.113.9")
        assert joiner.post(f"/api/tables/{created}/join", json={"name": "Jo"}).status_code == 201
        assert client.get("/api/tables").json()[0]["status"] == "live", "a seat taken: at once"
        queries = listing.queries
        # a change made elsewhere (another process; here straight in the database) shows once the moment is over
        with state.engine.begin() as conn:
            conn.execute(text("UPDATE tables SET status = 'abandoned' WHERE id = :id"), {"id": created})
        assert client.get("/api/tables").json()[0]["status"] == "live" and listing.queries == queries
        clock[0] += reads.LISTING_SECONDS + 0.1
        assert client.get("/api/tables").json()[0]["status"] == "abandoned" and listing.queries == queries + 1


def test_a_finished_table_read_is_not_kept_in_memory(tmp_path: Path) -> None:
    config = ServerConfig(
        db=f"sqlite:///{tmp_path / 'f.db'}",
        bot_workers=0,
        policy=SeatPolicy(any_bot=True, bot_tables=True),
        quotas=Quotas(rate_limits=False),
    )
    with TestClient(create_web_app(config)) as client:
        service: TableService = services_of(client.app).tables
        ids = []
        for game, players in (("caprice", 2), ("citadels", 4), ("capitol", 3), ("capital_lux_2", 2)):
            body = {"game": game, "params": {"players": players}, "seats": ["bot:random"] * players}
            ids.append(client.post("/api/tables", json=body).json()["table"])
        deadline = time.monotonic() + 120
        while any(client.get(f"/api/tables/{t}").json()["status"] != "finished" for t in ids):
            assert time.monotonic() < deadline, "the bot games did not end"
            time.sleep(0.2)
        service.evict_unused()
        assert not set(ids) & set(service.tables)
        for table in ids:
            assert client.get(f"/api/tables/{table}").json()["status"] == "finished"
            assert client.get(f"/api/tables/{table}/record").status_code == 200
            assert client.get(f"/api/tables/{table}/replay?version=3&seat=0").status_code == 200
            assert client.get(f"/tables/{table}").status_code == 200
            assert client.get(f"/tables/{table}/board").status_code == 200
            assert client.get(f"/tables/{table}/replay-view?step=2").status_code == 200
        assert not set(ids) & set(service.tables), "read, and not kept"
        with client.websocket_connect(f"/api/tables/{ids[0]}/ws") as ws:  # a connection keeps it while it lasts
            assert ws.receive_json()["type"] == "hello"
            assert ids[0] in service.tables
            assert client.get(f"/api/tables/{ids[0]}").json()["status"] == "finished"


def _alembic(engine: Any, revision: str, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(config, revision)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_lobby_indexes_and_the_key_table_migrate_up_and_down(tmp_path: Path, backend: str) -> None:
    with contextlib.ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'm.db'}" if backend == "sqlite" else stack.enter_context(postgres(tmp_path))
        engine = make_engine(url)
        _alembic(engine, "0005_turn_based")
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO tables (id, game, params, seed, status, version, rev, created, substitute)"
                    " VALUES ('old', 'caprice', '{\"players\": 2}', 1, 'finished', 0, 0, 1.0, 'medium')"
                )
            )

        def indexes() -> set[str]:
            return {i["name"] for i in inspect(engine).get_indexes("tables")}

        assert "ix_tables_created" not in indexes()
        _alembic(engine, "head")
        assert {"ix_tables_created", "ix_tables_status_created"} <= indexes()
        assert "server_keys" in inspect(engine).get_table_names()
        _alembic(engine, "0005_turn_based", down=True)
        assert not {"ix_tables_created", "ix_tables_status_created"} & indexes()
        assert "server_keys" not in inspect(engine).get_table_names()
        _alembic(engine, "head")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM tables")).scalar_one() == 1, "the rows stayed"
        engine.dispose()


def _get(url: str, headers: dict[str, str]) -> tuple[int, str, Any]:
    """GET ``url``: the status, the body and the headers (read whatever their case)."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode(), answer.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), exc.headers


def test_a_real_server_throttles_one_addresss_reads_and_not_the_others(tmp_path: Path) -> None:
    options = ("--forwarded-allow-ips", "127.0.0.1", "--reads-per-minute", "30")
    server = ServerProcess(f"sqlite:///{tmp_path / 'p.db'}", options=options).start()  # its start used a few reads
    try:
        seed = seed_where("caprice", 2, 0)
        table = http_json(
            f"{server.url}/api/tables", {"game": "caprice", "seats": ["human", "bot:random"], "seed": seed}
        )
        reader = {"X-Forwarded-For": "203.0.113.5", "Accept-Language": "fr"}
        codes = [_get(f"{server.url}/tables/{table['table']}/board", reader)[0] for _ in range(40)]
        assert codes == [200] * 30 + [429] * 10, "a board fetched in a loop: 30 a minute"
        status, page, headers = _get(f"{server.url}/tables/{table['table']}", reader)
        assert status == 429 and "Trop de requêtes" in page and int(headers["Retry-After"]) >= 1
        assert _get(f"{server.url}/static/app.js", reader)[0] == 200
        other = {"X-Forwarded-For": "203.0.113.6"}
        status, body, _ = _get(f"{server.url}/api/tables/{table['table']}", other)
        assert status == 200 and json.loads(body)["table"] == table["table"]
    finally:
        server.stop()
