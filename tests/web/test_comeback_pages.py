"""The pages of issue #44's rematch, resign, invitations and blocks, through the running app (no browser).

The forms call the same use cases as the REST routes: the end fragment offers a rematch and says who accepted, the
resign form ends a two-player game, the lobby's form invites a player by name (``?invite=`` fills it), "My tables"
lists the invitation with "Take the seat" and "Decline", and a profile blocks and unblocks; in English and French.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import ServerConfig
from meeple.web import create_web_app
from tests.server.conftest import OPEN
from tests.server.helpers import create
from tests.server.test_accounts import person, sign_up
from tests.server.test_ratings import _play_both, _rated_pair


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    """The web app on a fresh SQLite file, no quotas."""
    config = ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0, allow_seed=True, **OPEN)
    with TestClient(create_web_app(config)) as client:
        yield client


def test_the_end_fragment_offers_a_rematch_and_its_forms_accept_it(web: TestClient) -> None:
    table, (ann, bea) = _rated_pair(web)
    live = ann.get(f"/tables/{table}/endgame?lang=en").text
    assert "Abort the game" in live and "nobody is rated" in live  # a rated seat before its first move aborts
    _play_both(web, table, [ann, bea])
    ended = ann.get(f"/tables/{table}/endgame?lang=en").text
    assert f'action="/tables/{table}/rematch?lang=en"' in ended and "Resign" not in ended
    assert 'action="/tables' not in web.get(f"/tables/{table}/endgame").text  # a spectator has no form
    offered = ann.post(f"/tables/{table}/rematch?lang=en", follow_redirects=False)
    assert offered.status_code == 303
    new = offered.headers["location"].split("/tables/", 1)[1].split("?")[0]
    assert f"meeple_seat_{new}" in offered.headers["set-cookie"]
    seen = bea.get(f"/tables/{table}/endgame?lang=fr").text
    assert "Ann propose une revanche" in seen and "Accepter la revanche" in seen, seen
    accepted = bea.post(f"/tables/{table}/rematch", follow_redirects=False)
    assert accepted.status_code == 303 and accepted.headers["location"] == f"/tables/{new}"
    assert web.get(f"/api/tables/{new}").json()["status"] == "live"
    assert "Go to the rematch" in ann.get(f"/tables/{table}/endgame?lang=en").text
    again = bea.post(f"/tables/{table}/rematch?lang=en", follow_redirects=False)
    assert again.status_code == 409 and "the rematch has started" in again.text
    assert person(web).post(f"/tables/{table}/rematch", follow_redirects=False).status_code == 403


def test_the_resign_form_ends_a_two_player_game(web: TestClient) -> None:
    table, tokens = create(web, "caprice", ["human", "human"])
    web.get(f"/tables/{table}?token={tokens[0]}")  # the invite link sets the seat's cookie
    fragment = web.get(f"/tables/{table}/endgame?lang=en").text
    assert "Resign now" in fragment and "The other player wins at once." in fragment
    done = web.post(f"/tables/{table}/resign?lang=en", follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/tables/{table}?lang=en"
    view = web.get(f"/api/tables/{table}").json()
    assert (view["status"], view["ended"]) == ("finished", "resigned")
    assert "Seat 1 resigned." in web.get(f"/tables/{table}/endgame?lang=en").text
    assert web.post(f"/tables/{table}/resign", follow_redirects=False).status_code == 409


def test_invite_by_name_from_the_lobby_then_take_or_decline_from_my_tables(web: TestClient) -> None:
    ann, bea = sign_up(person(web), "Ann"), sign_up(person(web), "Bea")
    lobby = ann.get("/?invite=Bea&lang=en").text
    assert 'value="invite" selected' in lobby and 'name="invite_1"' in lobby and 'value="Bea"' in lobby
    form = {"game": "caprice", "param_players": "2", "seat_0": "human", "seat_1": "invite", "invite_1": "Bea"}
    made = ann.post("/tables?lang=en", data=form)
    assert made.status_code == 200, made.text
    table = web.get("/api/tables?status=waiting").json()[0]["table"]
    listed = web.get("/?lang=en").text
    assert "reserved seat" in listed and f'action="/tables/{table}/join' not in listed  # no Join for strangers
    mine = bea.get("/me/tables?lang=fr").text
    assert "Vous êtes invité" in mine and f'action="/me/invitations/{table}/decline' in mine, mine
    taken = bea.post(f"/tables/{table}/join?lang=en", follow_redirects=False)
    assert taken.status_code == 303 and web.get(f"/api/tables/{table}").json()["status"] == "live"
    second = ann.post("/tables?lang=en", data=form)
    assert second.status_code == 200
    waiting = web.get("/api/tables?status=waiting").json()[0]["table"]
    declined = bea.post(f"/me/invitations/{waiting}/decline?lang=en", follow_redirects=False)
    assert declined.status_code == 303 and declined.headers["location"] == "/me/tables?lang=en"
    assert bea.get("/api/me/invitations").json() == []
    wrong = ann.post("/tables?lang=en", data={**form, "invite_1": "nobody"})
    assert wrong.status_code == 422 and "there is no player named" in wrong.text


def test_a_profile_blocks_and_unblocks(web: TestClient) -> None:
    ann = sign_up(person(web), "Ann")
    sign_up(person(web), "Bea")
    page = ann.get("/players/Bea?lang=en").text
    assert 'action="/players/Bea/block?lang=en"' in page and "Block this player" in page
    assert "Block this player" not in ann.get("/players/Ann?lang=en").text  # not oneself
    assert "Block this player" not in person(web).get("/players/Bea").text  # not logged in
    done = ann.post("/players/Bea/block?lang=en", follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/players/Bea?lang=en"
    assert [b["username"] for b in ann.get("/api/me/blocks").json()] == ["Bea"]
    page = ann.get("/players/Bea?lang=fr").text
    assert 'action="/players/Bea/unblock?lang=fr"' in page and "Débloquer" in page
    own = ann.get("/players/Ann?lang=en").text  # one's own profile lists them, each with "Unblock"
    assert "Players you block" in own and 'action="/players/Bea/unblock?lang=en"' in own
    ann.post("/players/Bea/unblock")
    assert ann.get("/api/me/blocks").json() == []
    assert ann.post("/players/nobody/block", follow_redirects=False).status_code == 404
