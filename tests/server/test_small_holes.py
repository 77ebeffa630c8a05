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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from meeple.cli.app import app as cli
from meeple.server.app import ServerConfig
from meeple.server.services import services_of
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


# ---------------------------------------------------------------------------------------------- 12. the password
def _serve_until_serving(
    args: list[str],
    umask: int | None = None,
    env: dict[str, str] | None = None,
    while_up: Callable[[], None] = lambda: None,
) -> tuple[str, str]:
    """Run ``meeple serve ARGS`` until it prints "Serving on", ask it for a page, call ``while_up``, stop it; return
    stdout and stderr."""
    port = free_port()
    command = [sys.executable, "-m", "meeple", "serve", "--port", str(port), "--bot-workers", "0", *args]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "300", **(env or {})},
        preexec_fn=(lambda: os.umask(umask)) if umask is not None else None,  # noqa: PLW1509 - no threads here
    )
    try:
        assert proc.stdout is not None
        out = [proc.stdout.readline()]
        while out[-1] and "Serving on" not in out[-1]:
            out.append(proc.stdout.readline())
        from tests.server.helpers import wait_for_server

        wait_for_server(f"http://127.0.0.1:{port}")
        while_up()
    finally:
        proc.terminate()
        rest, err = proc.communicate(timeout=60)
    return "".join(out) + rest, err


def test_the_serving_line_and_the_log_hide_the_database_password(tmp_path: Path) -> None:
    from tests.server.helpers import postgres

    with postgres(tmp_path / "pg") as db:  # trust authentication: any password is accepted
        url = db.replace("postgres@", "postgres:hunter2@")
        out, err = _serve_until_serving(["--db", url])
    assert "Serving on" in out and "postgres:***@127.0.0.1" in out, out
    assert "hunter2" not in out + err


@pytest.mark.parametrize("url", ["postgresql+psycopg://u:hunter2@db.example:port/x", "mysql://u:hunter2@db/x"])
def test_a_bad_database_url_is_refused_without_its_password(url: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", url])
    assert result.exit_code == 2 and "--db" in result.output, result.output
    assert "hunter2" not in result.output and "u:***@" in result.output


def test_shown_url_hides_the_password_in_the_user_part_and_the_query() -> None:
    from meeple.server.db import shown_url

    assert shown_url("postgresql+psycopg://meeple:s3cr%40t@127.0.0.1/meeple") == (
        "postgresql+psycopg://meeple:***@127.0.0.1/meeple"
    )
    assert shown_url("postgresql://u:p@ss@h/db") == "postgresql://u:***@h/db"  # an @ left unencoded
    assert (
        shown_url("postgresql+psycopg:///m?host=/run&password=hunter2")
        == "postgresql+psycopg:///m?host=/run&password=***"
    )
    assert shown_url("sqlite:////var/lib/meeple/server.db") == "sqlite:////var/lib/meeple/server.db"


# ---------------------------------------------------------------------------------------------- 14. file modes
def test_the_data_directory_is_created_0700_and_the_database_0600_whatever_the_umask(tmp_path: Path) -> None:
    """``meeple serve`` with its default database (``server.db`` in the user data directory) under umask 000."""
    home = tmp_path / "data"
    folder = home / "meeple"
    modes: dict[str, int] = {}

    def look() -> None:
        modes.update({p.name: stat.S_IMODE(p.stat().st_mode) for p in [folder, *folder.iterdir()]})

    _serve_until_serving([], umask=0, env={"XDG_DATA_HOME": str(home)}, while_up=look)
    assert modes == {"meeple": 0o700, "server.db": 0o600, "server.db-wal": 0o600, "server.db-shm": 0o600}


def test_an_existing_database_keeps_its_mode(tmp_path: Path) -> None:
    from meeple.server.db import make_engine

    path = tmp_path / "kept.db"
    path.touch(mode=0o640)
    path.chmod(0o640)
    make_engine(f"sqlite:///{path}").dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_the_systemd_unit_creates_what_only_its_user_reads() -> None:
    unit = (Path(__file__).resolve().parents[2] / "deploy" / "meeple@.service").read_text()
    assert "\nUMask=0077\n" in unit and "\nStateDirectoryMode=0700\n" in unit


# ---------------------------------------------------------------------------------------------- 15. read-only URL
def _migrated(path: Path) -> None:
    from meeple.server.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    for word in words:
        assert word in lines[0], lines[0]


def test_a_read_only_database_url_is_one_line_and_creates_nothing(tmp_path: Path) -> None:
    _migrated(tmp_path / "s.db")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    for name in ("s.db", "missing.db"):
        url = f"sqlite:///file:{tmp_path / name}?mode=ro&uri=true"
        command = [sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), "--bot-workers", "0"]
        done = subprocess.run([*command, "--db", url], cwd=cwd, capture_output=True, text=True, timeout=120)
        _one_line(done, "read-only", "mode=ro")
        assert list(cwd.iterdir()) == [], "nothing is created (no file: folder)"
    assert not (tmp_path / "missing.db").exists()


def test_a_read_only_file_at_the_newest_revision_is_one_line(tmp_path: Path) -> None:
    """Migrating a database at the newest revision writes nothing: the write comes later, and once failed there
    with a 67-line traceback."""
    _migrated(tmp_path / "s.db")
    (tmp_path / "s.db").chmod(0o444)
    # root writes anywhere: without CAP_DAC_OVERRIDE it obeys the permissions, as any other user would
    prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"] if os.geteuid() == 0 else []
    command = [*prefix, sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), "--bot-workers", "0"]
    done = subprocess.run(
        [*command, "--db", f"sqlite:///{tmp_path / 's.db'}"], capture_output=True, text=True, timeout=120
    )
    _one_line(done, "cannot write the database", "readonly")


# ---------------------------------------------------------------------------------------------- 15. language link
def _language_link(html: str, code: str) -> str:
    import html as entities
    import re

    found = re.search(rf'<a href="([^"]*)" hreflang="{code}"', html)
    assert found, "no language switch"
    return entities.unescape(found[1])


def test_the_language_link_encodes_every_query_key_so_no_link_plants_a_seat_cookie(strict: TestClient) -> None:
    from urllib.parse import parse_qsl, urlsplit

    created = _table(strict, ["human", "human"])
    table, token = created["table"], created["seats"][1]["token"]
    key = f"a&token={token}&b"  # a crafted link's key: decoded, it would read as a token parameter
    for path in (
        f"/tables/{table}?a%26token%3D{token}%26b=1&step=%26x",
        f"/?a%26token%3D{token}%26b=1&token=t&lang=en",
    ):
        strict.cookies.clear()
        answer = strict.get(path, follow_redirects=False)
        assert answer.status_code == 200, path
        link = _language_link(answer.text, "fr")
        query = parse_qsl(urlsplit(link).query, keep_blank_values=True)
        assert "token" not in dict(query) and (key, "1") in query and ("lang", "fr") in query, link
        followed = strict.get(link, follow_redirects=False)
        assert followed.status_code == 200 and "meeple_seat_" not in followed.headers.get("set-cookie", "")


# ---------------------------------------------------------------------------------------------- 13. after cleaning
def _chat(client: TestClient, text: str) -> dict[str, Any]:
    """Send one chat line at a new table; the next chat or error frame."""
    from tests.server.helpers import next_of

    table = client.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]}).json()["table"]
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        next_of(ws)
        ws.send_json({"type": "chat", "text": text})
        while True:
            frame: dict[str, Any] = ws.receive_json()
            if frame["type"] in ("chat", "error"):
                chat = services_of(client.app).hub.chat
                frame["stored"] = [e.text for e in chat.recent(table)]
                return frame


def test_a_chat_line_is_bounded_once_normalised(strict: TestClient) -> None:
    """500 x U+FB2C passed the 500-character check and became 1,500 characters (a server error on PostgreSQL)."""
    grown = _chat(strict, "\ufb2c" * 500)
    assert grown["type"] == "error" and grown["code"] == "bad_message" and "at most 500 characters" in grown["message"]
    assert grown["stored"] == []
    shrunk = _chat(strict, "e\u0301" * 500)  # 1,000 characters sent, 500 once composed: allowed
    assert shrunk["type"] == "chat" and shrunk["text"] == "\u00e9" * 500 and shrunk["stored"] == ["\u00e9" * 500]


def test_a_name_is_bounded_once_normalised(strict: TestClient) -> None:
    r = strict.post(
        "/api/tables", json={"game": "caprice", "seats": [{"player": "human", "name": "\ufb2c" * 24}, "open"]}
    )
    assert r.status_code == 422 and "at most 24 characters" in r.text


# ---------------------------------------------------------------------------------------------- 15. invisible, Zalgo
@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER: drawn as a blank
        "\u3164\u3164\u3164",
        "\u115f\u1160\uffa0",  # the other Hangul fillers
        "\u2800\u2800",  # BRAILLE PATTERN BLANK
        "\u00ad\u034f\ufe0f",  # soft hyphen, combining grapheme joiner, variation selector
        "\U000e0041\U000e0042",  # tags
        "\u0301\u0302",  # marks with nothing to stand on
    ],
)
def test_an_invisible_name_is_refused(strict: TestClient, name: str) -> None:
    for seat in ({"player": "human", "name": name}, "open"):
        r = strict.post("/api/tables", json={"game": "caprice", "seats": [seat, "open"]})
        if isinstance(seat, dict):
            assert r.status_code == 422 and "at least one visible character" in r.text, r.text
    strict.cookies.clear()
    r = strict.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": name})
    assert r.status_code == 422 and "at least one visible character" in r.text
    assert _chat(strict, name)["type"] == "error"


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("Bob\u3164", "Bob"),
        ("Ann\u3164\u3164Lee", "Ann Lee"),
        ("Zoe\u200d\ufe0f", "Zoe"),
        ("Nguy\u1ec5n", "Nguy\u1ec5n"),  # Vietnamese
        ("\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd", "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd"),  # pointed Hebrew
        ("\u0e19\u0e49\u0e33", "\u0e19\u0e49\u0e33"),  # Thai
        ("a\u0300\u0301\u0302\u0303", "\u00e0\u0301\u0302\u0303"),  # four marks, one of them composed
    ],
)
def test_a_name_keeps_what_shows_and_loses_what_does_not(strict: TestClient, name: str, kept: str) -> None:
    r = strict.post("/api/tables", json={"game": "caprice", "seats": [{"player": "human", "name": name}, "open"]})
    assert r.status_code == 201, r.text
    assert strict.get(f"/api/tables/{r.json()['table']}").json()["seats"][0]["name"] == kept


def test_a_zalgo_name_or_chat_line_is_refused(strict: TestClient) -> None:
    zalgo = "Z" + "\u0300\u0301\u0302\u0303\u0304\u0305" * 3 + "algo"
    r = strict.post("/api/tables", json={"game": "caprice", "seats": [{"player": "human", "name": zalgo}, "open"]})
    assert r.status_code == 422 and "at most 4 accents or marks stacked on one character" in r.text
    frame = _chat(strict, f"hello {zalgo}")
    assert frame["type"] == "error" and "accents or marks" in frame["message"] and frame["stored"] == []


# ---------------------------------------------------------------------------------------------- 9. token rotation
def _closed_before_a_pong(ws: Any) -> WebSocketDisconnect:
    """Ping on ``ws``: the close the server sends first (a ``pong`` first fails: the connection lived on)."""
    ws.send_json({"type": "ping"})
    try:
        while True:
            frame = ws.receive_json()
            assert frame["type"] != "pong", "the connection is still served"
    except WebSocketDisconnect as closed:
        return closed


def test_a_new_token_closes_the_old_tokens_connection_and_keeps_the_sessions(strict: TestClient) -> None:
    """A thief holding the old token was connected and moved on after the rotation: the rotation closes that socket
    (1008), the old token opens nothing, and the account's own connection (its session) stays."""
    from tests.server.helpers import next_of, person
    from tests.server.test_accounts import sign_up

    sign_up(strict, "Owner")
    created = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]}).json()
    table, old = created["table"], created["seats"][0]["token"]
    thief = person(strict)
    with (
        thief.websocket_connect(f"/api/tables/{table}/ws?token={old}") as stolen,
        strict.websocket_connect(f"/api/tables/{table}/ws") as own,  # the account's session opens seat 0
    ):
        assert next_of(stolen)["seat"] == 0 and next_of(own)["seat"] == 0
        rotated = strict.post(f"/api/tables/{table}/token")
        assert rotated.status_code == 200 and rotated.json()["token"] != old
        closed = _closed_before_a_pong(stolen)
        assert closed.code == 1008 and "replaced" in closed.reason
        own.send_json({"type": "ping"})
        assert next_of(own, "pong") == {"type": "pong"}
    with thief.websocket_connect(f"/api/tables/{table}/ws?token={old}") as again:
        assert next_of(again, "error")["code"] == "bad_token"


def test_the_web_pages_new_link_closes_the_old_links_connection(strict: TestClient) -> None:
    from tests.server.helpers import next_of, person

    created = _table(strict, ["human", "human"])
    table, old = created["table"], created["seats"][1]["token"]
    assert strict.get(f"/tables/{table}?token={old}", follow_redirects=False).status_code == 303  # the cookie
    thief = person(strict)
    with thief.websocket_connect(f"/api/tables/{table}/ws?token={old}") as stolen:
        next_of(stolen)
        page = strict.post(f"/tables/{table}/token")  # "New link for my seat", by the page's cookie
        assert page.status_code == 200 and old not in page.text
        assert _closed_before_a_pong(stolen).code == 1008


def test_a_new_token_closes_the_old_tokens_connection_in_another_process(tmp_path: Path) -> None:
    """Two processes on PostgreSQL: the thief is connected to the other process than the rotation's."""
    import json as jsonlib
    import time

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from tests.server.helpers import http_json, postgres

    with postgres(tmp_path / "pg") as db:
        a = ServerProcess(db, log=tmp_path / "a.log").start()
        b = ServerProcess(db, log=tmp_path / "b.log").start()
        try:
            created = http_json(f"{a.url}/api/tables", {"game": "caprice", "seats": ["human", "human"]})
            table, old = created["table"], created["seats"][0]["token"]
            with connect(b.url.replace("http", "ws", 1) + f"/api/tables/{table}/ws?token={old}") as stolen:
                while jsonlib.loads(stolen.recv(timeout=30))["type"] != "state":
                    pass
                request = urllib.request.Request(
                    f"{a.url}/api/tables/{table}/token", b"", {"Authorization": f"Bearer {old}"}
                )
                with urllib.request.urlopen(request, timeout=30) as answer:
                    assert answer.status == 200
                started = time.monotonic()
                with pytest.raises(ConnectionClosed) as closed:
                    while time.monotonic() - started < 20:
                        stolen.recv(timeout=20)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
                assert time.monotonic() - started < 10
        finally:
            a.stop()
            b.stop()


# ---------------------------------------------------------------------------------------------- 10. stale cookies
def test_a_stale_seat_cookie_is_deleted_and_counted_once_so_valid_cookies_stay_open(strict: TestClient) -> None:
    """A replaced token's cookie counted as a wrong token at every board fetch: after 10, the address's valid
    cookies got 429 for a minute. Now the first answer deletes it, and the same value is counted once."""
    created = _table(strict, ["human", "human"])
    table, old = created["table"], created["seats"][0]["token"]
    other = _table(strict, ["human", "human"])
    assert strict.post(f"/api/tables/{table}/token", headers={"authorization": f"Bearer {old}"}).status_code == 200
    stale = {"cookie": f"meeple_seat_{table}={old}"}
    page = strict.get(f"/tables/{table}", headers=stale)
    assert page.status_code == 200 and "You are watching" in page.text  # a spectator's page
    deleted = page.headers["set-cookie"]
    assert deleted.startswith(f"meeple_seat_{table}=") and ("Max-Age=0" in deleted or "expires=" in deleted.lower())
    for _ in range(15):  # a browser that sends it on all the same (or a page open since): counted once
        board = strict.get(f"/tables/{table}/board", headers=stale)
        assert board.status_code == 200 and f"meeple_seat_{table}=" in board.headers.get("set-cookie", "")
    valid = {"cookie": f"meeple_seat_{other['table']}={other['seats'][1]['token']}"}
    assert strict.get(f"/tables/{other['table']}/board", headers=valid).status_code == 200
    with strict.websocket_connect(f"/api/tables/{other['table']}/ws", headers=valid) as ws:
        from tests.server.helpers import next_of

        assert next_of(ws)["seat"] == 1
    refused = strict.post(f"/api/tables/{table}/start", headers=stale)
    assert refused.status_code == 403 and f"meeple_seat_{table}=" in refused.headers["set-cookie"]


def test_different_wrong_tokens_still_use_the_quota_up(strict: TestClient) -> None:
    table = _table(strict, ["human", "human"])["table"]
    for n in range(10):
        assert (
            strict.get(f"/tables/{table}/board", headers={"cookie": f"meeple_seat_{table}=guess{n}"}).status_code == 200
        )
    r = strict.get(f"/tables/{table}/board", headers={"cookie": f"meeple_seat_{table}=guess10"})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_a_refused_name_or_line_reads_in_the_readers_language(strict: TestClient) -> None:
    page = strict.post("/quickmatch?lang=fr", data={"game": "caprice", "players": "2", "name": "\u3164"})
    assert page.status_code == 422 and "un nom doit contenir au moins un caractère visible" in page.text
    table = strict.post("/api/tables", json={"game": "caprice", "seats": ["human", "human"]}).json()["table"]
    from tests.server.helpers import next_of

    with strict.websocket_connect(f"/api/tables/{table}/ws?lang=fr") as ws:
        next_of(ws)
        ws.send_json({"type": "chat", "text": "a" + "\u0301\u0302\u0303\u0304\u0305\u0306"})
        error = next_of(ws, "error")
        assert "au plus 4 accents ou signes empilés" in error["message"], error
