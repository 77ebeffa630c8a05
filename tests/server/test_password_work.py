"""Password work on its own bounded threads (issue #34, item 5; :mod:`meeple.server.hashing`).

A log-in flood must neither queue without bound nor hold up the tables: past ``--password-hash-workers`` running
and ``--password-hash-queue`` waiting, a log-in gets 503 with ``Retry-After``; a move is acknowledged while every
password thread is busy. No timing assertion: the password threads are held on an event.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from meeple.server.accounts import Accounts
from meeple.server.app import ServerConfig
from meeple.server.hashing import PasswordWork, PasswordWorkBusy
from meeple.server.services import services_of
from meeple.web.app import create_web_app
from tests.server.conftest import OPEN
from tests.server.helpers import next_of, seed_where
from tests.server.test_accounts import PASSWORD, person, sign_up

WAIT = 30.0
"""Seconds a test waits for a held thread to show up before failing (never reached when things work)."""


class Held(PasswordHasher):
    """argon2's hasher whose ``verify`` waits until ``release`` is set (the password threads are then busy)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:  # noqa: A002 - argon2's parameter name
        assert self.release.wait(WAIT), "the test never released the password threads"
        return super().verify(hash, password)


def test_no_more_than_workers_run_and_no_more_than_the_queue_waits() -> None:
    work = PasswordWork(workers=2, queue=3)
    release = threading.Event()

    def held(n: int) -> int:
        assert release.wait(WAIT)
        return n

    async def flood() -> list[int | str]:
        calls = [asyncio.ensure_future(work.run(held, n)) for n in range(9)]
        await asyncio.sleep(0)
        while work.running < 2:  # the two threads take their calls
            await asyncio.sleep(0.01)
        assert work.pending == 5 and work.running == 2
        release.set()
        out: list[int | str] = []
        for call in calls:
            try:
                out.append(await call)
            except PasswordWorkBusy as exc:
                assert exc.retry_after >= 1
                out.append("busy")
        return out

    try:
        assert asyncio.run(flood()) == [0, 1, 2, 3, 4, "busy", "busy", "busy", "busy"]
        assert work.peak == 2 and work.refused == 4 and work.pending == 0 and work.running == 0
        assert asyncio.run(_once(work)) == 7, "a free place is taken again"
    finally:
        work.close()


async def _once(work: PasswordWork) -> int:
    return await work.run(lambda: 7)


def test_a_bad_size_is_refused() -> None:
    with pytest.raises(ValueError, match="must be >= 1"):
        PasswordWork(workers=0)
    with pytest.raises(ValueError, match="queue >= 0"):
        PasswordWork(workers=1, queue=-1)


@pytest.fixture
def narrow(tmp_path: Path) -> Iterator[TestClient]:
    """A running web app (pages and API): one password thread, one waiting place; metrics open to the test."""
    config = ServerConfig(
        db=f"sqlite:///{tmp_path / 'p.db'}",
        bot_workers=0,
        allow_seed=True,
        password_hash_workers=1,
        password_hash_queue=1,
        metrics_allow_ips="*",
        **OPEN,
    )
    with TestClient(create_web_app(config)) as client:
        yield client


def _log_in_in_background(running: TestClient, results: list[int]) -> threading.Thread:
    def go() -> None:
        answer = person(running).post("/api/session", json={"username": "Ada", "password": PASSWORD})
        results.append(answer.status_code)

    thread = threading.Thread(target=go)
    thread.start()
    return thread


def _refused(client: TestClient) -> float:
    for family in text_string_to_metric_families(client.get("/metrics").text):
        for sample in family.samples:
            if sample.name == "meeple_refused_total" and sample.labels == {"reason": "password_busy"}:
                return float(sample.value)
    raise AssertionError("no meeple_refused_total{reason=password_busy}")


def test_a_flood_of_log_ins_gets_503_and_a_move_is_acked_meanwhile(narrow: TestClient) -> None:
    sign_up(narrow, "Ada")
    seed = seed_where("caprice", 2, 0)
    table = narrow.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"], "seed": seed})
    table_id = table.json()["table"]
    state = services_of(narrow.app)
    accounts: Accounts = state.accounts
    work: PasswordWork = state.passwords
    held = Held()
    accounts.hasher = held
    results: list[int] = []
    threads = [_log_in_in_background(narrow, results) for _ in range(2)]
    try:
        for _ in range(int(WAIT * 100)):
            if work.pending == 2 and work.running == 1:
                break
            threading.Event().wait(0.01)
        assert (work.pending, work.running) == (2, 1), "one log-in runs, one waits"
        for lang, words in (("en", "busy checking passwords"), ("fr", "occupé à vérifier des mots de passe")):
            busy = person(narrow).post(
                "/api/session", json={"username": "Ada", "password": PASSWORD}, headers={"Accept-Language": lang}
            )
            assert busy.status_code == 503 and int(busy.headers["Retry-After"]) >= 1
            assert words in busy.json()["detail"]
        signup = person(narrow).post("/api/accounts", json={"username": "Bea", "password": PASSWORD})
        assert signup.status_code == 503, "sign-up shares the password threads"
        page = person(narrow).post("/login", data={"username": "Ada", "password": PASSWORD})
        assert page.status_code == 503 and "busy checking passwords" in page.text and page.headers["Retry-After"]
        assert _refused(narrow) == 4
        # the table's database work runs on the default executor: a move is acked while the password thread is held
        with narrow.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            assert ws.receive_json()["seat"] == 0
            frame = next_of(ws)
            code = frame["legal_actions"][0]["code"]
            ws.send_json({"type": "move", "version": frame["version"], "action": code, "move_id": "m1"})
            assert next_of(ws, "ack")["move_id"] == "m1"
        assert work.running == 1 and not held.release.is_set()
    finally:
        held.release.set()
        for thread in threads:
            thread.join(WAIT)
    assert results == [200, 200] and work.peak == 1 and work.pending == 0
