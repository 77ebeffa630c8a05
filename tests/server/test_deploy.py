"""Deployment, tested for real (issue #32, item 12; docs/deploy.md).

Debian's Caddy runs ``deploy/Caddyfile`` as shipped, with ``tls internal`` (its own CA, trusted by this test's
clients) on loopback ports, in front of two ``meeple serve`` processes sharing Debian's PostgreSQL. A table is made
with the lobby's form and played to its end by two seats over https/wss through the proxy, one seat on each server
(Caddy balances round-robin); the form is posted with the browser's ``Origin`` header, which the server must know
as its own behind the proxy. Then: the invite links say ``https://``, Caddy closes a client that sends its headers
too slowly (slowloris), ``/metrics`` is not reachable through the proxy, and ``/readyz`` turns 503 once PostgreSQL
stops.
"""

from __future__ import annotations

import contextlib
import html
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.server.helpers import RandomSeat, ServerProcess, free_port, postgres

CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"
READ_HEADER_TIMEOUT = 2.0

UNIT = CADDYFILE.parent / "meeple@.service"


@contextlib.contextmanager
def caddy(home: Path, upstreams: list[str]) -> Iterator[tuple[str, ssl.SSLContext]]:
    """Run Caddy on ``deploy/Caddyfile`` (local CA, loopback); yield its https URL and a context trusting its CA."""
    assert shutil.which("caddy"), "Caddy is not installed (Debian: apt-get install caddy; .ci/run does)"
    https_port, http_port = free_port(), free_port()
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "MEEPLE_SITE": "localhost",
        "MEEPLE_TLS": "internal",
        "MEEPLE_CADDY_ADMIN": "off",
        "MEEPLE_BIND": "127.0.0.1",
        "MEEPLE_HTTPS_PORT": str(https_port),
        "MEEPLE_HTTP_PORT": str(http_port),
        "MEEPLE_READ_HEADER_TIMEOUT": f"{READ_HEADER_TIMEOUT:g}s",
        "MEEPLE_UPSTREAMS": " ".join(upstreams),
    }
    log = open(home / "caddy.log", "wb")  # noqa: SIM115
    command = ["caddy", "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"]
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"https://localhost:{https_port}"
    root = home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (home / "caddy.log").read_text()
            assert time.monotonic() < deadline, "Caddy did not serve within 60 s: " + (home / "caddy.log").read_text()
            if root.exists():
                context = ssl.create_default_context(cafile=str(root))
                with contextlib.suppress(OSError):
                    with urllib.request.urlopen(f"{url}/healthz", context=context, timeout=5) as answer:
                        if answer.status == 200:
                            break
            time.sleep(0.2)
        yield url, context
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        log.close()


def _invite(url: str, context: ssl.SSLContext) -> tuple[str, list[str]]:
    """Create a 2-human Caprice table with the lobby's form (POST /tables); return the invite page and its links."""
    form = urllib.parse.urlencode({"game": "caprice", "param_players": "2", "seat_0": "human", "seat_1": "human"})
    # as a browser sends it: the page's own origin, which the server must recognise behind the proxy (https)
    request = urllib.request.Request(f"{url}/tables", data=form.encode(), method="POST", headers={"Origin": url})
    with urllib.request.urlopen(request, context=context, timeout=30) as answer:
        page = answer.read().decode()
    return page, [html.unescape(link) for link in re.findall(r'href="([^"]*/tables/[^"]*)"', page)]


def _slowloris_closed_after(url: str, context: ssl.SSLContext) -> float:
    """Seconds until Caddy closes a TLS connection that sent half a request's headers and then nothing."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            started = time.monotonic()
            with contextlib.suppress(OSError):
                while tls.recv(4096):
                    pass
            return time.monotonic() - started


def _status(url: str, context: ssl.SSLContext | None = None) -> int:
    try:
        with urllib.request.urlopen(url, context=context, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_two_servers_behind_caddy_play_a_game_over_https_and_wss(tmp_path: Path) -> None:
    with postgres(tmp_path) as db:
        # as docs/deploy.md runs them: the default quotas and seat policy, Caddy's address trusted for X-Forwarded-*
        options = ("--forwarded-allow-ips", "127.0.0.1")
        servers = [ServerProcess(db, log=tmp_path / f"server{i}.log", options=options).start() for i in range(2)]
        try:
            with caddy(tmp_path, [f"127.0.0.1:{s.port}" for s in servers]) as (url, context):
                page, links = _invite(url, context)
                seats = [link for link in links if "token=" in link]
                assert len(seats) == 2, page
                assert all(link.startswith(f"{url}/tables/") for link in links), links
                assert "http://" not in page
                table = seats[0].split("/tables/")[1].split("?")[0]
                tokens = [urllib.parse.parse_qs(urllib.parse.urlsplit(s).query)["token"][0] for s in seats]

                players = [RandomSeat(url, table, t, seed=i, ssl_context=context) for i, t in enumerate(tokens)]
                for player in players:
                    player.start()
                    time.sleep(0.5)  # one after the other: round-robin gives each its own server
                for player in players:
                    player.join(180)
                assert all(p.finished.is_set() for p in players), [(p.closed, p.errors[-3:]) for p in players]
                finals = [p.frames[-1] for p in players]
                assert finals[0]["returns"] == finals[1]["returns"] and finals[0]["status"] == "finished"
                assert all(not p.errors for p in players), [p.errors for p in players]
                for i in range(2):  # each server had one of the seats: the game crossed processes (PostgreSQL)
                    log = (tmp_path / f"server{i}.log").read_text()
                    assert f"WebSocket /api/tables/{table}/ws?token=***" in log, log
                    assert not any(t in log for t in tokens)

                assert _status(f"{url}/metrics", context) == 404  # the proxy keeps the metrics private
                slow = _slowloris_closed_after(url, context)
                assert READ_HEADER_TIMEOUT - 0.5 < slow < READ_HEADER_TIMEOUT + 5  # closed by the header timeout

            engine = create_engine(db)
            with engine.connect() as connection:
                data = Path(str(connection.execute(text("SHOW data_directory")).scalar()))
            engine.dispose()
            postmaster = int((data / "postmaster.pid").read_text().split()[0])
            os.kill(postmaster, signal.SIGQUIT)  # PostgreSQL stops at once
            deadline = time.monotonic() + 30
            while _status(f"{servers[0].url}/readyz") != 503:
                assert time.monotonic() < deadline, "/readyz still says ready without a database"
                time.sleep(0.5)
            assert _status(f"{servers[0].url}/healthz") == 200
        finally:
            for server in servers:
                server.stop()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd is not installed")
def test_the_systemd_unit_is_valid(tmp_path: Path) -> None:
    """``systemd-analyze verify`` accepts deploy/meeple@.service (its paths made to exist here), without a warning."""
    unit = UNIT.read_text()
    assert "meeple serve --host 127.0.0.1 --port %i --forwarded-allow-ips 127.0.0.1" in unit
    here = unit.replace("/opt/meeple/venv/bin/meeple", shutil.which("true") or "/bin/true")
    here = here.replace("EnvironmentFile=/etc/meeple/meeple.env", "EnvironmentFile=-/etc/meeple/meeple.env")
    (tmp_path / "meeple@8001.service").write_text(here)
    done = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "meeple@8001.service")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
