"""The browser client in a real browser: Debian's Chromium driven by Playwright against a running ``meeple serve``.

The server and browser fixtures are in ``tests/web/conftest.py``.
"""

from __future__ import annotations

import json
import os
import random
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from meeple.core.records import GameRecord
from meeple.server.hub import SLIM_FIELDS
from tests.server.helpers import ServerProcess, http_json
from tests.web.conftest import need_chromium, new_table

sync_api = need_chromium()

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _table(server: ServerProcess, game: str, seats: list[str], seed: int) -> tuple[str, dict[int, str]]:
    return new_table(server, game, seats, seed)


ON_THE_BOARD = (
    "section.board [data-action-code]:not([aria-disabled=true]):not(.moves *):visible,"
    " section.board [data-pick]:not([aria-disabled=true]):visible"
)
"""The legal moves drawn on the board itself (the move list under it, a fallback, is left closed), and the pieces to
tap before their destination (issue #43: tap, then tap)."""


def _click(locator: Any) -> None:
    """Click a move that was on the board when counted: a bot's move may redraw the board first (then skip it)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.click(timeout=3000)
    except PlaywrightTimeout:
        pass


def _play_to_the_end(page: Any, limit: float = 240) -> list[float]:
    """Click random legal moves on the board (never the list) until the game ends; return the page's returns."""
    rng = random.Random(7)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        board = page.locator("section.board")
        returns = board.get_attribute("data-returns") if board.count() else None
        if returns:
            return [float(r) for r in returns.split(",")]
        moves = page.locator(ON_THE_BOARD)
        count = moves.count()
        if count:
            _click(moves.nth(rng.randrange(count)))
        page.wait_for_timeout(30)
    raise AssertionError("the game did not end in time")


@pytest.mark.parametrize("game", ["citadels", "capitol", "capital_lux_2", "caprice"])
def test_a_whole_game_through_the_page_ends_as_the_record_replays(
    server: ServerProcess, browser: Any, game: str
) -> None:
    table, tokens = _table(server, game, ["human", "bot:random", "bot:random"], seed=21)
    page = browser.new_page()
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}&lang=fr")
    assert page.locator("html").get_attribute("lang") == "fr"
    shown = _play_to_the_end(page)
    record = GameRecord.from_json(http_json(f"{server.url}/api/tables/{table}/record"))
    assert shown == record.replay().returns()
    page.goto(f"{server.url}/tables/{table}/replay-view?version=3&seat=0")
    assert page.locator(".replay-board section.board").count() == 1
    page.close()


def test_two_seats_see_only_their_own_hand_and_a_reload_keeps_the_seat(server: ServerProcess, browser: Any) -> None:
    table, tokens = _table(server, "citadels", ["human", "human", "bot:random", "bot:random"], seed=5)
    pages, frames = [], {0: [], 1: []}
    for seat in (0, 1):
        context = browser.new_context()
        page = context.new_page()
        page.on("websocket", lambda ws, s=seat: ws.on("framereceived", lambda data: frames[s].append(data)))
        page.goto(f"{server.url}/tables/{table}?token={tokens[seat]}")
        pages.append(page)
    for _ in range(12):  # a few moves by whoever is to move
        for page in pages:
            moves = page.locator(ON_THE_BOARD)
            if moves.count():
                _click(moves.first)
                page.wait_for_timeout(200)
    deadline = time.monotonic() + 30  # let the bots finish: then only a human's click changes the table
    while not any(p.locator("section.board .moves").count() for p in pages):
        assert time.monotonic() < deadline, "no human seat got the turn"
        pages[0].wait_for_timeout(100)
    pages[0].wait_for_timeout(500)  # both pages' last board fetches have landed
    for seat, page in enumerate(pages):
        assert page.locator(".me").inner_text().startswith(f"Seat {seat + 1} ")
        assert page.locator("section.hand").count() == 1  # its own hand, no other
        states = [m for m in map(json.loads, frames[seat]) if m["type"] == "state"]
        assert states
        for message in states:  # the page's frames are slim (?view=web): its seat, no observation, no card
            assert message["seat"] == seat and set(message) == set(SLIM_FIELDS), message
        before = page.locator("section.board").get_attribute("data-version")
        page.reload()
        page.wait_for_selector("section.board")
        assert page.locator(".me").inner_text().startswith(f"Seat {seat + 1} ")
        assert page.locator("section.board").get_attribute("data-version") == before
    # each page's hand section holds as many cards as its seat's hand, and no page shows the other seat's hand
    hands = [sorted(p.locator("section.hand .district").all_inner_texts()) for p in pages]
    own = [http_json(f"{server.url}/api/tables/{table}")["observation"]["seats"][s]["hand_size"] for s in (0, 1)]
    assert [len(h) for h in hands] == own
    # a game in progress has no replay yet: its replay page would show every hand
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.url}/tables/{table}/replay-view?version=1", timeout=30)
    assert refused.value.code == 409


def test_the_lobby_creates_a_table_and_shows_the_invitations(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page(extra_http_headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    page.goto(f"{server.url}/")
    assert page.locator("html").get_attribute("lang") == "fr"
    card = page.locator("#game-caprice")
    card.locator("summary").click()
    card.locator("form.create button[type=submit]").click()
    links = page.locator("ul.invites input")
    assert links.count() == 1  # seat 0 human, the others bots
    invite = links.first.input_value()
    page.goto(f"{server.url}/")  # the lobby lists the table but none of its keys
    token = invite.rsplit("token=", 1)[1]
    assert invite.split("/tables/")[1].split("?")[0] in page.content() and token not in page.content()
    page.goto(invite)
    assert page.locator("section.board").count() == 1
    page.close()


SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _shoot(page: Any, game: str, stage: str, lang: str = "en") -> None:
    """The viewport saved as small PNGs (a 64-colour palette when Pillow is there): English at both sizes, as
    ``<game>-<size>-<stage>.png``; another language at phone size only, as ``<game>-<lang>-phone-<stage>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, size in SIZES.items():
        if lang != "en" and name != "phone":
            continue
        page.set_viewport_size(size)
        page.wait_for_timeout(300)
        # no piece caught in flight (a bot's move may have just redrawn the board)
        page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')", timeout=5000)
        path = SCREENSHOTS / (f"{game}-{name}-{stage}.png" if lang == "en" else f"{game}-{lang}-{name}-{stage}.png")
        page.screenshot(path=str(path))
        try:
            from PIL import Image
        except ImportError:
            continue
        with Image.open(path) as image:
            image.convert("RGB").quantize(colors=64).save(path, optimize=True)


def _screenshot_languages() -> set[str]:
    """The languages ``MEEPLE_SCREENSHOTS`` asks for: ``1`` (or ``en``) English, ``fr`` French, ``en,fr`` both."""
    asked = {x.strip() for x in os.environ.get("MEEPLE_SCREENSHOTS", "").split(",") if x.strip()}
    return {"en" if x == "1" else x for x in asked}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", ["citadels", "capitol", "capital_lux_2", "caprice"])
def test_write_the_screenshots(server: ServerProcess, browser: Any, game: str, lang: str) -> None:
    """docs/screenshots/<game>[-fr]-<desktop|phone>-<start|middle|end>.png: one table at both sizes (French: phone).

    Written only when asked: ``MEEPLE_SCREENSHOTS=1`` (English), ``=fr``, ``=en,fr``.
    """
    if lang not in _screenshot_languages():
        pytest.skip(f"MEEPLE_SCREENSHOTS={lang} (or a list holding it) writes these screenshots")
    seats = ["human", "bot:random", "bot:random"] if game != "caprice" else ["human", "bot:random"]
    table, tokens = _table(server, game, seats, seed=8)
    page = browser.new_page(viewport=SIZES["phone"])
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}&lang={lang}")
    assert page.locator("html").get_attribute("lang") == lang
    _shoot(page, game, "start", lang)
    rng = random.Random(7)
    for _ in range(10 if game != "caprice" else 6):
        moves = page.locator(ON_THE_BOARD)
        if moves.count():
            _click(moves.nth(rng.randrange(moves.count())))
            page.wait_for_timeout(400)
    page.evaluate("window.scrollTo(0, 0)")
    _shoot(page, game, "middle", lang)
    _play_to_the_end(page)
    page.wait_for_timeout(500)
    page.locator("#results").scroll_into_view_if_needed()
    assert page.locator("html").get_attribute("lang") == lang
    _shoot(page, game, "end", lang)
    page.close()


def test_a_move_lost_with_its_connection_is_sent_again_with_its_move_id(browser: Any, tmp_path: Path) -> None:
    """The browser's duties (docs/server.md): it keeps its move until the ack and resends it after reconnecting."""
    import re

    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from meeple.server.db import EventRow, make_engine
    from tests.server.helpers import seed_where

    db = f"sqlite:///{tmp_path / 'web.db'}"
    own = ServerProcess(db, log=tmp_path / "server.log").start()
    page = browser.new_page()
    try:
        table, tokens = _table(own, "caprice", ["human", "bot:random"], seed_where("caprice", 2, 0))
        dropped: list[dict[str, Any]] = []
        opened: list[Any] = []

        def route(ws: Any) -> None:
            opened.append(ws)
            upstream = ws.connect_to_server()
            first = len(opened) == 1

            def from_page(message: str | bytes) -> None:
                data = json.loads(message)
                if first and data.get("type") == "move" and not dropped:
                    dropped.append(data)  # the move never reaches the server: the connection breaks
                    upstream.close()
                    ws.close(code=4000, reason="network lost")
                else:
                    upstream.send(message)

            ws.on_message(from_page)
            upstream.on_message(lambda message: ws.send(message))

        page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), route)
        page.goto(f"{own.url}/tables/{table}?token={tokens[0]}")
        page.locator(ON_THE_BOARD).first.click()
        engine = make_engine(db)
        deadline = time.monotonic() + 30
        count = 0
        while time.monotonic() < deadline and count == 0:
            page.wait_for_timeout(200)
            if dropped:
                with Session(engine) as session:
                    wanted = EventRow.move_id == dropped[0]["move_id"]
                    count = session.scalar(select(func.count()).where(EventRow.table_id == table, wanted)) or 0
        engine.dispose()
        assert dropped and len(opened) >= 2, "the page did not reconnect"
        assert count == 1, "the move was not sent again after the reconnection (or was applied twice)"
    finally:
        page.close()
        own.stop()


def test_the_replay_slider_and_the_log_count_the_same_moves(server: ServerProcess, browser: Any) -> None:
    """Issue #33 items 5 and 8: the slider's "Move n/N" is the last numbered line of the log shown, key after key."""
    body = {"game": "capitol", "params": {"players": 2}, "seats": ["bot:random", "bot:random"], "seed": 4}
    table = http_json(f"{server.url}/api/tables", body)["table"]
    deadline = time.monotonic() + 60
    while http_json(f"{server.url}/api/tables/{table}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    page = browser.new_page()
    page.goto(f"{server.url}/tables/{table}/replay-view?seat=0")

    def shown() -> tuple[int, int, int]:
        step, total = (int(x) for x in page.locator("form.replay output").inner_text().split("/"))
        numbers = page.locator(".replay-board .log-lines .move-number").all_text_contents()  # a folded panel
        return step, total, max(int(n.rstrip(".")) for n in numbers if n.strip())

    step, total, last = shown()
    assert step == total == last  # it opens at the end
    for key, expected in (("ArrowLeft", total - 1), ("ArrowLeft", total - 2), ("Home", 0), ("ArrowRight", 1)):
        page.keyboard.press(key)
        page.wait_for_function(
            "n => document.querySelector('form.replay output').textContent.startsWith(n + '/')", arg=expected
        )
        if expected:
            assert shown()[::2] == (expected, expected), key
    page.close()
