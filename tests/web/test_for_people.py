"""Issue #33's "Done when": every game played to the end at phone size by tapping the board, the page read as a player.

At every decision of the human seat: no sideways scroll at 390 px, ``#prompt`` says what is asked (more than "Your
turn"), every move on the board has an accessible name and is at least 44 px high, and the visible text holds no raw
identifier (snake_case, ``True``/``False``, a card id ``(#N)``, ``P0``, a seat counted from 0). At the end ``#results``
ranks the seats and explains the score. Capital Lux 2 solo is played twice: once by the heuristic bot's choices
(seed 1: it beats ROB) and once at random (ROB wins), tapping the board each time; the end screen must say which.
Then axe-core (``axe-playwright-python``) checks the lobby, a table in play, the end screen, the replay and the rules
page in both languages: no serious or critical violation.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from meeple.bots.heuristic import heuristic_bot
from meeple.core.registry import load_game
from meeple.core.view import SeatView
from tests.server.helpers import ServerProcess
from tests.web.conftest import need_chromium, new_table

need_chromium()

PHONE = {"width": 390, "height": 844}
ON_THE_BOARD = "section.board [data-action-code]:not(.moves *):not([aria-disabled=true])"
SHOWN_OR_TAPPED = "es => es.filter(e => e.dataset.for !== undefined || e.getClientRects().length)"
"""The moves drawn on the board: those on screen, and the destinations that show once their piece is tapped."""
RAW = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\bTrue\b|\bFalse\b|\(#\d+\)|\(n°\d+\)|\b[Ss]eat 0\b|\bPlace 0\b")
"""What a player must never read: a parameter or id name, a Python boolean, a card id, seat 0."""
SEAT_CODE = re.compile(r"\bP\d\b")
"""Capitol's old ``P0`` for a seat (in Capital Lux 2, ``P3`` is a pink 3: its colour letter and value)."""


def _check_the_page(page: Any, where: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{where}: the page is {width} px wide on a {PHONE['width']} px screen"
    text = page.locator("body").inner_text()
    raw = RAW.findall(text)
    if "board-capitol" in page.content():
        raw += SEAT_CODE.findall(text)
    assert not raw, f"{where}: raw identifiers on the page: {raw[:5]}"


def _check_the_turn(page: Any, where: str) -> None:
    prompt = page.locator("#prompt").inner_text().strip()
    assert len(prompt) > len("Your turn:") + 5, f"{where}: the prompt says only {prompt!r}"
    unnamed = page.evaluate(
        """() => Array.from(document.querySelectorAll("section.board [data-action-code]"))
                 .filter(e => !(e.getAttribute("aria-label") || "").trim() || !(e.getAttribute("title") || "").trim())
                 .map(e => e.outerHTML.slice(0, 120))"""
    )
    assert not unnamed, f"{where}: moves without an accessible name: {unnamed[:3]}"
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll("section.board [data-action-code]:not(.moves *)"))
                 .map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && r.height < 43.5)
                 .map(r => Math.round(r.height))"""
    )
    assert not small, f"{where}: tap targets under 44 px high: {small[:5]}"


def _play(page: Any, choose: Any, limit: float = 300) -> None:
    """Tap moves on the board (``choose(codes) -> code``) until ``#results`` shows, checking the page at each turn."""
    deadline = time.monotonic() + limit
    step = 0
    while time.monotonic() < deadline:
        if page.locator("#results").count():
            return
        if page.locator("section.board.my-turn:not([aria-busy])").count() and page.locator(ON_THE_BOARD).count():
            where = f"step {step}"
            if step % 3 == 0:  # the checks read the whole page: every third decision keeps the test short
                _check_the_page(page, where)
                _check_the_turn(page, where)
            offered = f"es => ({SHOWN_OR_TAPPED})(es).map(e => e.dataset.actionCode)"
            shown = page.locator(ON_THE_BOARD).evaluate_all(offered)
            codes = [int(c) for c in shown]
            if not codes:  # a bot's move redrew the board between the two looks: look again
                continue
            code = choose(codes)
            target = page.locator(f'section.board [data-action-code="{code}"]:not(.moves *)').first
            try:
                piece = target.get_attribute("data-for", timeout=3000)
                if piece is not None and not target.is_visible():  # tap, then tap: the piece first (issue #43)
                    page.locator(f'section.board [data-pick="{piece}"]').first.click(timeout=3000)
                target.scroll_into_view_if_needed(timeout=3000)
                target.click(timeout=3000)
                step += 1
            except Exception:  # noqa: BLE001 - a bot's move redrew the board first: look again
                pass
        page.wait_for_timeout(40)
    raise AssertionError("the game did not end in time")


def _results(page: Any) -> str:
    results = page.locator("#results")
    results.wait_for()
    assert results.locator(".ranking li").count() >= 2
    assert results.locator("table.breakdown").count() >= 1
    assert results.locator(".tie-rule").inner_text().strip()
    _check_the_page(page, "the end screen")
    text: str = results.inner_text()
    assert "🏆" not in page.content()
    return text


@pytest.mark.parametrize(
    ("game", "seats", "lang"),
    [
        ("citadels", ["human", "bot:random", "bot:random"], "en"),
        ("capitol", ["human", "bot:random", "bot:random"], "en"),
        ("capital_lux_2", ["human", "bot:random", "bot:random"], "en"),
        ("caprice", ["human", "bot:random"], "en"),
        ("capitol", ["human", "bot:random"], "fr"),
        ("capital_lux_2", ["human", "bot:random"], "fr"),
    ],
)
def test_every_game_to_the_end_at_phone_size(
    server: ServerProcess, browser: Any, game: str, seats: list[str], lang: str
) -> None:
    table, tokens = new_table(server, game, seats, seed=11)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}&lang={lang}")
    assert any(title in page.title() for title in ("Capitol", "Citadel", "Capital Lux", "Caprice"))
    rng = random.Random(3)
    _play(page, lambda codes: codes[rng.randrange(len(codes))])
    text = _results(page)
    assert ("Seat 1 (you)" if lang == "en" else "Place 1 (vous)") in text
    if game == "caprice":  # every player's symbols revealed, points per tower
        assert page.locator("#results table.breakdown tbody tr").count() == len(seats)
        assert "Tower A" in text
    if game == "capitol":  # every round's scoring
        assert page.locator("#results table.breakdown").count() == 4
    page.close()


@pytest.mark.parametrize("outcome", ["won", "lost"])
def test_capital_lux_2_solo_says_who_won(server: ServerProcess, browser: Any, outcome: str) -> None:
    """Seed 1: the heuristic bot's choices beat ROB (+13), random taps lose (rulebook §15: the margin decides)."""
    seed = 1
    table, tokens = new_table(server, "capital_lux_2", ["human"], seed=seed)
    state = load_game("capital_lux_2", players=1).new_initial_state(seed)  # the same game, mirrored here
    bot, rng = heuristic_bot("capital_lux_2", seed), random.Random(seed)
    codec = state.game.codec

    def choose(codes: list[int]) -> int:
        legal = {codec.encode(a): a for a in state.legal_actions()}
        assert set(codes) <= set(legal), "the board offers a move the mirrored game does not"
        if outcome == "won":
            action = bot.select_action(SeatView(state, 0))
        else:
            action = legal[codes[rng.randrange(len(codes))]]
        state.apply_action(action)
        return int(codec.encode(action))

    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    _play(page, choose)
    text = _results(page)
    margin = state.observation(0)["solo_result"]["margin"]
    if outcome == "won":
        assert state.returns() == [1.0]
        assert f"You beat ROB by {margin}" in text
        assert page.locator("#results.won").count() == 1
    else:
        assert state.returns() == [0.0]
        assert "ROB wins" in text and "You beat" not in text
        assert page.locator("#results .ranking li").first.inner_text().find("ROB") >= 0  # ROB ranked first
        assert page.locator("#results.lost").count() == 1
    page.close()


def _axe(page: Any, where: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    bad = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{where}: {bad}"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_serious_accessibility_violation(server: ServerProcess, browser: Any, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    _axe(page, "the lobby")
    _check_the_page(page, "the lobby")
    card = page.locator("#game-capital_lux_2")
    card.locator("summary").click()
    _check_the_page(page, "the lobby's form")
    card.locator("form.create button[type=submit]").click()
    page.wait_for_selector("ul.invites")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the invite page is too wide"
    _axe(page, "the invitations")
    table, tokens = new_table(server, "caprice", ["human", "bot:random"], seed=2)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}&lang={lang}")
    page.wait_for_selector("section.board.my-turn")
    _axe(page, "a table in play")
    page.goto(f"{server.url}/rules/caprice?table={table}&lang={lang}")
    _axe(page, "the rules")
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}&lang={lang}")
    rng = random.Random(1)
    _play(page, lambda codes: codes[rng.randrange(len(codes))])
    _axe(page, "the end screen")
    page.goto(f"{server.url}/tables/{table}/replay-view?lang={lang}")
    _axe(page, "the replay")
    context.close()
