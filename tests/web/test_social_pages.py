"""The pages of issue #44's items 3 and 7 through FastAPI's test client: the friends page, follow and unfollow
from a profile, a profile's statistics, rating chart and results, the lobby's filters and waiting tables, ratings on
a rated table's badges — in English and French."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig
from meeple.server.policy import SeatPolicy
from meeple.server.quotas import Quotas
from meeple.web import create_web_app
from tests.server.helpers import person
from tests.server.test_accounts import sign_up
from tests.server.test_ratings import _play_both, _rated_pair


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    config = ServerConfig(
        db=f"sqlite:///{tmp_path / 'w.db'}",
        bot_workers=0,
        policy=SeatPolicy(any_bot=True, bot_tables=True, min_grace=0.0),
        quotas=Quotas(rate_limits=False),
        origins=("http://testserver",),
    )
    with TestClient(create_web_app(config)) as client:
        yield client


def test_follow_from_a_profile_and_the_friends_page(web: TestClient) -> None:
    ann, bea = (sign_up(person(web), n) for n in ("Ann", "Bea"))
    profile = ann.get("/players/Bea").text
    assert 'action="/players/Bea/follow' in profile and "Invite to a table" in profile and "/?invite=Bea" in profile
    assert "online" in profile
    followed = ann.post("/players/Bea/follow", follow_redirects=False)
    assert followed.status_code == 303 and followed.headers["location"] == "/players/Bea"
    assert 'action="/players/Bea/unfollow' in ann.get("/players/Bea").text
    page = ann.get("/me/friends").text
    assert "Bea" in page and 'class="online"' in page and "/?invite=Bea" in page
    assert ann.post("/players/Nobody/follow").status_code == 404
    assert ann.post("/players/Ann/follow").status_code == 422
    french = ann.get("/me/friends?lang=fr").text
    assert "Amis" in french and "Ne plus suivre" in french and "Inviter à une table" in french
    hidden = ann.post("/me/presence", data={"hide_table": "1"}, follow_redirects=False)
    assert hidden.status_code == 303 and "checked" in ann.get("/me/friends").text
    gone = ann.post("/players/Bea/unfollow?back=friends", follow_redirects=False)
    assert gone.headers["location"] == "/me/friends"
    assert "You follow nobody yet" in ann.get("/me/friends?lang=en").text
    assert person(web).get("/me/friends").status_code == 200  # a guest is asked to log in
    assert person(web).post("/players/Bea/follow").status_code == 401
    del bea


def test_a_profile_shows_statistics_results_and_a_rating_chart(web: TestClient) -> None:
    table, people = _rated_pair(web)
    seats_page = web.get(f"/tables/{table}").text
    assert seats_page.count('class="rating"') == 2 and "provisional" in seats_page  # 0.0 and the mark
    _play_both(web, table, people)
    page = web.get("/players/Ann").text
    assert "Statistics" in page and '<svg class="rating-chart"' in page and 'role="img"' in page
    assert re.search(r"rank [12] of 2", page)
    assert "<desc" in page and "1 games: from" in page
    french = web.get("/players/Ann?lang=fr").text
    assert "Statistiques" in french and re.search(r"rang [12] sur 2", french)


def test_the_lobby_filters_and_lists_waiting_tables_apart(web: TestClient) -> None:
    def at(n: int) -> TestClient:
        return person(web, client=(f"10.0.1.{n}", 5000))

    waiting = at(1).post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    live = (
        at(2)
        .post(
            "/api/tables",
            json={"game": "citadels", "params": {"players": 3}, "seats": ["human", "bot:random", "bot:random"]},
        )
        .json()["table"]
    )
    for n in range(3, 60):  # many newer tables: the waiting one stays listed
        at(n).post("/api/tables", json={"game": "capitol", "params": {"players": 2}, "seats": ["human", "bot:random"]})
    lobby = web.get("/").text
    waiting_part = lobby.split('class="tables waiting-tables"')[1].split("</ul>")[0]
    assert f"/tables/{waiting}" in waiting_part and f"/tables/{live}" not in waiting_part
    only = web.get("/?game=citadels").text
    assert f"/tables/{live}" in only and f"/tables/{waiting}" not in only and "Show every table" in only
    assert f"/tables/{waiting}" in web.get("/?waiting=1&players=2").text
    assert f"/tables/{live}" not in web.get("/?waiting=1").text
    assert web.get("/?game=chess&players=99&rated=maybe").status_code == 200  # filters nothing, fails nothing
    assert "Filtrer les tables" in web.get("/?lang=fr").text


def test_a_logged_out_spectator_logs_in_and_comes_back_to_the_table(web: TestClient) -> None:
    ann = sign_up(person(web), "Ann")
    table = ann.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]}).json()["table"]
    device = person(web)  # the e-mail's link opened on a device not logged in: a spectator's page
    page = device.get(f"/tables/{table}").text
    assert "Log in to play it" in page and f'href="/?next=/tables/{table}&amp;lang=en#log-in"' in page
    lobby = device.get(f"/?next=/tables/{table}").text
    assert f'name="next" value="/tables/{table}"' in lobby and 'id="log-in" open' in lobby
    form = {"username": "Ann", "password": "correct horse battery", "next": f"/tables/{table}"}
    back = device.post("/login", data=form, follow_redirects=False)
    assert back.status_code == 303 and back.headers["location"] == f"/tables/{table}"
    assert "Log in to play it" not in device.get(f"/tables/{table}").text  # her session opens her seat
    for elsewhere in ("//evil.example/x", "https://evil.example", "/\\evil", "/tables/x?y=1", "/" + "a" * 300):
        form["next"] = elsewhere
        assert device.post("/login", data=form, follow_redirects=False).headers["location"] == "/", elsewhere
    guests = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "bot:random"]}).json()["table"]
    assert "Log in to play it" not in person(web).get(f"/tables/{guests}").text  # a guests' table: nothing to log in to
