"""A waiting table's buttons and "My tables" in Debian's Chromium (issue #34 item 7 and the waiting-table buttons).

The creator of a quick-match table keeps waiting, then starts now with bots, in English and in French; a player
with an account finds their turn-based table on "My tables", on a phone too. ``MEEPLE_SCREENSHOTS=1`` also writes
docs/screenshots/{waiting-table,my-tables}-{desktop,phone}-{en,fr}.png.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import ServerProcess, http_json
from tests.web.conftest import need_chromium

need_chromium()

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
PASSWORD = "correct horse battery"


def _play_now(context: Any, url: str, lang: str, name: str) -> Any:
    page = context.new_page()
    page.goto(f"{url}/?lang={lang}")
    card = page.locator("#game-caprice form.play-now")
    if card.locator("input[name=name]").count():  # logged in, the account's name is used
        card.locator("input[name=name]").fill(name)
    card.locator("select[name=players]").select_option("2")
    card.locator("button[type=submit]").click()
    page.wait_for_url("**/tables/*")
    return page


def _table_of(page: Any) -> str:
    return str(page.url.rsplit("/tables/", 1)[1].split("?")[0])


@pytest.mark.parametrize(
    ("lang", "start", "keep", "waited"),
    [
        ("en", "Start now with bots", "Keep waiting for players", "You wait for players"),
        ("fr", "Commencer maintenant avec des bots", "Continuer d'attendre des joueurs", "Vous attendez des joueurs"),
    ],
)
def test_the_creator_keeps_waiting_then_starts_now_with_bots(
    server: ServerProcess, browser: Any, lang: str, start: str, keep: str, waited: str
) -> None:
    context = browser.new_context()
    page = _play_now(context, server.url, lang, "Ann")
    table = _table_of(page)
    assert http_json(f"{server.url}/api/tables/{table}")["status"] == "waiting"
    page.get_by_role("button", name=keep).click()
    page.locator("#keep-waiting").wait_for(state="hidden")
    assert waited in page.locator("#waiting p").text_content()
    assert page.locator("#error").is_hidden()
    page.get_by_role("button", name=start).click()
    page.locator("section.board[data-status=live]").wait_for()
    page.locator("#waiting").wait_for(state="hidden")
    page.locator("[data-action-code]").first.wait_for()  # the moves come with the start
    seats = http_json(f"{server.url}/api/tables/{table}")["seats"]
    assert [s["player"] for s in seats] == ["human", "bot:medium"]
    context.close()


def test_a_refused_start_says_why_on_the_page(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context()
    page = _play_now(context, server.url, "en", "Ann")
    table = _table_of(page)
    http_json(f"{server.url}/api/tables/{table}/join", {"name": "Bob"})  # the last seat is taken meanwhile
    page.locator("#waiting").wait_for(state="hidden")  # the state frame hides the buttons
    page.evaluate("document.getElementById('waiting').hidden = false")
    page.get_by_role("button", name="Start now with bots").click()
    page.locator("#error").wait_for()
    assert "not waiting" in page.locator("#error").text_content()
    context.close()


def _account(context: Any, url: str, name: str) -> None:
    r = context.request.post(f"{url}/api/accounts", data={"username": name, "password": PASSWORD})
    assert r.status == 201, r.text()


def _turn_based_table(server: ServerProcess, browser: Any, tag: str = "tb") -> tuple[Any, Any, str]:
    """Ann (account ``ann_TAG``) creates a three-days-a-move Caprice table; Bob (``bob_TAG``) takes its open seat."""
    ann, bob = browser.new_context(), browser.new_context()
    _account(ann, server.url, f"ann_{tag}")
    _account(bob, server.url, f"bob_{tag}")
    body = {"game": "caprice", "seats": ["human", "open"], "clock": {"per_move": 3 * 86_400}, "seed": 1}
    table = ann.request.post(f"{server.url}/api/tables", data=body).json()["table"]
    assert bob.request.post(f"{server.url}/api/tables/{table}/join", data={}).status == 201
    return ann, bob, table


def test_my_tables_shows_the_turn_and_opens_the_seat_on_a_phone(server: ServerProcess, browser: Any) -> None:
    ann, bob, table = _turn_based_table(server, browser)
    page = ann.new_page()
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"{server.url}/")
    page.get_by_role("link", name="My tables").click()
    page.wait_for_url("**/me/tables*")
    card = page.locator(".my-table", has=page.locator(f"a[href^='/tables/{table}']"))
    text = card.text_content()
    assert "ann_tb, bob_tb" in text and "3 days per move" in text and "left (until" in text
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scrolling
    box = card.locator("a").bounding_box()
    assert box is not None and box["height"] >= 43.5  # a tap target
    card.locator("a").click()
    page.wait_for_url(f"**/tables/{table}*")
    page.locator(".badge.mine").wait_for(state="attached")  # her seat, by her session: no token in any link
    assert page.locator(".clock").first.text_content().strip() != ""
    chip = page.locator(".panel-toggle .chip.current .chip-clock")  # the phone's bar: the clock of the seat to play
    assert chip.is_visible() and re.fullmatch(r"[23] d \d+ h", chip.text_content()), chip.text_content()
    french = bob.new_page()
    french.goto(f"{server.url}/me/tables?lang=fr")
    assert "Mes tables" in french.locator("h1").text_content() and "3 jours par coup" in french.content()
    for context in (ann, bob):
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_serious_accessibility_violation_on_my_tables_and_a_waiting_table(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    from tests.web.test_for_people import _axe

    context = browser.new_context(viewport=SIZES["phone"], bypass_csp=True)  # axe-core is injected as a script
    _account(context, server.url, f"axe_{lang}")
    body = {"game": "caprice", "seats": ["human", "human"], "clock": {"per_move": 86_400}}
    assert context.request.post(f"{server.url}/api/tables", data=body).status == 201
    page = context.new_page()
    page.goto(f"{server.url}/me/tables?lang={lang}")
    page.locator(".my-table").first.wait_for()
    _axe(page, "my tables")
    waiting = _play_now(context, server.url, lang, "Ann")
    waiting.locator("#start-now").wait_for()
    _axe(waiting, "a waiting table")
    waiting.locator("#start-now").click()  # no waiting table is left for the next quick match to meet
    waiting.locator("#waiting").wait_for(state="hidden")
    context.close()


@pytest.mark.skipif(not os.environ.get("MEEPLE_SCREENSHOTS"), reason="MEEPLE_SCREENSHOTS=1 writes docs/screenshots")
def test_write_the_screenshots(server: ServerProcess, browser: Any) -> None:
    """docs/screenshots/{waiting-table,my-tables}-{desktop,phone}-{en,fr}.png."""
    context = browser.new_context()
    page = _play_now(context, server.url, "en", "Ann")
    for lang in ("en", "fr"):
        page.goto(f"{page.url.split('?')[0]}?lang={lang}")
        _shoot(page, f"waiting-table-%s-{lang}")
    context.close()
    ann, bob, _table = _turn_based_table(server, browser, "shot")
    mine = ann.new_page()
    for lang in ("en", "fr"):
        mine.goto(f"{server.url}/me/tables?lang={lang}")
        _shoot(mine, f"my-tables-%s-{lang}")
    ann.close()
    bob.close()


def _shoot(page: Any, pattern: str) -> None:
    """The viewport at both sizes, saved as small PNGs (a 64-colour palette, as tests/web/test_browser.py does)."""
    from PIL import Image

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(300)
        path = SCREENSHOTS / f"{pattern % name}.png"
        page.screenshot(path=str(path))
        with Image.open(path) as image:
            image.convert("RGB").quantize(colors=64).save(path, optimize=True)
