"""The smaller items of issue #44 (item 9) at the API: a guest may not take an account's username or a look-alike,
and a 429 speaks the reader's language — against the running app on its SQLite database."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig, create_app
from meeple.server.names import skeleton
from meeple.server.quotas import Quotas
from tests.server.conftest import OPEN
from tests.server.helpers import create, person
from tests.server.test_accounts import PASSWORD, sign_up


@pytest.mark.parametrize(
    "name",
    [
        "Alice",  # the username itself
        "alice",  # another case
        "\u0410lice",  # a Cyrillic capital A
        "AIice",  # a capital I for the l
        "A1ice",  # a one for the l
        "\uff21\uff4c\uff49\uff43\uff45",  # full-width letters
        "Al\u0456ce",  # a Cyrillic i
    ],
)
def test_a_guest_may_not_take_an_accounts_name_or_a_look_alike(client: TestClient, name: str) -> None:
    sign_up(person(client), "Alice")
    guest = person(client)
    table, _ = create(guest, "citadels", [{"player": "human", "name": "Host"}, "open", "open"])
    for refused in (
        guest.post(f"/api/tables/{table}/join", json={"name": name}),
        guest.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": name}),
        guest.post("/api/tables", json={"game": "caprice", "seats": [{"player": "human", "name": name}, "bot:random"]}),
    ):
        assert refused.status_code == 422, refused.text
        assert "Alice" in refused.json()["detail"] and "log in" in refused.json()["detail"]
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["open"] for s in seats] == [False, True, True]  # nothing was taken


def test_other_names_and_the_accounts_own_pass(client: TestClient) -> None:
    alice = sign_up(person(client), "Alice")
    sign_up(person(client), "Bob")
    guest = person(client)
    table, _ = create(guest, "citadels", [{"player": "human", "name": "Host"}, "open", "open", "open"])
    for name in ("Alicia", "Bobby", "José", "Zoë"):
        assert guest.post(f"/api/tables/{table}/join", json={"name": name}).status_code in (201, 409)
        guest.cookies.clear()
    joined = alice.post(f"/api/tables/{table}/join", json={})  # logged in: her own username
    assert joined.status_code in (201, 409), joined.text
    own = alice.post(
        "/api/tables", json={"game": "caprice", "seats": [{"player": "human", "name": "alice"}, "bot:random"]}
    )
    assert own.status_code == 201, own.text  # the creator names her own seat: it is bound to her and named Alice
    assert skeleton("Alice") == skeleton("\u0410l\u0456ce") != skeleton("Alicia")


def test_a_deleted_accounts_name_is_free_again(client: TestClient) -> None:
    alice = sign_up(person(client), "Alice")
    assert alice.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    guest = person(client)
    r = guest.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Alice"})
    assert r.status_code == 201, r.text


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """Quotas on: one table a minute per address."""
    quotas = dataclasses.replace(Quotas(), tables_per_minute=1)
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=0, quotas=quotas, origins=OPEN["origins"])
    with TestClient(create_app(config)) as client:
        yield client


def test_a_quota_refusal_speaks_the_readers_language(strict: TestClient) -> None:
    body = {"game": "caprice", "seats": ["human", "bot:random"]}
    assert strict.post("/api/tables", json=body).status_code == 201
    english = strict.post("/api/tables", json=body)
    assert english.status_code == 429 and english.json()["detail"].startswith(
        "too many tables created: at most 1 a minute"
    )
    french = strict.post("/api/tables", json=body, headers={"Accept-Language": "fr"})
    assert french.status_code == 429 and int(french.headers["Retry-After"]) >= 1
    detail = french.json()["detail"]
    assert detail.startswith("trop de tables créées\u202f: au plus 1 par minute\u202f; réessayez dans "), detail


def test_quick_match_sent_twice_with_one_key_seats_once(client: TestClient) -> None:
    import concurrent.futures

    body = {"game": "caprice", "players": 2, "name": "Ann"}
    guest = person(client)

    def ask(key: str) -> Any:
        return guest.post("/api/quickmatch", json=body, headers={"Idempotency-Key": key})

    with concurrent.futures.ThreadPoolExecutor(2) as pool:  # a double click: both at once
        first, again = pool.map(ask, ["click-1", "click-1"])
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    assert first.json() == again.json()  # the same seat and token: no second seat, no second table
    seats = client.get(f"/api/tables/{first.json()['table']}").json()["seats"]
    assert [s["open"] for s in seats] == [False, True]
    assert ask("x" * 65).status_code == 422 and ask("no spaces").status_code == 422
    other = person(client).post("/api/quickmatch", json={**body, "name": "Bob"}, headers={"Idempotency-Key": "click-1"})
    assert other.json()["table"] == first.json()["table"] and other.json()["seat"] == 1  # another name: its own seat


def test_the_lobbys_play_now_sent_twice_seats_once(tmp_path: Path) -> None:
    import re

    from meeple.web import create_web_app

    config = ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0, **OPEN)
    with TestClient(create_web_app(config)) as web:
        keys = re.findall(r'name="once" value="([^"]+)"', web.get("/").text)
        assert len(keys) == len(set(keys)) >= 4  # one key per form
        form = {"game": "caprice", "players": "2", "name": "Ann", "once": keys[0]}
        first = web.post("/quickmatch", data=form, follow_redirects=False)
        web.cookies.clear()  # the second click left before the first answer set the seat's cookie
        again = web.post("/quickmatch", data=form, follow_redirects=False)
        assert first.status_code == again.status_code == 303
        assert first.headers["location"] == again.headers["location"]
        table = first.headers["location"].rsplit("/", 1)[1].split("?")[0]
        assert [s["open"] for s in web.get(f"/api/tables/{table}").json()["seats"]] == [False, True]


def test_the_terminal_shows_chat_while_its_move_prompt_waits() -> None:
    """Issue #44, item 9: at the terminal's move prompt no chat line was shown until the move was typed."""
    import io
    import queue

    from rich.console import Console

    from meeple.cli.online import OnlineSession
    from tests.server.test_people import _caprice_frames, _Socket

    hello, mine, final = _caprice_frames(legal_for_me=True)
    lines: queue.Queue[str | None] = queue.Queue()
    socket = _Socket(
        [
            hello,
            mine,  # the move prompt shows, nothing typed yet
            {"type": "chat", "seat": 1, "name": "Bea", "text": "your move, [b]Ann[/b]", "time": 1.0},
            lambda: lines.put("1"),  # read after the chat line was shown: then the move is typed
            final,
        ]
    )
    out = io.StringIO()
    session = OnlineSession(Console(file=out, width=200, color_system=None), None, socket, lines=lines)
    assert session.run() == 0
    text = out.getvalue()
    assert "Bea » your move, [b]Ann[/b]" in text  # shown, escaped
    assert text.index("Your move: ") < text.index("Bea » your move") < text.rindex("Your move: ")  # prompt again
    assert socket.sent[0]["type"] == "move" and socket.sent[0]["action"] == mine["legal_actions"][0]["code"]


def test_the_terminal_user_takes_an_open_seat_or_says_why_it_watches(tmp_path: Path) -> None:
    """Issue #44, item 9: ``meeple play --server URL --user NAME --table ID`` made the account a spectator unless
    ``--name`` was given too: now it takes the table's open seat, and says why when it cannot."""
    import subprocess
    import sys

    from tests.server.helpers import ServerProcess, http_json

    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", log=tmp_path / "server.log").start()

    def play(table: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "meeple", "play", "--server", server.url, "--user", "Vic", "--table", table]
        typed = PASSWORD + "\n" + "1\n" * 400
        return subprocess.run(command, input=typed, capture_output=True, text=True, timeout=300, start_new_session=True)

    try:
        http_json(f"{server.url}/api/accounts", {"username": "Vic", "password": PASSWORD})
        body = {"game": "caprice", "seats": ["bot:random", "open"]}
        waiting = http_json(f"{server.url}/api/tables", body)["table"]
        joined = play(waiting)
        assert joined.returncode == 0, joined.stdout[-2000:] + joined.stderr[-2000:]
        assert "you are seat 1" in joined.stdout
        bots = {"game": "caprice", "seats": ["bot:random", "bot:random"]}  # no open seat; it ends by itself
        full = http_json(f"{server.url}/api/tables", bots)["table"]
        watching = subprocess.run(
            [sys.executable, "-m", "meeple", "play", "--server", server.url, "--user", "Vic", "--table", full],
            input=PASSWORD + "\nquit\n",
            capture_output=True,
            text=True,
            timeout=300,
            start_new_session=True,
        )
        assert "you are a spectator" in watching.stdout and "No seat taken (" in watching.stdout, watching.stdout
    finally:
        server.stop()
