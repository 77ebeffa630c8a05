"""Pieces move (issue #33 item 5): after a refresh a placed or moved piece flies to its place, a new one drops in,
and nothing moves under ``prefers-reduced-motion``. The page's animations are counted by wrapping
``Element.animate`` (the Web Animations API app.js uses; a test-only init script, not part of the page)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.helpers import ServerProcess
from tests.web.conftest import need_chromium, new_table

need_chromium()

COUNT = """
window.flights = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.flights.push((this.dataset && this.dataset.piece) || "");
  return animate.call(this, frames, options);
};
"""
PLACE = "section.board .tower-moves button.place[data-action-code]:not([aria-disabled=true])"


def _tap(page: Any, selector: str) -> None:
    """Tap the first move matching ``selector`` until the board's version changes (the socket may still be opening)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(5):
        page.wait_for_selector(selector, timeout=30000)
        before = page.locator("section.board").get_attribute("data-version")
        page.locator(selector).first.click()
        try:
            page.wait_for_function(
                "v => document.querySelector('section.board').dataset.version !== v", arg=before, timeout=3000
            )
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"tapping {selector} changed nothing")


def _place_a_piece(page: Any) -> list[str]:
    """Tap a "place a piece" move on the board; return the pieces animated by the refresh that shows it."""
    page.wait_for_selector(PLACE, timeout=30000)
    page.evaluate("window.flights = []")
    _tap(page, PLACE)
    page.wait_for_timeout(300)
    flights: list[str] = page.evaluate("window.flights")
    return flights


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_placed_piece_flies_from_the_supply_unless_motion_is_reduced(
    server: ServerProcess, browser: Any, motion: str
) -> None:
    table, tokens = new_table(server, "caprice", ["human", "bot:random"], seed=8)
    context = browser.new_context(reduced_motion=motion, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.add_init_script(COUNT)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    keep = "section.board .turnbar [data-action-code]"  # the opening decisions: keep or exchange drawn symbols
    for _ in range(10):
        page.wait_for_selector(f"{keep}, {PLACE}", timeout=30000)
        if page.locator(PLACE).count():
            break
        _tap(page, keep)
    flights = _place_a_piece(page)
    if motion == "reduce":
        assert flights == []
    else:
        assert any(key[:1] in "ABCDEF" and key[1:].isdigit() for key in flights), flights  # a tower's piece moved
    context.close()
