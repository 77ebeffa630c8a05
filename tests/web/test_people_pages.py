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

STRONG = "long enough to play"
"""A password strong enough for the default --min-password-score."""


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


# ---------------------------------------------------------------------------------------------- accounts (items 5, 6)
def _signed_up(web: TestClient, username: str = "Ada_L", lang: str = "en") -> None:
    r = web.post(f"/signup?lang={lang}", data={"username": username, "password": STRONG}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/?lang={lang}"
    assert "meeple_session=" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]


def test_the_lobby_signs_up_logs_in_and_out_without_a_script(web: TestClient) -> None:
    lobby = web.get("/").text
    assert 'action="/login?lang=en"' in lobby and 'action="/signup?lang=en"' in lobby and "<script>" not in lobby
    assert "Logged in as" not in lobby and lobby.count('type="checkbox" name="rated"') == 0
    _signed_up(web)
    lobby = web.get("/").text
    assert 'Logged in as <a href="/players/Ada_L" class="me"><strong>Ada_L</strong></a>' in lobby
    assert lobby.count('form method="post" action="/quickmatch?lang=en" class="play-now"') == len(registered_games())
    assert (
        lobby.count('type="checkbox" name="rated"') == 2 * len(registered_games())
        and 'class="player-name"' not in lobby
    )
    out = web.post("/logout", follow_redirects=False)
    assert out.status_code == 303 and 'meeple_session=""' in out.headers["set-cookie"]
    assert "Logged in as" not in web.get("/").text
    back = web.post("/login", data={"username": "ada_l", "password": STRONG}, follow_redirects=False)
    assert back.status_code == 303 and "Logged in as" in web.get("/").text


@pytest.mark.parametrize(
    ("form", "status", "words"),
    [
        ({"username": "ab", "password": STRONG}, 422, "A username has 3 to 24 characters"),
        ({"username": "a b c", "password": STRONG}, 422, "A username has 3 to 24 characters"),
        ({"username": "abc", "password": "short"}, 422, "A password has 8 to 128 characters"),
        ({"username": "abc", "password": STRONG, "email": "nope"}, 422, "name@example.org"),
        ({"username": "x" * 97, "password": STRONG}, 422, ""),
        ({"username": "abc", "password": "p" * 129}, 422, ""),
    ],
)
def test_a_bad_sign_up_form_gets_the_lobby_back_saying_why(
    web: TestClient, form: dict, status: int, words: str
) -> None:
    r = web.post("/signup", data=form, follow_redirects=False)
    assert r.status_code == status and words in r.text
    assert "meeple_session" not in r.headers.get("set-cookie", "")
    assert STRONG not in r.text and "p" * 20 not in r.text  # a password is never shown back


def test_a_wrong_log_in_and_a_taken_username_are_said_in_french(web: TestClient) -> None:
    _signed_up(web, "Bert")
    web.cookies.clear()
    r = web.post("/login?lang=fr", data={"username": "Bert", "password": "wrong one"}, follow_redirects=False)
    assert r.status_code == 401 and "nom d&#39;utilisateur ou mot de passe incorrect" in r.text
    r = web.post("/signup?lang=fr", data={"username": "BERT", "password": STRONG}, follow_redirects=False)
    assert r.status_code == 409 and "ce nom d&#39;utilisateur est déjà pris" in r.text


def test_rated_play_now_needs_a_log_in_and_binds_the_seat(web: TestClient) -> None:
    guest = web.post("/quickmatch", data={"game": "caprice", "players": "2", "name": "G", "rated": "1"})
    assert guest.status_code == 401 and "log in to play at a rated table" in guest.text
    assert web.post("/quickmatch", data={"game": "caprice", "players": "2"}).status_code == 422  # no name, no log-in
    _signed_up(web, "Cleo")
    r = web.post("/quickmatch", data={"game": "caprice", "players": "2", "rated": "1"}, follow_redirects=False)
    table = r.headers["location"].rsplit("/", 1)[1]
    seats = web.get(f"/api/tables/{table}").json()
    assert seats["rated"] and seats["seats"][0]["account"] == "Cleo"
    web.cookies.delete(f"meeple_seat_{table}")  # the session alone opens the seat on the table page
    page = web.get(f"/tables/{table}").text
    assert "Cleo (you)" in page and 'href="/players/Cleo" class="profile"' in page
    assert "rated" in web.get("/").text


def test_profile_and_leaderboard_pages_in_both_languages(web: TestClient) -> None:
    _signed_up(web, "Dora")
    page = web.get("/players/dora?lang=fr").text
    assert "<h1>Dora</h1>" in page and "Aucune partie classée pour l&#39;instant." in page and "c&#39;est vous" in page
    assert web.get("/players/nobody").status_code == 404
    assert web.get("/players/" + "x" * 200).status_code == 404
    board = web.get("/leaderboard/caprice?lang=en").text
    assert "Leaderboard: Caprice" in board and "Nobody has played a rated game of this yet." in board
    assert "Classement\u202f: Caprice" in web.get("/leaderboard/caprice?lang=fr").text
    assert web.get("/leaderboard/chess").status_code == 404
    assert web.get("/leaderboard/caprice?page=0").status_code == 422
    assert web.get("/leaderboard/caprice?page=401").status_code == 422


def test_the_create_form_makes_a_rated_table_with_open_seats_for_a_logged_in_player(web: TestClient) -> None:
    form = {"game": "caprice", "param_players": "2", "seat_0": "human", "seat_1": "open", "rated": "1"}
    guest = web.post("/tables", data=form)
    assert "log in to play at a rated table" in guest.text and web.get("/api/tables").json() == []
    assert 'name="rated" value="1"> Rated: your seat' not in web.get("/").text  # the box is for logged-in players
    _signed_up(web, "Eve_R")
    with_bot = web.post("/tables", data={**form, "seat_1": "bot:medium"})
    assert "no bots" in with_bot.text and web.get("/api/tables").json() == []
    made = web.post("/tables", data=form)
    assert made.status_code == 200
    listed = web.get("/api/tables").json()[0]
    assert listed["rated"] and listed["status"] == "waiting"
    assert [(s["account"], s["open"]) for s in listed["seats"]] == [("Eve_R", False), (None, True)]


def test_ones_own_profile_changes_the_password_and_logs_out_everywhere(web: TestClient) -> None:
    password = "correct horse battery"
    assert web.post("/api/accounts", json={"username": "Uma", "password": password}).status_code == 201
    phone = TestClient(web.app)
    phone.portal = web.portal
    assert phone.post("/api/session", json={"username": "Uma", "password": password}).status_code == 200
    mine = web.get("/players/Uma").text
    assert 'action="/password?lang=en"' in mine and 'autocomplete="new-password"' in mine
    assert 'action="/logout-everywhere' in mine
    stranger = TestClient(web.app)
    stranger.portal = web.portal
    assert "/password" not in stranger.get("/players/Uma").text, "only one's own profile has the forms"
    wrong = web.post("/password?lang=fr", data={"old": "not it at all", "new": "new passphrase"})
    assert wrong.status_code == 401 and "mot de passe incorrect" in wrong.text and 'role="alert"' in wrong.text
    short = web.post("/password?lang=en", data={"old": password, "new": "short"})
    assert short.status_code == 422 and "8 to 128 characters" in short.text
    assert web.post("/password", data={"old": password, "new": "n" * 129}).status_code == 422  # the raw field
    evil = {"Origin": "https://evil.example"}
    assert web.post("/password", data={"old": password, "new": "new passphrase"}, headers=evil).status_code == 403
    assert web.post("/logout-everywhere", headers=evil).status_code == 403
    assert phone.get("/api/me").status_code == 200, "nothing changed"
    done = web.post("/password?lang=fr", data={"old": password, "new": "new passphrase"}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/players/Uma?lang=fr"
    assert web.get("/api/me").status_code == 200 and phone.get("/api/me").status_code == 401
    gone = web.post("/password", data={"old": password, "new": STRONG + " too"})
    assert gone.status_code == 401  # the old password is gone
    out = web.post("/logout-everywhere", follow_redirects=False)
    assert out.status_code == 303 and web.get("/api/me").status_code == 401
    assert stranger.post("/password", data={"old": password, "new": "new passphrase"}).status_code == 401


def test_failed_log_ins_from_elsewhere_never_lock_the_owner_out_of_the_form(tmp_path: Path) -> None:
    """The review's lock-out attack on the lobby's form: failures are counted per username and address."""
    from meeple.server.quotas import Quotas

    app = create_web_app(
        ServerConfig(db=f"sqlite:///{tmp_path / 'q.db'}", bot_workers=0, quotas=Quotas(logins_per_minute=2))
    )
    with TestClient(app, client=("10.0.0.1", 1)) as owner:
        _signed_up(owner, "Vera")
        owner.cookies.clear()
        attacker = TestClient(app, client=("6.6.6.6", 1))
        attacker.portal = owner.portal  # the same running app
        wrong = {"username": "VERA", "password": "wrong guess"}
        codes = [attacker.post("/login", data=wrong, follow_redirects=False).status_code for _ in range(3)]
        assert codes == [401, 401, 429]
        right = owner.post("/login", data={"username": "vera", "password": STRONG}, follow_redirects=False)
        assert right.status_code == 303 and "meeple_session=" in right.headers["set-cookie"]


def test_an_invite_link_with_a_wrong_token_is_refused_in_the_pages_language(web: TestClient) -> None:
    table = web.post("/api/tables", json={"game": "caprice", "seats": ["human", "open"]}).json()["table"]
    r = web.get(f"/tables/{table}?token=guess&lang=fr", follow_redirects=False)
    assert r.status_code == 403 and "ce jeton n'ouvre aucune place à cette table" in r.text
    r = web.get(f"/tables/{table}?token=guess", follow_redirects=False)
    assert r.status_code == 403 and "this token opens no seat at this table" in r.text


@pytest.mark.parametrize(
    ("params", "words", "french"),
    [
        ({"param_players": "10000000"}, "caprice is played by 2 to 4 players, not 10000000", "de 2 à 4 joueurs"),
        ({"param_players": "1"}, "caprice is played by 2 to 4 players, not 1", "de 2 à 4 joueurs"),
        ({"param_players": "3", "param_first_player": "-2"}, "first_player&#39; cannot be -2; allowed: -1..3", "-1..3"),
    ],
)
def test_the_lobby_form_checks_every_parameter_before_it_reads_the_seats(
    web: TestClient, params: dict, words: str, french: str
) -> None:
    """Issue 41, item 1: the form read one seat per player it was told of (ten million seats for players=10000000)
    before any check; the parameter layer refuses first, as the API and the command line do."""
    form = {"game": "caprice", **params}
    page = web.post("/tables", data=form)
    assert words in page.text and 'role="alert"' in page.text
    assert french in web.post("/tables?lang=fr", data=form).text
    assert web.get("/api/tables").json() == []
