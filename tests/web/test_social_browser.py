"""The pages of issue #44's items 3 and 7 in Debian's Chromium against a running ``meeple serve``: the friends page,
a profile with its statistics, results and rating chart, the lobby with its filters, and a rated table's badges with
their ratings — axe-core clean (no serious or critical violation, headings in order) in English and French at phone
(390 px) and desktop (1366 px) size, and screenshots of each (docs/screenshots/social-*.png) to look at.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import RandomSeat, ServerProcess
from tests.web.conftest import need_chromium
from tests.web.test_accessibility import SIZES, _axe

need_chromium()

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _shot(page: Any, path: str, full_page: bool = True) -> None:
    """A screenshot for docs/screenshots, written only when asked (``MEEPLE_SCREENSHOTS`` set), as the others are."""
    if os.environ.get("MEEPLE_SCREENSHOTS"):
        page.screenshot(path=path, full_page=full_page)


PASSWORD = "correct horse battery"


def _person(browser: Any, server: ServerProcess, name: str) -> Any:
    """A browser context of its own, signed up (and so logged in) as ``name``."""
    context = browser.new_context()
    answer = context.request.post(f"{server.url}/api/accounts", data={"username": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    return context


def _rated_game(server: ServerProcess, people: list[Any], seed: int) -> str:
    """Two accounts meet at a rated Caprice quick match and random moves play it to the end; its table id."""
    seats = []
    for context in people:
        answer = context.request.post(
            f"{server.url}/api/quickmatch", data={"game": "caprice", "players": 2, "rated": True}
        )
        assert answer.status == 201, answer.text()
        seats.append(answer.json())
    table = seats[0]["table"]
    players = [RandomSeat(server.url, table, s["token"], seed + i, give_up=30.0) for i, s in enumerate(seats)]
    for p in players:
        p.start()
    for p in players:
        assert p.finished.wait(120), "the rated game did not end"
        p.stop.set()
    return table


def _check(page: Any, url: str, where: str, ready: str) -> list[str]:
    """axe on ``url`` in both languages at both sizes, and a screenshot of each (``social-WHERE[-fr]-SIZE.png``)."""
    found = []
    for lang in ("en", "fr"):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
            page.wait_for_selector(ready, state="attached")
            found += _axe(page, f"{where} {lang} {size}")
            name = f"social-{where}{'-fr' if lang == 'fr' else ''}-{size}.png"
            _shot(page, path=str(SHOTS / name), full_page=True)
    return found


@pytest.mark.timeout(600)
def test_the_social_pages_are_axe_clean_in_both_languages_at_both_sizes(server: ServerProcess, browser: Any) -> None:
    ann, bea, cid = (_person(browser, server, n) for n in ("Ann", "Bea", "Cid"))
    _rated_game(server, [bea, cid], 11)
    _rated_game(server, [bea, cid], 23)
    live = bea.request.post(f"{server.url}/api/quickmatch", data={"game": "capitol", "players": 2, "rated": True})
    cid.request.post(f"{server.url}/api/quickmatch", data={"game": "capitol", "players": 2, "rated": True})
    table = live.json()["table"]
    assert ann.request.put(f"{server.url}/api/me/friends/Bea").status == 200
    assert ann.request.put(f"{server.url}/api/me/friends/Cid").status == 200
    ann.request.post(
        f"{server.url}/api/tables",
        data={"game": "citadels", "params": {"players": 3}, "seats": ["human", "open", "bot:random"]},
    )
    page = ann.new_page()
    problems = []
    problems += _check(page, f"{server.url}/players/Bea", "profile", "svg.rating-chart")
    problems += _check(page, f"{server.url}/me/friends", "friends", "ul.friends")
    problems += _check(page, f"{server.url}/?players=3", "lobby", "form.filters")
    problems += _check(page, f"{server.url}/tables/{table}", "rated-table", ".badge .rating")
    assert not problems, "\n".join(problems)
    page.goto(f"{server.url}/players/Bea?lang=en")
    page.click("form[action^='/players/Bea/unfollow'] button")
    page.wait_for_selector("form[action^='/players/Bea/follow'] button")  # followed no more, from the page itself


def test_a_spectators_line_is_named_once_and_mute_outlives_a_reload(server: ServerProcess, browser: Any) -> None:
    """Issue #44, item 9: a spectator's chat line read "spectator (spectator)"; mute was forgotten on reload."""
    host = browser.new_context()
    created = host.request.post(
        f"{server.url}/api/tables", data={"game": "caprice", "seats": ["human", "bot:random"], "grace": None}
    )
    table, token = created.json()["table"], created.json()["seats"][0]["token"]
    seat = host.new_page()
    seat.goto(f"{server.url}/tables/{table}?token={token}&lang=en")
    seat.wait_for_selector("#chat-mute")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.url}/tables/{table}?lang=en")
    watcher.wait_for_selector("#chat-form")

    def say(text: str) -> None:
        watcher.fill("#chat-form input[name=text]", text)
        watcher.click("#chat-form button")

    say("hello from the stands")
    line = seat.wait_for_selector("#chat-lines li:has-text('hello from the stands')")
    assert line.inner_text() == "spectator hello from the stands"  # once, not "spectator (spectator)"
    seat.check("#chat-mute")
    seat.reload()
    seat.wait_for_selector("#chat-mute")
    assert seat.is_checked("#chat-mute")  # remembered by this browser
    seat.wait_for_function("document.getElementById('connection').hidden")  # connected again, mute sent again
    seat.wait_for_timeout(500)
    say("muted line")
    watcher.wait_for_selector("#chat-lines li:has-text('muted line')")
    seat.wait_for_timeout(1500)
    assert "muted line" not in seat.inner_text("#chat-lines")
