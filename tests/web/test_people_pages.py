"""The lobby's "Play now" and "Join" forms and the table page's chat box, through FastAPI's test client (issue #34):
bad input gets the lobby back with what was wrong, nothing half-done."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import registered_games
from meeple.server.app import ServerConfig
from meeple.web import create_web_app


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_web_app(ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0))) as client:
        yield client


def test_play_now_seats_two_browsers_at_one_table(web: TestClient) -> None:
    lobby = web.get("/").text
    # one per game registered in this process (another test module may have added a toy game)
    assert lobby.count('class="play-now"') == len(registered_games()) and "/static/lobby.js" in lobby
    form = {"game": "caprice", "players": "2", "name": "<script>Ann</script>"}
    first = web.post("/quickmatch", data=form, follow_redirects=False)
    assert first.status_code == 303 and "meeple_seat_" in first.headers["set-cookie"]
    table = first.headers["location"].rsplit("/", 1)[1]
    listed = web.get("/").text
    assert f'action="/tables/{table}/join' in listed and "&lt;script&gt;Ann&lt;/script&gt;" in listed
    assert "<script>Ann" not in listed
    web.cookies.clear()
    second = web.post("/quickmatch", data={**form, "name": "Bob"}, follow_redirects=False)
    assert second.headers["location"].endswith(f"/tables/{table}")
    page = web.get(f"/tables/{table}").text
    assert "Bob (you)" in page and "&lt;script&gt;Ann&lt;/script&gt;" in page and 'id="chat-form"' in page


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"game": "caprice", "players": "2", "name": "n" * 25}, "at most 24 characters"),
        ({"game": "caprice", "players": "2", "name": "\x00\x07"}, "at least one visible character"),
        ({"game": "caprice", "players": "9", "name": "Ann"}, "players"),
        ({"game": "chess", "players": "2", "name": "Ann"}, "chess"),
    ],
)
def test_a_bad_play_now_gets_the_lobby_back_saying_why(web: TestClient, form: dict, words: str) -> None:
    r = web.post("/quickmatch", data=form, follow_redirects=False)
    assert r.status_code == 422 and words in r.text and 'role="alert"' in r.text
    assert web.get("/api/tables").json() == []  # nothing was created
    assert web.post("/quickmatch", data={**form, "name": "x" * 97}).status_code == 422  # the raw field is bounded


def test_join_from_the_lobby_and_its_refusals(web: TestClient) -> None:
    table = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    web.cookies.clear()
    bad = web.post(f"/tables/{table}/join", data={"name": "z" * 25}, follow_redirects=False)
    assert bad.status_code == 422 and "at most 24" in bad.text
    joined = web.post(f"/tables/{table}/join", data={"name": "Cleo"}, follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"].endswith(f"/tables/{table}")
    again = web.post(f"/tables/{table}/join", data={"name": "Cleo"}, follow_redirects=False)
    assert again.status_code == 303  # this browser holds the seat already: back to its table, no second seat
    web.cookies.clear()
    full = web.post(f"/tables/{table}/join", data={"name": "Dan"}, follow_redirects=False)
    assert full.status_code == 409 and "started" in full.text
    assert web.post("/tables/nope/join", data={"name": "Dan"}).status_code == 404
