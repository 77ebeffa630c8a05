"""Issue #43's "Done when", in Debian's Chromium against a running ``meeple serve``.

- A 4-player Citadels table against three bots, at the default speed: every move of the others between two of the
  player's decisions is shown on its own board with its own words in the prompt for at least 300 ms, in the log's
  order, and what those moves acted on stays marked until the player's next decision.
- Caprice: the tower marked after the bot's move is the one the piece went to (the server's event log says which).
- The server killed mid-turn at phone size (a real process, SIGKILL): the banner is inside the screen, no move can be
  played (a tap is refused with a word), and once a new process serves the same database the turn goes on.
- Tap, then tap: whole Caprice, Capitol and Capital Lux 2 games played by tapping a piece and then its destination,
  never more than one button per destination on the screen, the destinations marked.
- Undo in the browser, seen taken back by the other player; the first decision in view on load and later; the speed
  remembered, "Skip", and prefers-reduced-motion (nothing moves, the marks stay).

The page's swaps are recorded by a test-only init script (a MutationObserver): the page itself has no test hook.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meeple.core.records import replay
from meeple.core.state import State
from meeple.i18n import translator
from meeple.server.db import EventRow, make_engine
from meeple.server.undo import undo_count
from meeple.web.boards import display_name
from meeple.web.games import companion_for
from meeple.web.motion import sentence
from tests.server.helpers import ServerProcess, http_json, seed_where
from tests.web.conftest import need_chromium, new_table

need_chromium()

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
RECORD = """
window.shown = [];
function seen() {
  const s = document.querySelector('#board > section.board');
  if (!s) return;
  const p = document.getElementById('prompt');
  const marked = Array.from(document.querySelectorAll('#board .marked')).map(e => e.dataset.key).sort();
  const entry = {t: performance.now(), v: Number(s.dataset.version), playback: s.dataset.playback === '1',
    prompt: p ? p.textContent.trim().replace(/\\s+/g, ' ') : '', mine: s.classList.contains('my-turn'), marked: marked};
  const last = window.shown[window.shown.length - 1];
  if (!last || last.v !== entry.v || last.playback !== entry.playback || last.prompt !== entry.prompt ||
      last.mine !== entry.mine || String(last.marked) !== String(entry.marked)) window.shown.push(entry);
}
document.addEventListener('DOMContentLoaded', function () {
  seen();
  new MutationObserver(seen).observe(document.getElementById('board'),
    {childList: true, subtree: true, attributes: true, attributeFilter: ['class']});
});
"""
PACE = "localStorage.setItem('meeple-pace', '{ms}')"
COUNT = """
window.flights = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (f, o) { window.flights++; return animate.call(this, f, o); };
"""
ON_THE_BOARD = "section.board [data-action-code]:not(.moves *):not([aria-disabled=true]):visible"
SETTLED = "section.board.my-turn:not([aria-busy]):not([data-playback])"
PICKS = "section.board [data-pick]:visible"
IN_VIEW = """s => Array.from(document.querySelectorAll(s)).some(e => { const b = e.getBoundingClientRect();
    return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight; })"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("living")
    process = ServerProcess(f"sqlite:///{folder / 'web.db'}", log=folder / "server.log").start()
    yield process
    process.stop()


def _state(server: ServerProcess, table: str) -> State[Any]:
    """The table's state rebuilt from the server's event log (the test's own witness: undos applied)."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    engine = make_engine(server.db)
    try:
        with Session(engine) as s:
            events = list(s.scalars(select(EventRow).where(EventRow.table_id == table).order_by(EventRow.version)))
    finally:
        engine.dispose()
    actions: list[Any] = []
    for event in events:
        count = undo_count(event.action)
        actions = actions[:-count] if count else [*actions, event.action]
    info = http_json(f"{server.url}/api/tables/{table}")
    return replay(info["game"], info["params"], _SEEDS[table], actions)


_SEEDS: dict[str, int] = {}


def _table(server: ServerProcess, game: str, seats: list[str], seed: int) -> tuple[str, dict[int, str]]:
    table, tokens = new_table(server, game, seats, seed)
    _SEEDS[table] = seed
    return table, tokens


def _groups(state: State[Any], seat: int) -> list[tuple[int, int, list[tuple[int, Any]]]]:
    """The seat's log as moves: ``(end version, actor, lines)``, a numbered line with the events that follow it."""
    lines = state.history_messages(seat)
    events = {id(m) for _a, _s, m in state.log_events}
    out: list[tuple[int, int, list[tuple[int, Any]]]] = []
    for index, (actor, message) in enumerate(lines):
        if id(message) in events and out:
            out[-1][2].append((actor, message))
            out[-1] = (index + 1, out[-1][1], out[-1][2])
        else:
            out.append((index + 1, actor, [(actor, message)]))
    return out


def _decide(page: Any, rng: random.Random, avoid_undo: bool = True) -> int:
    """Wait for this seat's decision, settled (no move being played back); tap a random move on the board (a piece
    or card first where only those are on the board: tap, then tap)."""
    page.wait_for_selector(SETTLED, timeout=60000)
    version = int(page.locator("section.board").get_attribute("data-version"))
    moves, picks = page.locator(ON_THE_BOARD), page.locator(PICKS)
    if not moves.count() and picks.count():
        picks.nth(rng.randrange(picks.count())).click()
    moves.nth(rng.randrange(moves.count())).click()
    page.wait_for_function("v => Number(document.querySelector('section.board').dataset.version) > v", arg=version)
    return version


def test_every_opponent_move_is_shown_one_at_a_time_and_stays_marked(server: ServerProcess, browser: Any) -> None:
    seed = seed_where("citadels", 4, 2)
    table, tokens = _table(server, "citadels", ["human", "bot:random", "bot:random", "bot:random"], seed)
    context = browser.raw.new_context(viewport=PHONE)  # the default speed: nothing stored in the browser
    page = context.new_page()
    page.add_init_script(RECORD)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    assert page.locator("#pace").input_value() == "600"
    rng = random.Random(5)
    decisions, clicked = [], []
    marked_at_decision: list[list[str]] = []
    for _ in range(5):
        page.wait_for_selector(SETTLED, timeout=90000)
        marked_at_decision.append(page.locator("#board .marked").evaluate_all("es => es.map(e => e.dataset.key)"))
        clicked.append(page.evaluate("performance.now()"))
        decisions.append(_decide(page, rng))
    shown: list[dict[str, Any]] = page.evaluate("window.shown")
    for moment in clicked:  # the marks go once the player decides, before the next moves of the others come
        before = [e for e in shown if e["t"] < moment]
        after = [e for e in shown if e["t"] >= moment]
        assert not (before[-1]["marked"] if after[0]["playback"] else after[0]["marked"]), (before[-1:], after[:1])
    state = _state(server, table)
    web, reader = companion_for("citadels"), translator("en")
    names = lambda s: display_name(s, reader, 0)  # noqa: E731
    checked = 0
    for k in range(1, len(decisions)):
        between = [g for g in _groups(state, 0) if decisions[k - 1] + 1 < g[0] <= decisions[k] and g[1] != 0]
        frames = [e for e in shown if e["playback"] and decisions[k - 1] < e["v"] <= decisions[k]]
        assert [e["v"] for e in frames] == [g[0] for g in between], "each move of the others on its own board"
        union: set[str] = set()
        for (end, _actor, lines), entry in zip(between, frames, strict=True):
            words = " · ".join(sentence(web, a, m, names, reader) for a, m in lines)
            assert entry["prompt"] == words and words.startswith("Seat ")
            after = next(e for e in shown[shown.index(entry) + 1 :] if e["v"] != end or not e["playback"])
            assert after["t"] - entry["t"] >= 300, f"{words!r} was shown {after['t'] - entry['t']:.0f} ms"
            assert entry["marked"], f"{words!r} marked nothing"
            union.update(entry["marked"])
            checked += 1
        # what the others did stays marked on the board of the next decision (where the element is still drawn)
        present = set(marked_at_decision[k])
        if between:
            assert {key for key in union if key.startswith("seat-")} <= present, (union, present)
            assert present <= union, "only what the others' moves acted on is marked"
    assert checked >= 6, f"only {checked} moves of the others were seen between two decisions"
    context.close()


def test_the_marked_tower_is_the_one_the_piece_went_to(server: ServerProcess, browser: Any) -> None:
    table, tokens = _table(server, "caprice", ["human", "bot:random"], seed=12)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    rng = random.Random(2)
    checked, played = 0, False
    for _ in range(80):
        page.wait_for_selector(f"{SETTLED}, #results", timeout=60000)
        if page.locator("#results").count():
            break
        # the page settled on this seat's decision: the bot has moved and waits, so the log is still now
        towers = set(page.locator("#board .tower.marked").evaluate_all("es => es.map(e => e.dataset.space)"))
        state = _state(server, table)
        ours = max((i for i, (actor, _a) in enumerate(state.history) if actor == 0), default=-1)
        theirs = [a.to_json() for actor, a in state.history[ours + 1 :] if actor == 1]
        went = {a.get("target", a.get("space")) for a in theirs if a["type"] in ("move", "place")}
        if theirs and played and page.locator(SETTLED).count():  # moves made before the page loaded are not news
            assert towers == went, (towers, theirs)
            for a in theirs:
                if a["type"] == "move":
                    assert a["target"] in towers and (a["source"] not in towers or a["source"] in went)
                    checked += 1
        picks = page.locator("section.board [data-pick]:visible")
        moves = page.locator(ON_THE_BOARD)
        try:
            if picks.count():
                if not page.locator("section.board [data-pick].picked").count():
                    picks.nth(rng.randrange(picks.count())).click(timeout=3000)
                page.locator("section.board [data-for]:visible").first.click(timeout=3000)
            elif moves.count():
                moves.nth(rng.randrange(moves.count())).click(timeout=3000)
            played = True
        except Exception:  # noqa: BLE001 - the board changed under the tap: look again
            continue
        page.wait_for_timeout(150)
    assert checked >= 3, "the bot moved a piece too seldom to check"


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    view = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= view["height"] and box["height"] > 0


def test_a_killed_server_leaves_a_banner_in_view_an_inert_board_and_the_turn_resumes(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'web.db'}"
    first = ServerProcess(db, log=tmp_path / "a.log").start()
    table, tokens = _table(first, "citadels", ["human", "bot:random", "bot:random", "bot:random"], seed=4)
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{first.url}/tables/{table}?token={tokens[0]}")
        page.wait_for_selector(SETTLED, timeout=60000)
        page.wait_for_selector(".badge.mine .online", timeout=15000)  # this seat's badge follows its socket
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # a scrolled phone
        version = page.locator("section.board").get_attribute("data-version")
        first.kill()
        page.wait_for_selector("#connection.lost", timeout=15000)
        assert _in_view(page, "#connection"), "the banner is on the screen"
        assert "reconnecting" in page.locator("#connection").inner_text()
        assert page.locator(".badge.mine .offline").count() == 1
        assert "no move can be played" in page.locator(".turnbar .offline-note").inner_text()
        moves = page.locator("section.board [data-action-code]:not(.moves *)")
        assert moves.count() and all(
            m == "true" for m in moves.evaluate_all("es => es.map(e => e.getAttribute('aria-disabled'))")
        ), "no move is playable while the socket is down"
        moves.first.click(force=True)  # a tap during the outage: refused with a word, not dropped
        assert "not sent" in page.locator("#connection").inner_text()
        page.wait_for_timeout(500)
        assert page.locator("section.board").get_attribute("data-version") == version
        second = ServerProcess(db, port=first.port, log=tmp_path / "b.log").start()
        try:
            page.wait_for_selector("#connection:not(.lost)", timeout=30000)
            page.wait_for_function(
                "() => document.getElementById('connection').textContent.includes('up to date')", timeout=30000
            )
            assert _in_view(page, "#connection")
            page.wait_for_selector(SETTLED, timeout=30000)
            assert page.locator(".badge.mine .online").count() == 1
            _decide(page, random.Random(1))  # the turn goes on
            assert len(_state(second, table).history) > 0
        finally:
            second.stop()
    finally:
        first.stop()
        page.close()


def _tap_then_tap(page: Any, rng: random.Random, limit: float = 300) -> int:
    """Play to the end, a piece then its destination whenever a piece may be picked; return how many such moves."""
    deadline, taps = time.monotonic() + limit, 0
    while time.monotonic() < deadline:
        if page.locator("#results").count():
            return taps
        try:
            page.wait_for_selector(f"{SETTLED}, #results", timeout=30000)
        except Exception:  # noqa: BLE001 - a bot still thinking
            continue
        if page.locator("#results").count():
            return taps
        picks = page.locator("section.board [data-pick]:visible")
        keys = set(picks.evaluate_all("es => es.map(e => e.dataset.pick)"))
        if keys and rng.random() < 0.85:
            shown = page.locator("section.board [data-for]:visible")
            if len(keys) == 1:  # one piece to pick: it is picked already
                assert page.locator("section.board [data-pick].picked").count() == 1 and shown.count()
            else:
                assert shown.count() == 0, "the destinations show only once their piece is tapped"
                picks.nth(rng.randrange(picks.count())).click()
            places = shown.evaluate_all("es => es.map(e => e.closest('[data-key]').dataset.key)")
            assert places and len(places) == len(set(places)), f"one button per destination: {places}"
            marked = page.locator("section.board .destination").evaluate_all("es => es.map(e => e.dataset.key)")
            assert set(places) <= set(marked), "the destinations are marked"
            version = page.locator("section.board").get_attribute("data-version")
            shown.nth(rng.randrange(shown.count())).click()
            page.wait_for_function(
                "v => document.querySelector('section.board').dataset.version !== v", arg=version, timeout=30000
            )
            taps += 1
        else:
            moves = page.locator(ON_THE_BOARD)
            if moves.count():
                moves.nth(rng.randrange(moves.count())).click()
                page.wait_for_timeout(100)
    raise AssertionError("the game did not end in time")


@pytest.mark.parametrize(("game", "seats", "least"), [("caprice", 2, 8), ("capitol", 2, 2), ("capital_lux_2", 3, 6)])
def test_tap_then_tap_plays_a_whole_game(
    server: ServerProcess, browser: Any, game: str, seats: int, least: int
) -> None:
    table, tokens = _table(server, game, ["human"] + ["bot:random"] * (seats - 1), seed=9)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    taps = _tap_then_tap(page, random.Random(4))
    assert taps >= least, f"only {taps} moves were played by tapping a piece, then its destination"
    assert page.locator("#results .ranking li").count() == seats
    record = http_json(f"{server.url}/api/tables/{table}/record")
    assert [float(x) for x in page.locator("section.board").get_attribute("data-returns").split(",")] == (
        replay(record["game"], record["params"], record["seed"], record["actions"]).returns()
    )
    page.close()


def test_undo_in_the_browser_and_the_other_player_sees_it_taken_back(server: ServerProcess, browser: Any) -> None:
    table, tokens = _table(server, "caprice", ["human", "human"], seed=4)
    pages = []
    for seat in (0, 1):
        page = browser.new_page(viewport=DESKTOP)
        page.goto(f"{server.url}/tables/{table}?token={tokens[seat]}")
        pages.append(page)
    rng = random.Random(3)
    for _ in range(60):  # play until a seat stands at its move step: Undo takes its placement back
        for seat, page in enumerate(pages):
            if not page.locator(SETTLED).count():
                continue
            undo = page.get_by_role("button", name="Undo: take back your moves to your previous decision")
            if undo.count():
                before = _state(server, table)
                assert undo.is_visible() and undo.bounding_box()["height"] >= 43.5
                version = int(page.locator("section.board").get_attribute("data-version"))
                undo.click()
                page.wait_for_function(
                    "v => Number(document.querySelector('section.board').dataset.version) < v", arg=version
                )
                after = _state(server, table)
                assert after.history == before.history[:-1] and after.current_player() == seat
                assert page.locator(SETTLED).count() or page.wait_for_selector(SETTLED)
                assert page.locator(".tower-moves button.place").count(), "back at the placement"
                other = pages[1 - seat]
                other.wait_for_function(
                    "() => document.querySelector('#log-panel .log-lines').textContent.includes('took back a move')"
                )
                line = other.locator("#log-panel .log-lines li", has_text="took back a move").first
                assert f"Seat {seat + 1}" in line.text_content()
                for p in pages:
                    p.close()
                return
            moves = page.locator(ON_THE_BOARD)
            if moves.count():
                moves.nth(rng.randrange(moves.count())).click()
                page.wait_for_timeout(300)
        pages[0].wait_for_timeout(200)
    raise AssertionError("no seat was ever offered Undo")


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("game", ["citadels", "capital_lux_2"])
def test_the_first_decision_and_every_later_one_are_in_view(
    server: ServerProcess, browser: Any, game: str, size: str
) -> None:
    seats = ["human", "bot:random", "bot:random"]
    table, tokens = _table(server, game, seats, seed=seed_where(game, 3, 0))
    page = browser.new_page(viewport=PHONE if size == "phone" else DESKTOP)
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    rng = random.Random(6)
    for step in range(6):
        page.wait_for_selector(SETTLED, timeout=60000)
        page.wait_for_timeout(700)  # the smooth scroll ends
        board = "section.board [data-action-code]:not(.moves *), section.board [data-pick]"
        assert page.evaluate(IN_VIEW, board), f"{game} at {size}: decision {step} has no move on the screen"
        if not page.locator(ON_THE_BOARD).count():  # only cards to pick (tap, then tap): their destinations too
            page.locator(PICKS).nth(rng.randrange(page.locator(PICKS).count())).click()
            page.wait_for_timeout(700)
            assert page.evaluate(IN_VIEW, "section.board [data-for]"), f"{game}: no destination on the screen"
        _decide(page, rng)
    page.close()


def test_the_speed_is_remembered_skip_shows_the_board_now_and_reduced_motion_keeps_the_marks(
    server: ServerProcess, browser: Any
) -> None:
    seed = seed_where("citadels", 4, 3)
    table, tokens = _table(server, "citadels", ["human", "bot:random", "bot:random", "bot:random"], seed)
    context = browser.raw.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    page.add_init_script(
        RECORD + "window.flights = 0; const a = Element.prototype.animate;"
        "Element.prototype.animate = function (f, o) { window.flights++; return a.call(this, f, o); };"
    )
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    page.select_option("#pace", "1200")  # slow
    page.reload()
    assert page.locator("#pace").input_value() == "1200", "the speed is remembered in the browser"
    rng = random.Random(8)
    _decide(page, rng)
    page.wait_for_selector("section.board[data-playback]", timeout=60000)
    skip = page.get_by_role("button", name="Skip")
    skip.click()
    started = time.monotonic()
    page.wait_for_selector(f"{SETTLED}, section.board:not([data-playback])", timeout=30000)
    assert time.monotonic() - started < 1.2 * 3, "Skip shows the board now at once"
    page.wait_for_selector(SETTLED, timeout=60000)
    assert page.locator("#board .marked").count(), "the marks stay under prefers-reduced-motion"
    assert page.locator("#turn-summary li").count() >= 1
    assert page.evaluate("window.flights") == 0, "nothing moves under prefers-reduced-motion"
    context.close()


def test_write_the_living_table_screenshots(server: ServerProcess, browser: Any) -> None:
    """docs/screenshots/living-table-*.png: a phone mid-animation (a move of another player being played back, a
    piece in flight), the turn summary with the marks at a decision (phone and desktop). Written only when asked
    (``MEEPLE_SCREENSHOTS`` set), as the other screenshots."""
    if not os.environ.get("MEEPLE_SCREENSHOTS"):
        pytest.skip("MEEPLE_SCREENSHOTS=1 writes these screenshots")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    table, tokens = _table(server, "capital_lux_2", ["human", "bot:random", "bot:random"], seed=2)
    context = browser.raw.new_context(viewport=PHONE)
    page = context.new_page()
    page.add_init_script(PACE.format(ms=1200))
    page.goto(f"{server.url}/tables/{table}?token={tokens[0]}")
    rng = random.Random(1)
    for _ in range(12):
        _decide(page, rng)
        try:
            page.wait_for_function(
                "() => document.querySelector('section.board[data-playback]') && document.getAnimations()"
                ".some(a => a.playState === 'running' && a.effect && a.effect.target &&"
                " a.effect.target.closest('[data-piece]'))",
                timeout=8000,
                polling=20,
            )
        except Exception:  # noqa: BLE001 - no piece flew this time: try after the next decision
            continue
        page.screenshot(path=str(SCREENSHOTS / "living-table-phone-mid-animation.png"))
        break
    page.wait_for_selector(SETTLED, timeout=60000)
    page.evaluate("document.getElementById('turn-summary').open = true")
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENSHOTS / "living-table-phone-summary.png"))
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENSHOTS / "living-table-desktop-summary.png"))
    context.close()
