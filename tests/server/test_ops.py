"""Operations (issue #32, item 11): /healthz, /readyz, /metrics, the access log, and the start-up checks.

The start-up checks run ``meeple serve`` as a real process each time: a damaged or read-only SQLite file, an
unreachable PostgreSQL and a port in use each end with one readable line on stderr and a non-zero exit.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from meeple.server.app import ServerConfig, create_app
from meeple.server.db import make_engine, migrate
from meeple.server.metrics import Metrics, refused
from meeple.server.ops import RedactingFormatter, redact
from meeple.server.services import services_of
from tests.server.helpers import ServerProcess, create, free_port, next_of, play_to_end, seed_where


def _app(tmp_path: Path, **options: object) -> TestClient:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'server.db'}", bot_workers=0, allow_seed=True, **options)
    return TestClient(create_app(config), client=("127.0.0.1", 50000))


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text page: (name, sorted labels) -> value."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


@pytest.fixture
def ops(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path) as client:
        yield client


def test_healthz_and_readyz_answer_when_the_server_is_up(ops: TestClient) -> None:
    assert ops.get("/healthz").json() == {"status": "alive"}
    ready = ops.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}


def test_readyz_is_503_with_a_reason_when_the_migrations_are_not_at_head(tmp_path: Path) -> None:
    with _app(tmp_path) as client:
        with sqlite3.connect(tmp_path / "server.db") as db:
            db.execute("UPDATE alembic_version SET version_num = 'old'")
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["status"] == "unavailable" and "migrations not applied" in answer.json()["reason"]
        with sqlite3.connect(tmp_path / "server.db") as db:
            db.execute("DROP TABLE alembic_version")
        assert client.get("/readyz").status_code == 503
        assert client.get("/healthz").status_code == 200  # alive, not ready


def test_readyz_is_503_while_the_service_reports_a_fault(ops: TestClient) -> None:
    """The contract with the service's health (issue #37): ``service.health.faults`` lists the faults under way."""
    from types import SimpleNamespace

    service = services_of(ops.app).tables
    service.health = SimpleNamespace(faults=["listen"])
    answer = ops.get("/readyz")
    assert answer.status_code == 503 and answer.json()["reason"] == "degraded: listen"
    service.health = SimpleNamespace(faults=[])
    assert ops.get("/readyz").status_code == 200


def test_metrics_count_moves_latency_tables_connections_and_bots(ops: TestClient) -> None:
    table, tokens = create(ops, "caprice", ["human", "bot:random"], seed=seed_where("caprice", 2, 0))
    with ops.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ws:
        first = next_of(ws)  # joined: the connection is registered
        with ops.websocket_connect(f"/api/tables/{table}/ws") as spectator:
            next_of(spectator)
            during = _samples(ops.get("/metrics").text)
        play_to_end(ws, first)
    after = _samples(ops.get("/metrics").text)
    assert during[("meeple_connections", (("kind", "seat"),))] == 1
    assert during[("meeple_connections", (("kind", "spectator"),))] == 1
    assert during[("meeple_live_tables", ())] == 1
    assert after[("meeple_live_tables", ())] == 0  # the game is over
    actions = len(ops.get(f"/api/tables/{table}/record").json()["actions"])
    human = after[("meeple_moves_total", (("by_bot", "false"), ("game", "caprice")))]
    bot = after[("meeple_moves_total", (("by_bot", "true"), ("game", "caprice")))]
    assert human > 0 and bot > 0 and human + bot == actions
    assert after[("meeple_move_seconds_count", (("game", "caprice"),))] == actions
    assert 0 < after[("meeple_move_seconds_sum", (("game", "caprice"),))] < actions * 5
    assert after[("meeple_bot_seconds_count", (("game", "caprice"),))] >= bot
    assert after[("meeple_bot_queue", ())] == 0
    names = {name for name, _ in after}
    assert all(name.startswith("meeple_") for name in names)
    labels = {key for _, pairs in after for key, _ in pairs}
    assert labels <= {"game", "by_bot", "kind", "reason", "le"}  # no table, seat or player: counts of public events
    text = ops.get("/metrics").text
    assert table not in text and tokens[0] not in text


def test_refused_counts_in_the_app_that_handles_the_request(tmp_path: Path) -> None:
    first, second = _app(tmp_path / "a"), _app(tmp_path / "b")

    @first.app.get("/refuse")  # type: ignore[attr-defined]
    def refuse() -> dict[str, str]:
        refused("tables")
        return {}

    with first, second:  # the second app started last: outside a request, refusals count there
        first.get("/refuse")
        first.get("/refuse")
        refused("body_size")
        one, two = _samples(first.get("/metrics").text), _samples(second.get("/metrics").text)
    assert one[("meeple_refused_total", (("reason", "tables"),))] == 2
    assert two[("meeple_refused_total", (("reason", "tables"),))] == 0
    assert two[("meeple_refused_total", (("reason", "body_size"),))] == 1
    assert one[("meeple_refused_total", (("reason", "body_size"),))] == 0


def test_metrics_of_two_apps_in_one_process_are_apart() -> None:
    a, b = Metrics(), Metrics()
    a.move("caprice", False, 0.01)
    assert b"meeple_moves_total{" not in b.render() and b"meeple_moves_total{" in a.render()


@pytest.mark.parametrize(
    ("allow", "client", "headers", "status"),
    [
        ("127.0.0.1,::1", "127.0.0.1", {}, 200),
        ("127.0.0.1,::1", "203.0.113.7", {}, 403),
        ("127.0.0.1,::1", "127.0.0.1", {"X-Forwarded-For": "203.0.113.7"}, 403),  # an untrusted proxy on loopback
        ("127.0.0.1,::1", "127.0.0.1", {"Forwarded": "for=203.0.113.7"}, 403),
        ("203.0.113.0/24", "203.0.113.7", {}, 200),
        ("203.0.113.0/24", "198.51.100.1", {}, 403),
        ("*", "198.51.100.1", {}, 200),
    ],
)
def test_metrics_are_open_only_to_the_allowed_addresses(
    tmp_path: Path, allow: str, client: str, headers: dict[str, str], status: int
) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, metrics_allow_ips=allow)
    with TestClient(create_app(config), client=(client, 40000)) as c:
        answer = c.get("/metrics", headers=headers)
        assert answer.status_code == status
        if status == 403:
            assert "--metrics-allow-ips" in answer.json()["detail"]
        else:
            assert answer.text.startswith("# HELP meeple_")


def test_a_bad_metrics_allow_list_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not-an-address"):
        create_app(ServerConfig(db=f"sqlite:///{tmp_path / 's.db'}", metrics_allow_ips="127.0.0.1,not-an-address"))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            '1.2.3.4:5 - "GET /tables/T?token=abc-_DEF HTTP/1.1" 200',
            '1.2.3.4:5 - "GET /tables/T?token=*** HTTP/1.1" 200',
        ),
        ("/api/tables/T/ws?lang=fr&token=s3cr3t&x=1", "/api/tables/T/ws?lang=fr&token=***&x=1"),
        ("/tables/T?token=", "/tables/T?token="),
        ("no secret here", "no secret here"),
    ],
)
def test_redact_hides_every_token_value(line: str, expected: str) -> None:
    assert redact(line) == expected


def test_the_log_format_redacts_arguments_and_tracebacks() -> None:
    from meeple.server.ops import log_config

    options = log_config()["formatters"]["default"]
    assert options["()"] is RedactingFormatter
    formatter = RedactingFormatter(options["format"], options["datefmt"])
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s"', ("ip", "GET", "/t?token=SECRET"), None
    )
    assert formatter.format(record).endswith('INFO uvicorn.access: ip - "GET /t?token=***"')
    try:
        raise ValueError("bad /t?token=SECRET")
    except ValueError:
        failed = logging.LogRecord("meeple", logging.ERROR, "", 0, "failed", (), sys.exc_info())
    text = formatter.format(failed)
    assert "Traceback" in text and "SECRET" not in text and "token=***" in text


# ---------------------------------------------------------------- real processes


def test_the_access_log_has_timestamps_and_no_token(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    from tests.server.helpers import http_json

    log = tmp_path / "server.log"
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", log=log).start()
    try:
        body = {"game": "caprice", "params": {}, "seats": ["human", "human"]}
        created = http_json(f"{server.url}/api/tables", body)
        table, token = created["table"], created["seats"][0]["token"]
        with connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws?token={token}", open_timeout=30) as ws:
            ws.recv(timeout=30)
        with urllib.request.urlopen(f"{server.url}/tables/{table}?token={token}", timeout=30) as page:
            assert page.status in (200, 303)
    finally:
        server.stop()
    text = log.read_text()
    assert token not in text
    access = [line for line in text.splitlines() if "uvicorn.access" in line]
    assert any(f"/tables/{table}?token=***" in line for line in access), text
    assert any("WebSocket" in line and "token=***" in line for line in text.splitlines()), text
    stamp = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} INFO uvicorn.access: ")
    assert access and all(stamp.match(line) for line in access), access


def test_no_access_log_keeps_only_warnings(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    options = ("--no-access-log",)
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", log=log, options=options).start()
    try:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=30) as answer:
            assert answer.status == 200
    finally:
        server.stop()
    text = log.read_text()
    assert "Serving on" in text and "/healthz" not in text and "uvicorn.access" not in text


def _serve(*args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    command = [*prefix, sys.executable, "-m", "meeple", "serve", "--bot-workers", "0", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "300"})


def _assert_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode not in (0, None), done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    for word in words:
        assert word in lines[0], lines[0]


def _damaged_database(path: Path) -> None:
    """A real server database whose event pages are overwritten: the schema opens, ``quick_check`` does not pass."""
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO tables (id, game, params, seed, status, version, rev, created, substitute)"
            " VALUES ('t', 'caprice', '{}', 1, 'live', 0, 0, 0, 'random')"
        )
        rows = [(v,) for v in range(1, 3000)]
        db.executemany(
            "INSERT INTO events (table_id, version, seat, action, by_bot, at) VALUES ('t', ?, 0, '{}', 0, 0)", rows
        )
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size - 3 * 4096 + 100)
        f.write(b"\xff" * 200)


def test_a_damaged_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    _damaged_database(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    _assert_one_line(_serve("--db", f"sqlite:///{path}"), "is damaged", "quick_check", str(path))


def test_a_file_that_is_not_a_database_refuses_to_start(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(os.urandom(64 * 1024))
    _assert_one_line(_serve("--db", f"sqlite:///{path}"), "is damaged", "not a database")


def test_a_read_only_database_refuses_to_start(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    engine = make_engine(f"sqlite:///{folder / 's.db'}")
    migrate(engine)
    engine.dispose()
    (folder / "s.db").chmod(0o444)
    folder.chmod(0o555)
    # root writes anywhere: without CAP_DAC_OVERRIDE it obeys the permissions, as any other user would
    prefix = ("setpriv", "--bounding-set=-dac_override,-dac_read_search", "--") if os.geteuid() == 0 else ()
    try:
        done = _serve("--db", f"sqlite:///{folder / 's.db'}", prefix=prefix)
    finally:
        folder.chmod(0o755)
    _assert_one_line(done, "cannot write the database", "readonly")


def test_an_unreachable_postgresql_refuses_to_start() -> None:
    done = _serve("--db", f"postgresql+psycopg://meeple:hunter2@127.0.0.1:{free_port()}/meeple")
    _assert_one_line(done, "cannot open the database", "Connection refused")
    assert "hunter2" not in done.stderr


def test_an_address_of_another_machine_refuses_to_start(tmp_path: Path) -> None:
    done = _serve("--db", f"sqlite:///{tmp_path / 's.db'}", "--host", "192.0.2.1", "--port", str(free_port()))
    _assert_one_line(done, "cannot listen on 192.0.2.1:", "assign requested address")


def test_a_port_in_use_refuses_to_start(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve("--db", f"sqlite:///{tmp_path / 's.db'}", "--port", str(port))
    _assert_one_line(done, f"127.0.0.1:{port}", "in use")
