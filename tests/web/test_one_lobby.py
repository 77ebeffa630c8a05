"""Create, join and quick match are implemented once (issue #42, item 3): the REST routes and the lobby's forms call
the same use cases of :class:`meeple.server.lobby.Lobby` and refuse the same bad input the same way — the same
status code, the same words (the API's ``detail``, the page's alert), and nothing created or taken."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig
from meeple.server.quotas import Quotas
from meeple.server.services import services_of
from meeple.web import create_web_app

STRONG = "long enough to play"


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    quotas = Quotas(joins_per_minute=4, tables_per_minute=3)
    with TestClient(
        create_web_app(ServerConfig(db=f"sqlite:///{tmp_path / 'o.db'}", bot_workers=0, quotas=quotas))
    ) as c:
        yield c


def _page_alert(text: str) -> str:
    """The words of the lobby page's alert (its error), unescaped."""
    start = text.index('role="alert"')
    return html.unescape(text[text.index(">", start) + 1 : text.index("</", start)]).strip()


def _full_table(web: TestClient) -> str:
    made = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    web.cookies.clear()
    assert web.post(f"/api/tables/{made}/join", json={"name": "Ann"}).status_code == 201
    web.cookies.clear()
    return str(made)


def _guest(web: TestClient) -> None:
    web.cookies.clear()


def _logged_in(web: TestClient) -> None:
    web.cookies.clear()
    assert web.post("/api/accounts", json={"username": "Ann", "password": STRONG}).status_code == 201


Case = tuple[str, Callable[[TestClient], None], Callable[[TestClient, str], Any], Callable[[TestClient, str], Any]]


def _cases() -> list[Case]:
    return [
        (
            "rated quick match as a guest",
            _guest,
            lambda w, t: w.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "G", "rated": True}),
            lambda w, t: w.post("/quickmatch", data={"game": "caprice", "players": "2", "name": "G", "rated": "1"}),
        ),
        (
            "rated table created by a guest",
            _guest,
            lambda w, t: w.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"], "rated": True}),
            lambda w, t: w.post(
                "/tables",
                data={"game": "caprice", "param_players": "2", "seat_0": "human", "seat_1": "open", "rated": "1"},
            ),
        ),
        (
            "a full table joined",
            _guest,
            lambda w, t: w.post(f"/api/tables/{t}/join", json={"name": "Bob"}),
            lambda w, t: w.post(f"/tables/{t}/join", data={"name": "Bob"}),
        ),
        (
            "a table with a player count out of range",
            _guest,
            lambda w, t: w.post("/api/tables", json={"game": "caprice", "params": {"players": 9}, "seats": ["human"]}),
            lambda w, t: w.post("/tables", data={"game": "caprice", "param_players": "9"}),
        ),
    ]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c[0])
def test_both_fronts_refuse_a_bad_request_with_the_same_status_and_words(web: TestClient, case: Case) -> None:
    _name, who, api, page = case
    table = _full_table(web)
    before = web.get("/api/tables").json()
    who(web)
    answer = api(web, table)
    who(web)
    shown = page(web, table)
    assert 400 <= answer.status_code < 500 and shown.status_code == answer.status_code, (answer.text, shown.status_code)
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and _page_alert(shown.text) == detail
    assert web.get("/api/tables").json() == before, "nothing created, nothing taken"


def test_a_guest_without_a_name_is_refused_422_by_both(web: TestClient) -> None:
    waiting = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    web.cookies.clear()
    api = web.post(f"/api/tables/{waiting}/join", json={})
    assert api.status_code == 422 and api.json()["detail"][0]["loc"] == ["body", "name"]
    assert web.post(f"/tables/{waiting}/join", data={}).status_code == 422
    assert web.post("/api/quickmatch", json={"game": "caprice", "players": 2}).status_code == 422
    assert web.post("/quickmatch", data={"game": "caprice", "players": "2"}).status_code == 422
    assert web.get(f"/api/tables/{waiting}").json()["seats"][1]["player"] == "open"


def test_an_unknown_table_is_404_for_both(web: TestClient) -> None:
    assert web.post("/api/tables/nope/join", json={"name": "Bob"}).status_code == 404
    assert web.post("/tables/nope/join", data={"name": "Bob"}).status_code == 404


def test_one_quota_counts_both_fronts(web: TestClient) -> None:
    """--joins-per-minute (4 here) counts a seat taken through either front: the fifth is refused by both."""
    for i in range(2):
        web.cookies.clear()
        assert web.post("/api/quickmatch", json={"game": "caprice", "players": 3, "name": f"A{i}"}).status_code == 201
        web.cookies.clear()
        form = {"game": "caprice", "players": "3", "name": f"P{i}"}
        assert web.post("/quickmatch", data=form, follow_redirects=False).status_code == 303
    web.cookies.clear()
    assert web.post("/api/quickmatch", json={"game": "caprice", "players": 3, "name": "X"}).status_code == 429
    assert web.post("/quickmatch", data={"game": "caprice", "players": "3", "name": "Y"}).status_code == 429


def test_the_pages_and_the_api_call_the_same_use_cases(web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = services_of(web.app).lobby
    calls: list[str] = []
    for name in ("create_table", "join", "quick_match", "new_token"):
        original = getattr(lobby, name)

        async def spy(*args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return await _original(*args, **kwargs)

        monkeypatch.setattr(lobby, name, spy)
    api = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    web.post("/tables", data={"game": "caprice", "param_players": "2", "seat_0": "human", "seat_1": "open"})
    web.cookies.clear()
    web.post(f"/api/tables/{api}/join", json={"name": "Bob"})
    waiting = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    web.cookies.clear()
    web.post(f"/tables/{waiting}/join", data={"name": "Cid"}, follow_redirects=False)
    web.cookies.clear()
    web.post("/api/quickmatch", json={"game": "caprice", "players": 2, "name": "Dee"})
    web.cookies.clear()
    web.post("/quickmatch", data={"game": "caprice", "players": "2", "name": "Eve"}, follow_redirects=False)
    web.post(f"/api/tables/{waiting}/token")  # Eve's cookie is for the quick-match table: 403, no use case
    web.post(f"/tables/{waiting}/token")
    assert calls.count("create_table") == 3 and calls.count("join") == 2 and calls.count("quick_match") == 2
