"""The lobby's "Play now" and "Join", names on the board, and the table's chat, in Debian's Chromium (issue #34).

Two browser contexts meet through "Play now", see each other's names (escaped), talk; a third joins a waiting
table from the lobby's list. The lobby remembers the name typed last (local storage).
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

import pytest

from tests.server.helpers import ServerProcess, http_json
from tests.web.conftest import need_chromium

need_chromium()


def _play_now(context: Any, url: str, game: str, name: str, players: int) -> Any:
    page = context.new_page()
    page.goto(f"{url}/")
    card = page.locator(f"#game-{game} form.play-now")
    card.locator("input[name=name]").fill(name)
    card.locator("select[name=players]").select_option(str(players))
    card.locator("button[type=submit]").click()
    page.wait_for_url("**/tables/*")
    return page


def test_two_strangers_meet_by_play_now_see_their_names_and_chat(server: ServerProcess, browser: Any) -> None:
    first, second = browser.new_context(), browser.new_context()
    ann = _play_now(first, server.url, "caprice", "<b>Ann</b>", 2)
    table = ann.url.rsplit("/tables/", 1)[1].split("?")[0]
    assert http_json(f"{server.url}/api/tables/{table}")["status"] == "waiting"
    bob = _play_now(second, server.url, "caprice", "Bob", 2)
    assert bob.url.rsplit("/tables/", 1)[1].split("?")[0] == table  # the two requests met at one table
    for page in (ann, bob):
        page.locator(".seats .badge").first.wait_for()
        page.wait_for_function("document.querySelectorAll('.seats .badge').length === 2")
    badges = bob.locator(".seats .badge strong").all_text_contents()
    assert badges == ["<b>Ann</b>", "Bob (you)"]  # a name is text, never markup
    assert bob.locator(".seats .badge b").count() == 0
    bob.locator("#chat-form input[name=text]").fill("gl <i>hf</i>")
    bob.locator("#chat-form button").click()
    line = ann.locator("#chat-lines li").first
    line.wait_for()
    assert line.text_content() == "Bob gl <i>hf</i>" and ann.locator("#chat-lines i").count() == 0
    lobby = first.new_page()
    lobby.goto(f"{server.url}/")
    assert lobby.locator("#game-citadels input[name=name]").input_value() == "<b>Ann</b>"  # remembered
    for context in (first, second):
        context.close()


def test_a_third_person_joins_a_waiting_table_from_the_lobby(server: ServerProcess, browser: Any) -> None:
    answer = http_json(f"{server.url}/api/tables", {"game": "citadels", "seats": ["human", "open", "bot:random"]})
    table = answer["table"]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/")
    entry = page.locator("ul.tables li", has=page.locator(f"a[href='/tables/{table}']"))
    assert "waiting for players" in entry.text_content()
    entry.locator("input[name=name]").fill("Cleo")
    entry.locator("button[type=submit]").click()
    page.wait_for_url(f"**/tables/{table}*")
    page.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
    assert "Cleo (you)" in page.locator(".seats").text_content()
    assert http_json(f"{server.url}/api/tables/{table}")["seats"][1]["name"] == "Cleo"
    context.close()


# ---------------------------------------------------------------------------------------------- accounts (items 5, 6)
ON_THE_BOARD = (
    "section.board [data-action-code]:not([aria-disabled=true]):not(.moves *):visible,"
    " section.board [data-pick]:not([aria-disabled=true]):visible"
)
PASSWORD = "a long enough password"


def _sign_up(context: Any, url: str, username: str) -> Any:
    """Sign up through the lobby's form (no script); the lobby then says who is logged in."""
    page = context.new_page()
    page.goto(f"{url}/")
    page.locator("details.signup summary").click()
    form = page.locator("details.signup form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("section.account a.me")
    assert page.locator("section.account a.me").text_content() == username
    return page


def _rated_play_now(page: Any, url: str, game: str, players: int) -> None:
    page.goto(f"{url}/")
    card = page.locator(f"#game-{game} form.play-now")
    assert card.locator("input[name=name]").count() == 0  # logged in: the username is the name
    card.locator("input[name=rated]").check()
    card.locator("select[name=players]").select_option(str(players))
    card.locator("button[type=submit]").click()
    page.wait_for_url("**/tables/*")


def _play_both_to_the_end(pages: list[Any], limit: float = 300) -> list[float]:
    """Each page clicks a random legal move on its board when it has one, until the game is over."""
    import random
    import time

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    rng = random.Random(3)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for page in pages:
            returns = page.locator("section.board").get_attribute("data-returns")
            if returns:
                return [float(r) for r in returns.split(",")]
            moves = page.locator(ON_THE_BOARD)
            count = moves.count()
            if count:
                try:
                    moves.nth(rng.randrange(count)).click(timeout=3000)
                except PlaywrightTimeout:
                    pass  # the board was redrawn under the click: look again
            page.wait_for_timeout(30)
    raise AssertionError("the rated game did not end in time")


def test_two_accounts_play_a_rated_game_and_their_profiles_show_the_ratings(
    server: ServerProcess, browser: Any
) -> None:
    import uuid

    suffix = uuid.uuid4().hex[:6]
    names = [f"ann_{suffix}", f"bob_{suffix}"]
    contexts = [browser.new_context(), browser.new_context()]
    pages = [_sign_up(c, server.url, n) for c, n in zip(contexts, names, strict=True)]
    _rated_play_now(pages[0], server.url, "caprice", 2)
    table = pages[0].url.rsplit("/tables/", 1)[1].split("?")[0]
    assert http_json(f"{server.url}/api/tables/{table}")["status"] == "waiting"
    _rated_play_now(pages[1], server.url, "caprice", 2)
    assert pages[1].url.rsplit("/tables/", 1)[1].split("?")[0] == table  # they met at one rated table
    for page in pages:
        page.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
        links = page.locator(".seats .badge a.profile")
        assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [f"/players/{n}" for n in names]
    pages[0].locator("#chat-form input[name=text]").fill("good luck!")
    pages[0].locator("#chat-form button").click()
    line = pages[1].locator("#chat-lines li").first
    line.wait_for()
    assert line.text_content() == f"{names[0]} good luck!"
    returns = _play_both_to_the_end(pages)
    ratings = []
    for page, name in zip(pages, names, strict=True):
        page.goto(f"{server.url}/players/{name}")
        row = page.locator("table.ratings tbody tr", has_text="Caprice")
        row.wait_for()
        cells = row.locator("td").all_text_contents()
        ratings.append(float(cells[0]))
        assert cells[1] == "1"  # one rated game
        assert page.locator(f"ul.history a[href='/tables/{table}/replay-view']").count() == 1
    winner = 0 if returns[0] > returns[1] else 1
    assert ratings[winner] > ratings[1 - winner]
    board = pages[0]
    board.goto(f"{server.url}/leaderboard/caprice")
    listed = board.locator("table.leaderboard tbody th a").all_text_contents()
    assert listed.index(names[winner]) < listed.index(names[1 - winner])
    # a waiting rated table in the lobby: a third person, logged in, joins it from there
    _rated_play_now(pages[0], server.url, "caprice", 2)
    waiting = pages[0].url.rsplit("/tables/", 1)[1].split("?")[0]
    third = browser.new_context()
    lobby = _sign_up(third, server.url, f"cid_{suffix}")
    entry = lobby.locator("ul.tables li", has=lobby.locator(f"a[href='/tables/{waiting}']"))
    assert "waiting for players" in entry.text_content() and "rated" in entry.text_content()
    assert entry.locator("input[name=name]").count() == 0
    entry.locator("button[type=submit]").click()
    lobby.wait_for_url(f"**/tables/{waiting}*")
    lobby.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
    assert http_json(f"{server.url}/api/tables/{waiting}")["seats"][1]["account"] == f"cid_{suffix}"
    for context in (*contexts, third):
        context.close()


@pytest.mark.skipif(not os.environ.get("MEEPLE_SCREENSHOTS"), reason="MEEPLE_SCREENSHOTS=1 writes docs/screenshots")
def test_write_the_account_screenshots(server: ServerProcess, browser: Any) -> None:
    """docs/screenshots/people-<lobby|profile|leaderboard>-<phone|desktop>-<en|fr>.png (a rated game played first)."""
    from pathlib import Path

    shots = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    sizes = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
    contexts = [browser.new_context(), browser.new_context()]
    names = ["Ada", "Grace_H"]
    pages = [_sign_up(c, server.url, n) for c, n in zip(contexts, names, strict=True)]
    for page in pages:
        _rated_play_now(page, server.url, "caprice", 2)
    _play_both_to_the_end(pages)
    page = pages[0]
    for lang in ("en", "fr"):
        for where, path in (
            ("lobby", "/"),
            ("profile", f"/players/{names[0]}"),
            ("leaderboard", "/leaderboard/caprice"),
        ):
            page.goto(f"{server.url}{path}?lang={lang}")
            for size, viewport in sizes.items():
                page.set_viewport_size(viewport)
                page.wait_for_timeout(200)
                target = shots / f"people-{where}-{size}-{lang}.png"
                page.screenshot(path=str(target))
                with contextlib.suppress(ImportError):
                    from PIL import Image

                    with Image.open(target) as image:
                        image.convert("RGB").quantize(colors=64).save(target, optimize=True)
    for context in contexts:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_account_pages_are_accessible_and_fit_a_phone(server: ServerProcess, browser: Any, lang: str) -> None:
    """axe-core finds no serious violation on the lobby (logged out, then in), one's own profile (its password form
    open) and a leaderboard, at 390 px wide, and none of them scrolls sideways."""
    import uuid

    from tests.web.test_for_people import PHONE, _axe

    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    page.locator("details.signup summary").click()
    page.locator("details.login summary").click()
    _axe(page, "the lobby's account forms")
    name = f"axe_{uuid.uuid4().hex[:6]}"
    form = page.locator("details.signup form")
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("section.account a.me")
    for where, path in (
        ("the lobby", "/"),
        ("a profile", f"/players/{name}"),
        ("a leaderboard", "/leaderboard/caprice"),
    ):
        page.goto(f"{server.url}{path}?lang={lang}")
        if where == "a profile":  # one's own: the password form opened, and the log-out-everywhere button
            page.locator("details.password summary").click()
            assert page.locator("form[action^='/logout-everywhere'] button").is_visible()
        _axe(page, where)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], f"{where} is too wide"
    context.close()
