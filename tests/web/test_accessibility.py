"""axe-core on every game (issue #43 item 8 and "Done when"): a table in play, the end screen and the replay, in
English and French, at phone (390 px) and desktop (1366 px) size: no serious or critical violation, and headings in
order.

One table per game, seat 1 human and bots, is opened by its invite link in Debian's Chromium; axe-core
(``axe-playwright-python``) runs on it while it is the human's turn (on a phone with the players' bar open too, so
that the badges and the log are checked there as well), then the game is played to the end by tapping the board, and
axe runs on the end screen and on the replay's full view. Citadels is played by four, where two characters lie face up
out of the round (their names once failed contrast at 3.56:1).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.server.helpers import ServerProcess
from tests.web.conftest import need_chromium, new_table

need_chromium()

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
ON_THE_BOARD = "section.board [data-action-code]:not(.moves *):not([aria-disabled=true]):visible"
PICKS = "section.board [data-pick]:not([aria-disabled=true]):visible"
SETTLED = "section.board.my-turn:not([aria-busy]):not([data-playback])"
TABLES = {
    "citadels": ["human", "bot:random", "bot:random", "bot:random"],
    "capitol": ["human", "bot:random", "bot:random"],
    "capital_lux_2": ["human", "bot:random", "bot:random"],
    "caprice": ["human", "bot:random"],
}


ALWAYS = {"heading-order", "empty-heading", "page-has-heading-one", "landmark-unique"}
"""Rules checked whatever their impact: the headings' order and the landmarks (issue #43 item 8)."""


def _axe(page: Any, where: str) -> list[str]:
    """The serious and critical violations axe-core finds on the page (and :data:`ALWAYS`), as readable lines."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{where}: {v['id']} ({v['impact']}) {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical") or v["id"] in ALWAYS
    ]


def _every_way(page: Any, url: str, where: str, open_panel: bool = False) -> list[str]:
    """axe on ``url`` in both languages at both sizes."""
    found = []
    for lang in ("en", "fr"):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
            page.wait_for_selector("section.board")
            if open_panel and size == "phone" and page.locator(".panel-toggle").is_visible():
                page.locator(".panel-toggle").click()
                page.wait_for_selector(".side-panel .badge", state="visible")
            found += _axe(page, f"{where} ({lang}, {size})")
    return found


def _play_to_the_end(page: Any, limit: float = 420) -> None:
    """Play seat 1 to the end as a player does: a direct move, or a piece (card, building, roof) and then one of its
    destinations (tap, then tap: the destinations are shown once their piece is tapped)."""
    rng = random.Random(5)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if page.locator("#results").count():
            return
        if page.locator(SETTLED).count():
            moves, picks = page.locator(ON_THE_BOARD), page.locator(PICKS)
            try:
                if picks.count() and (not moves.count() or rng.random() < 0.5):
                    picks.nth(rng.randrange(picks.count())).click(timeout=3000)
                count = moves.count()
                if count:
                    moves.nth(rng.randrange(count)).click(timeout=3000)
            except Exception:  # noqa: BLE001 - a bot's move redrew the board first: look again
                pass
        page.wait_for_timeout(40)
    raise AssertionError("the game did not end in time")


@pytest.mark.parametrize("game", list(TABLES))
def test_no_serious_violation_on_a_table_its_end_and_its_replay(server: ServerProcess, browser: Any, game: str) -> None:
    table, tokens = new_table(server, game, TABLES[game], seed=12)
    context = browser.new_context(viewport=SIZES["desktop"], bypass_csp=True)  # axe-core is injected as a script
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}&lang=en")  # the seat's cookie
    page.wait_for_selector("section.board.my-turn")
    url = f"{server.url}/tables/{table}"
    violations = _every_way(page, url, f"{game} in play", open_panel=True)
    page.set_viewport_size(SIZES["desktop"])
    page.goto(f"{url}?lang=en")
    _play_to_the_end(page)
    violations += _every_way(page, url, f"{game} at the end", open_panel=True)
    violations += _every_way(page, f"{url}/replay-view", f"{game} replay")
    violations += _every_way(page, f"{url}/replay-view?seat=0&step=3", f"{game} replay of a seat")
    context.close()
    assert not violations, "\n".join(violations)
