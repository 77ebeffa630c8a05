"""The log-in queue (issue 41, item 4): guesses at one username are bounded whatever the attacker's addresses, a
device that logged in before is neither locked out nor starved by a flood, and guessable passwords are refused at
sign-up and password change, saying why in the reader's language.

Found from outside: one password queue for everyone, so 120 addresses within their own quotas made 6 of 8 genuine
log-ins answer 503; guesses at one account grew with the attacker's addresses. The in-process tests run the default
quotas; the last one runs ``meeple serve`` for real, its flood coming from many addresses through
``X-Forwarded-For`` (the server trusts loopback as its proxy), bounded in count and time.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig
from meeple.server.hashing import PasswordWork, PasswordWorkBusy
from meeple.server.logins import DEVICE_COOKIE
from meeple.server.quotas import Quotas
from meeple.web import create_web_app
from tests.server.helpers import ServerProcess
from tests.server.test_accounts import PASSWORD, sign_up

WAIT = 30.0


@pytest.fixture
def running(tmp_path: Path) -> Iterator[TestClient]:
    """The default quotas, as ``meeple serve`` starts (10 attempts per username per 10 minutes)."""
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'l.db'}", bot_workers=0)
    with TestClient(create_web_app(config), client=("198.51.100.1", 5000)) as client:
        yield client


def _from(running: TestClient, host: str, cookies: dict[str, str] | None = None) -> TestClient:
    """Another browser of the running app, at ``host``, holding ``cookies``."""
    other = TestClient(running.app, client=(host, 5000), cookies=cookies)
    other.portal = running.portal
    return other


def _log_in(client: TestClient, username: str, password: str) -> int:
    return client.post("/api/session", json={"username": username, "password": password}).status_code


# ---------------------------------------------------------------------------------------------- guessable passwords
WEAK = [
    ("password1", "it is a very common password", "c'est un mot de passe très courant"),
    ("qwertyuiop", "it is one of the 100 most common passwords", "l'un des 100 mots de passe les plus courants"),
    ("Ada_Lovelace99", "it holds your username", "il contient votre nom d'utilisateur"),
    ("aaaaaaaaaaaaaa", 'repeats like "aaa" are easy to guess', "les répétitions comme «\u202faaa\u202f»"),
    ("k9#Lq2vX", "it is too short to be safe", "il est trop court"),
    ("soleil2024", "close to a commonly used password", "proche d'un mot de passe très utilisé"),
]


@pytest.mark.parametrize(("password", "english", "french"), WEAK)
def test_a_guessable_password_is_refused_at_sign_up_saying_why(
    running: TestClient, password: str, english: str, french: str
) -> None:
    body = {"username": "Ada_Lovelace99", "password": password}
    r = running.post("/api/accounts", json=body)
    assert r.status_code == 422 and "too easy to guess" in r.json()["detail"] and english in r.json()["detail"]
    r = running.post("/api/accounts", json=body, headers={"Accept-Language": "fr"})
    assert r.status_code == 422 and "trop facile à deviner" in r.json()["detail"] and french in r.json()["detail"]
    page = running.post("/signup?lang=fr", data=body)
    assert page.status_code == 422 and "trop facile à deviner" in page.text
    assert password not in r.text and password not in page.text  # never echoed
    assert running.get("/api/players/Ada_Lovelace99").status_code == 404, "nothing was created"
    assert _log_in(running, "Ada_Lovelace99", password) == 401


def test_a_guessable_new_password_is_refused_and_nothing_changes(running: TestClient) -> None:
    sign_up(running, "Grace")
    for lang, words in (("en", "it is one of the 10 most common passwords"), ("fr", "l'un des 10 mots de passe")):
        r = running.post(
            "/api/me/password", json={"old": PASSWORD, "new": "password"}, headers={"Accept-Language": lang}
        )
        assert r.status_code == 422 and words in r.json()["detail"]
    page = running.post("/password?lang=fr", data={"old": PASSWORD, "new": "grace1234"})
    assert page.status_code == 422 and "trop facile à deviner" in page.text
    assert running.get("/api/me").json()["username"] == "Grace", "the session did not end"
    assert _log_in(_from(running, "198.51.100.2"), "Grace", PASSWORD) == 200, "the password did not change"
    assert running.post("/api/me/password", json={"old": PASSWORD, "new": "a quiet violet orchard"}).is_success


def test_a_server_may_lower_or_lift_the_strength_asked(tmp_path: Path) -> None:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0, quotas=Quotas(min_password_score=2))
    with TestClient(create_web_app(config)) as lenient:
        assert lenient.post("/api/accounts", json={"username": "Lea", "password": "soleil2024"}).status_code == 201
        assert lenient.post("/api/accounts", json={"username": "Lou", "password": "password1"}).status_code == 422


# ---------------------------------------------------------------------------------------------- per username
def test_guesses_at_one_username_are_bounded_whatever_the_addresses(running: TestClient) -> None:
    sign_up(_from(running, "198.51.100.3"), "Ada")
    codes = [_log_in(_from(running, f"203.0.113.{i}"), "Ada", f"guess number {i}") for i in range(1, 15)]
    assert codes == [401] * 10 + [429] * 4, "one attempt from each of 14 addresses"
    r = _from(running, "203.0.113.99").post("/api/session", json={"username": "ada", "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1, "even the right password, from a new device"
    assert "devices it has not logged in from" in r.json()["detail"]
    fr = _from(running, "203.0.113.98").post(
        "/api/session", json={"username": "ADA", "password": PASSWORD}, headers={"Accept-Language": "fr"}
    )
    assert fr.status_code == 429 and "appareils" in fr.json()["detail"]
    # an unknown username is counted the same (nothing tells the two apart), and other usernames are not held back
    unknown = [_log_in(_from(running, f"203.0.113.{i}"), "Nobody", "a wrong guess") for i in range(20, 32)]
    assert unknown == [401] * 10 + [429] * 2
    sign_up(_from(running, "198.51.100.4"), "Bea")
    assert _log_in(_from(running, "203.0.113.50"), "Bea", PASSWORD) == 200
    page = _from(running, "203.0.113.51").post("/login?lang=fr", data={"username": "Ada", "password": PASSWORD})
    assert page.status_code == 429 and "appareils" in page.text and page.headers["Retry-After"]


def test_a_known_device_logs_in_while_its_username_is_attacked(running: TestClient) -> None:
    home = _from(running, "198.51.100.5")
    signed_up = home.post("/api/accounts", json={"username": "Ada", "password": PASSWORD})
    cookie = signed_up.headers.get_list("set-cookie")
    device = next(c for c in cookie if c.startswith(f"{DEVICE_COOKIE}="))
    assert "HttpOnly" in device and "SameSite=strict" in device and "Path=/" in device
    sign_up(_from(running, "198.51.100.6"), "Bob")
    bob_device = _from(running, "198.51.100.6").post("/api/session", json={"username": "Bob", "password": PASSWORD})
    stolen = bob_device.cookies[DEVICE_COOKIE]
    for i in range(12):  # the attack: the username's attempts from unknown devices are used up
        _log_in(_from(running, f"203.0.113.{i + 1}"), "Ada", f"guess {i}")
    assert _log_in(_from(running, "203.0.113.80"), "Ada", PASSWORD) == 429
    # Ada's own device, from any address, still logs in: the attack cannot lock her out
    known = {DEVICE_COOKIE: home.cookies[DEVICE_COOKIE]}
    assert _log_in(_from(running, "192.0.2.10", known), "Ada", PASSWORD) == 200
    assert _log_in(_from(running, "192.0.2.11", known), "ada", PASSWORD) == 200
    # another account's device cookie, a forged one or a truncated one is an unknown device
    for value in (stolen, home.cookies[DEVICE_COOKIE][:-3] + "abc", "x" * 40, "y" * 5000):
        assert _log_in(_from(running, "192.0.2.12", {DEVICE_COOKIE: value}), "Ada", PASSWORD) == 429
    # the web form honours the device cookie too, and renews it
    form = _from(running, "192.0.2.13", known).post(
        "/login", data={"username": "Ada", "password": PASSWORD}, follow_redirects=False
    )
    renewed = [c for c in form.headers.get_list("set-cookie") if c.startswith(f"{DEVICE_COOKIE}=")]
    assert form.status_code == 303 and renewed
    # a device that fails as often as the username's quota loses its trust for the window
    thief = _from(running, "192.0.2.14", known)
    assert [_log_in(thief, "Ada", f"thief guess {i}") for i in range(10)] == [401] * 10
    assert _log_in(thief, "Ada", "thief guess 11") == 429


def test_a_password_change_retires_the_older_device_cookies(running: TestClient) -> None:
    phone = _from(running, "198.51.100.7")
    sign_up(phone, "Cleo")
    old = phone.cookies[DEVICE_COOKIE]
    changed = phone.post("/api/me/password", json={"old": PASSWORD, "new": "a quiet violet orchard"})
    assert changed.status_code == 200
    new = phone.cookies[DEVICE_COOKIE]
    assert new != old
    for i in range(12):
        _log_in(_from(running, f"203.0.113.{i + 1}"), "Cleo", f"guess {i}")
    assert _log_in(_from(running, "192.0.2.20", {DEVICE_COOKIE: old}), "Cleo", "a quiet violet orchard") == 429
    assert _log_in(_from(running, "192.0.2.21", {DEVICE_COOKIE: new}), "Cleo", "a quiet violet orchard") == 200


# ---------------------------------------------------------------------------------------------- the password lanes
def test_a_known_devices_call_waits_in_its_own_lane_and_goes_first() -> None:
    work = PasswordWork(workers=1, queue=2)
    release = threading.Event()
    order: list[str] = []

    def held(name: str) -> str:
        assert release.wait(WAIT)
        order.append(name)
        return name

    async def flood() -> list[str]:
        calls = [asyncio.ensure_future(work.run(held, f"o{n}")) for n in range(3)]  # one runs, two wait
        while work.running < 1:
            await asyncio.sleep(0.01)
        with pytest.raises(PasswordWorkBusy):
            await work.run(held, "o3")  # the ordinary lane is full
        trusted = [asyncio.ensure_future(work.run(held, f"t{n}", trusted=True)) for n in range(2)]
        await asyncio.sleep(0.05)
        assert work.pending == 5 and work.trusted_pending == 2 and work.running == 1
        release.set()
        return [await c for c in calls + trusted]

    try:
        assert sorted(asyncio.run(flood())) == ["o0", "o1", "o2", "t0", "t1"]
        assert order == ["o0", "t0", "t1", "o1", "o2"], "the known devices' calls run before the waiting flood"
        assert work.peak == 1 and work.pending == 0 and work.refused == 1
    finally:
        work.close()


# ---------------------------------------------------------------------------------------------- a real process
FLOOD_ADDRESSES = 120
"""The issue's flood: 120 addresses, each within its own quotas."""


def flood_log_ins(url: str, seconds: float, stop: threading.Event) -> dict[int, int]:
    """Log-in attempts from :data:`FLOOD_ADDRESSES` addresses, 10 each (their per-minute quota), at many usernames.

    Runs 40 at a time until each address has made its 10, ``seconds`` have passed or ``stop`` is set; returns the
    count of each answer's status (0: no answer).
    """
    statuses: dict[int, int] = {}
    deadline = time.monotonic() + seconds
    lock = threading.Lock()

    def attempt(n: int) -> None:
        if stop.is_set() or time.monotonic() > deadline:
            return
        address = f"203.0.113.{n % FLOOD_ADDRESSES + 1}"
        body = json.dumps({"username": f"someone{n % 500}", "password": f"guess {n}"}).encode()
        headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
        request = urllib.request.Request(f"{url}/api/session", data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status = answer.status
        except urllib.error.HTTPError as exc:
            status = exc.code
        except OSError:
            status = 0
        with lock:
            statuses[status] = statuses.get(status, 0) + 1

    with concurrent.futures.ThreadPoolExecutor(max_workers=40) as pool:
        list(pool.map(attempt, range(FLOOD_ADDRESSES * 10)))
    return statuses


def genuine_log_ins(url: str, username: str, cookie: str | None, count: int = 8) -> list[int]:
    """``count`` log-ins of ``username`` a second apart, each from the player's own address and device cookie."""
    codes = []
    for _ in range(count):
        headers = {"Content-Type": "application/json", "X-Forwarded-For": "198.51.100.77"}
        if cookie:
            headers["Cookie"] = f"{DEVICE_COOKIE}={cookie}"
        body = json.dumps({"username": username, "password": PASSWORD}).encode()
        request = urllib.request.Request(f"{url}/api/session", data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                codes.append(answer.status)
        except urllib.error.HTTPError as exc:
            codes.append(exc.code)
        time.sleep(1.0)
    return codes


def sign_up_for_real(url: str, username: str) -> str | None:
    """Sign ``username`` up on a running server; its device cookie (None: the server set none)."""
    body = json.dumps({"username": username, "password": PASSWORD}).encode()
    headers = {"Content-Type": "application/json", "X-Forwarded-For": "198.51.100.77"}
    with urllib.request.urlopen(urllib.request.Request(f"{url}/api/accounts", data=body, headers=headers)) as r:
        cookies = r.headers.get_all("set-cookie") or []
    found = [c.split(";", 1)[0].split("=", 1)[1] for c in cookies if c.startswith(f"{DEVICE_COOKIE}=")]
    return found[0] if found else None


def measure(url: str, seconds: float = 60) -> tuple[list[int], dict[int, int]]:
    """The genuine log-ins' statuses during a flood, and the flood's statuses."""
    cookie = sign_up_for_real(url, "Genuine")
    stop = threading.Event()
    result: dict[str, Any] = {}
    flood = threading.Thread(target=lambda: result.update(flood=flood_log_ins(url, seconds, stop)))
    flood.start()
    time.sleep(2.0)  # the queue fills
    try:
        codes = genuine_log_ins(url, "Genuine", cookie)
    finally:
        stop.set()
        flood.join(seconds + 30)
    return codes, result.get("flood", {})


def test_a_log_in_flood_from_many_addresses_does_not_starve_a_known_device(tmp_path: Path) -> None:
    options = ("--forwarded-allow-ips", "127.0.0.1")  # loopback is the proxy: X-Forwarded-For names the client
    server = ServerProcess(f"sqlite:///{tmp_path / 'f.db'}", log=tmp_path / "server.log", options=options).start()
    try:
        codes, flood = measure(server.url)
        print(f"genuine log-ins with a device cookie during the flood: {codes}; the flood's answers: {flood}")
        assert flood.get(503, 0) > 0, "the flood did fill the password queue"
        assert codes == [200] * 8, codes
    finally:
        server.stop()
