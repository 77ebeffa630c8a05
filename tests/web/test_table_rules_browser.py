"""A rated table's rules, a claim and an aborted table, in Debian's Chromium (issue 41, items 3 and 7).

Two accounts meet at a rated table; its rules are on the page; one plays a move and leaves on their turn; the other's
page offers the claim, counting down, then enables it; the click makes the absent seat forfeit (its badge says so).
axe-core finds no serious violation on that page at 390 px, and it does not scroll sideways. An aborted table says
why on its page and in the lobby.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import ServerProcess, http_json
from tests.web.conftest import need_chromium
from tests.web.test_people_browser import ON_THE_BOARD, _rated_play_now, _sign_up

need_chromium()

CLAIM_AFTER = 10
"""The server's --claim-after in these tests (seconds; 10 is the option's least)."""


@pytest.fixture(scope="module")
def rules_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("rules")
    options = ("--no-rate-limits", "--claim-after", str(CLAIM_AFTER), "--no-start-minutes", "0.1")
    process = ServerProcess(f"sqlite:///{folder / 'web.db'}", log=folder / "server.log", options=options).start()
    yield process
    process.stop()


def _table_of(page: Any) -> str:
    return str(page.url.rsplit("/tables/", 1)[1].split("?")[0])


def _my_turn(page: Any) -> bool:
    return bool(page.locator("section.board.my-turn").count())


def _click_a_move(page: Any) -> bool:
    """Click a legal move on the board, else in the list under it; False if the board was redrawn under the click."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    moves = page.locator(ON_THE_BOARD)
    try:
        if moves.count():
            moves.first.click(timeout=3000)
        else:
            page.locator("#moves-panel summary").click(timeout=3000)
            page.locator("#moves-panel button[data-action-code]").first.click(timeout=3000)
    except PlaywrightTimeout:
        return False
    return True


def test_a_waiting_player_claims_against_an_away_one_from_the_page(rules_server: ServerProcess, browser: Any) -> None:
    from tests.web.test_for_people import PHONE, _axe

    url = rules_server.url
    suffix = uuid.uuid4().hex[:6]
    contexts = [browser.new_context(viewport=PHONE, bypass_csp=True), browser.new_context()]
    pages = [_sign_up(c, url, f"{n}_{suffix}") for c, n in zip(contexts, ("ann", "bea"), strict=True)]
    for page in pages:
        _rated_play_now(page, url, "caprice", 2)
    table = _table_of(pages[0])
    ann, bea = pages
    for page in pages:
        page.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
        rules = page.locator(".table-rules").text_content()
        assert (
            rules == "Rules of this table: 2 min per move · out of time or 2 min away: forfeit, the medium bot plays on"
        )
    moved = False  # Bea plays one move of her own; when her turn comes again, she leaves
    for _ in range(600):
        if _my_turn(ann):
            _click_a_move(ann)
        elif _my_turn(bea):
            if moved:
                break
            moved = _click_a_move(bea)
            bea.wait_for_timeout(300)  # her move's new board
        ann.wait_for_timeout(100)
    assert moved and _my_turn(bea)
    contexts[1].close()  # Bea is gone, on her turn
    claim = ann.locator("#claim")
    claim.wait_for(timeout=20_000)  # the page offers a claim (the board is redrawn when Bea's seat goes away)
    assert claim.is_disabled() and "Claim possible in" in claim.text_content()
    _axe(ann, "a rated table with a claim coming")
    if os.environ.get("MEEPLE_SCREENSHOTS") and Path(os.environ["MEEPLE_SCREENSHOTS"]).is_dir():
        ann.screenshot(path=str(Path(os.environ["MEEPLE_SCREENSHOTS"]) / "i41-claim-phone-en.png"))
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ann.wait_for_function("!document.getElementById('claim').disabled", timeout=(CLAIM_AFTER + 10) * 1000)
    claim.click()
    ann.locator(".badge .forfeit").wait_for()
    if os.environ.get("MEEPLE_SCREENSHOTS") and Path(os.environ["MEEPLE_SCREENSHOTS"]).is_dir():
        ann.screenshot(path=str(Path(os.environ["MEEPLE_SCREENSHOTS"]) / "i41-claimed-phone-en.png"))
    seat = http_json(f"{url}/api/tables/{table}")["seats"][1]
    assert (seat["forfeit"], seat["bot_played"]) == ("claim", True)
    me = http_json(f"{url}/api/players/ann_{suffix}")
    assert me["ratings"]["caprice"]["games"] == 1  # settled at once: two players, one forfeited
    contexts[0].close()


def test_an_aborted_table_says_why_on_its_page_and_in_the_lobby(rules_server: ServerProcess, browser: Any) -> None:
    answer = http_json(f"{rules_server.url}/api/tables", {"game": "capitol", "seats": ["human", "bot:random"]})
    table = answer["table"]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{rules_server.url}/?lang=fr")
    entry = page.locator("ul.tables li", has=page.locator(f"a[href='/tables/{table}']"))
    assert "bot moyen" not in entry.text_content()  # a table's own rules: no clock, no grace
    assert "sans pendule" in entry.text_content()
    page.wait_for_timeout(9_000)  # past the no-start window (6 s): nobody opened seat 1
    page.goto(f"{rules_server.url}/tables/{table}?lang=fr")
    assert "annulée : un joueur n’est jamais venu à la table" in page.locator("#prompt").text_content()
    page.goto(f"{rules_server.url}/?lang=fr")
    entry = page.locator("ul.tables li", has=page.locator(f"a[href='/tables/{table}']"))
    assert "annulée" in entry.text_content() and "jamais venu" in entry.text_content()
    context.close()


@pytest.mark.skipif(not os.environ.get("MEEPLE_SCREENSHOTS"), reason="MEEPLE_SCREENSHOTS=1 writes the screenshots")
def test_look_at_the_pages_of_issue_41(rules_server: ServerProcess, browser: Any, tmp_path: Path) -> None:
    """Phone and desktop shots of the lobby (rules, rated rules, an aborted table) and a rated table, to look at.

    Written to ``MEEPLE_SCREENSHOTS`` if it is a folder, else to the test's temporary folder.
    """
    target = Path(os.environ["MEEPLE_SCREENSHOTS"])
    folder = target if target.is_dir() else tmp_path
    url = rules_server.url
    suffix = uuid.uuid4().hex[:6]
    contexts = [browser.new_context(bypass_csp=True), browser.new_context(bypass_csp=True)]
    pages = [_sign_up(c, url, f"{n}_{suffix}") for c, n in zip(contexts, ("Ann", "Bea"), strict=True)]
    # a table Ann makes and Bea joins, which neither opens: aborted (Ann's "My tables" says so)
    made = contexts[0].request.post(f"{url}/api/tables", data={"game": "caprice", "seats": ["human", "open"]})
    unplayed = made.json()["table"]
    assert contexts[1].request.post(f"{url}/api/tables/{unplayed}/join", data={}).status == 201
    for page in pages:
        _rated_play_now(page, url, "capitol", 2)
    http_json(f"{url}/api/tables", {"game": "caprice", "seats": ["human", "bot:medium"], "clock": {"initial": 300}})
    page = pages[0]
    page.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
    table = _table_of(page)
    sizes = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
    for lang in ("en", "fr"):
        for where, path in (("lobby", "/"), ("table", f"/tables/{table}"), ("mine", "/me/tables")):
            page.goto(f"{url}{path}?lang={lang}")
            for size, viewport in sizes.items():
                page.set_viewport_size(viewport)
                page.wait_for_timeout(300)
                page.screenshot(path=str(folder / f"i41-{where}-{size}-{lang}.png"), full_page=where == "lobby")
    assert http_json(f"{url}/api/tables/{unplayed}")["status"] == "aborted"  # past the 6 s window by now
    for context in contexts:
        context.close()
