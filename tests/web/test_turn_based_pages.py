"""Turn-based play in the pages (issue #34 item 7), through FastAPI's test client: the lobby form's time per move,
clocks shown in days, "My tables", and a waiting table's buttons for its creator (the browser clicks them in
tests/web/test_turn_based_browser.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.i18n import translator
from meeple.server.app import ServerConfig
from meeple.web import create_web_app
from meeple.web.render import duration
from tests.server.helpers import person

PASSWORD = "correct horse battery"


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0)
    with TestClient(create_web_app(config)) as client:
        yield client


@pytest.mark.parametrize(
    ("seconds", "english", "french"),
    [(59, "0:59", "0:59"), (3_599, "59:59", "59:59"), (3_600, "1:00:00", "1:00:00"), (90_061, "1 d 1 h", "1 j 1 h")],
)
def test_a_clock_reads_in_minutes_hours_or_days(seconds: int, english: str, french: str) -> None:
    assert duration(seconds, translator("en")) == english and duration(seconds, translator("fr")) == french
    assert duration(-5, translator("en")) == "0:00"


def test_the_lobby_form_creates_a_turn_based_table(web: TestClient) -> None:
    lobby = web.get("/?lang=fr").text
    assert "Tour par tour\u202f: temps par coup" in lobby and "3 jours par coup" in lobby
    form = {"game": "caprice", "param_players": "2", "seat_0": "human", "seat_1": "human", "per_move": "259200"}
    page = web.post("/tables", data=form)
    assert page.status_code == 200, page.text
    clock = web.get("/api/tables").json()[0]["clock"]
    assert clock["spec"] == {"initial": None, "increment": 0, "per_move": 259200}
    table = web.get("/api/tables").json()[0]["table"]
    assert "· 3 jours par coup" in web.get("/?lang=fr").text  # the lobby's list says so
    board = web.get(f"/tables/{table}?lang=fr").text
    assert "3 j 0 h" in board and 'data-days="{days} j {hours} h"' in board  # the banks, in days


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"per_move": "86400", "clock_minutes": "10"}, "not both"),
        ({"per_move": "9999999"}, "at most 1209600"),
        ({"per_move": "a day"}, "could not convert"),
    ],
)
def test_a_bad_turn_based_choice_gets_the_lobby_back_saying_why(web: TestClient, form: dict, words: str) -> None:
    base = {"game": "caprice", "param_players": "2", "seat_0": "human", "seat_1": "human"}
    r = web.post("/tables", data={**base, **form})
    assert words in r.text and 'role="alert"' in r.text, r.text[-2000:]
    assert web.get("/api/tables").json() == []  # nothing was created


def test_my_tables_page_lists_your_turns_first_in_both_languages(web: TestClient) -> None:
    assert "Log in to see the tables" in web.get("/me/tables").text
    assert 'href="/me/tables' not in web.get("/").text  # a guest has no such link
    ann, bob = web, person(web)
    for client, name in ((ann, "ann"), (bob, "bob")):
        assert client.post("/api/accounts", json={"username": name, "password": PASSWORD}).status_code == 201
    body = {"game": "caprice", "seats": ["human", "open"], "clock": {"per_move": 3 * 86_400}}
    table = ann.post("/api/tables", json=body).json()["table"]
    assert bob.post(f"/api/tables/{table}/join", json={}).status_code == 201
    assert 'href="/me/tables?lang=en"' in ann.get("/").text
    english = ann.get("/me/tables").text
    assert f'href="/tables/{table}?lang=en"' in english and "ann, bob" in english and "3 days per move" in english
    french = bob.get("/me/tables?lang=fr").text
    assert "Mes tables" in french and "3 jours par coup" in french and "encore " in french
    assert ("Your turn" in english) != ("À vous de jouer" in french)  # one of the two is to move
    assert "token" not in english + french and "seed" not in english + french


def test_a_waiting_tables_creator_gets_the_buttons_and_a_joiner_none(web: TestClient) -> None:
    first = web.post("/quickmatch", data={"game": "caprice", "players": "2", "name": "Ann"}, follow_redirects=False)
    table = first.headers["location"].rsplit("/", 1)[1]
    page = web.get(f"/tables/{table}").text
    assert 'id="start-now"' in page and 'id="keep-waiting"' in page and "Bots take the free seats in" in page
    assert "data-action-code" not in page and "my-turn" not in page  # no move is offered before the start
    assert '<span class="who">open seat</span>' in page  # the free seat's badge: not a bot
    assert "waiting for players" in page and "is playing" not in page  # the prompt
    french = web.get(f"/tables/{table}?lang=fr").text
    assert "Commencer maintenant avec des bots" in french and "Continuer d&#39;attendre des joueurs" in french
    assert web.post(f"/api/tables/{table}/wait", json={}).status_code == 200
    waited = web.get(f"/tables/{table}").text
    assert 'id="start-now"' in waited and 'id="keep-waiting"' not in waited  # no bots are due any more
    spectator = person(web).get(f"/tables/{table}").text
    assert 'id="start-now"' not in spectator
    other = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    joiner = person(web)
    assert joiner.post(f"/api/tables/{other}/join", json={"name": "Bob"}).status_code == 201
    assert 'id="start-now"' not in joiner.get(f"/tables/{other}").text  # the table started: nothing to choose
