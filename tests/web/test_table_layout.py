"""The table's layout in Debian's Chromium (issue #43 items 2, 4 and 8), on boards rendered from real states.

Each board is the fragment the server sends (``render_board``), set into a page with the project's own stylesheets
and scripts (no server needed: what is measured is the drawing). Checked, for every game:

- the side panel: on a desktop (1366 px) the players and the log on the right of the table and in view, on a phone
  (390 px) a bar with every seat that opens onto the same panel;
- seat colours: a seat has one colour on its badge, its chip, its log lines, its pieces and its results row, every
  colour with its seat's number beside it, and two seats never share one;
- Capital Lux 2 as a table: cards drawn as cards (value, colour letter, power icon), each City four columns with
  their sums, the Capital four stacks under the power tiles, the hand one row, every card a stable ``data-piece``;
- no word broken inside ("Battlefiel d") at 360 px and on a desktop, in English and French;
- the end tables inside a 360 px screen, their Total visible.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.i18n import translator
from meeple.web.render import render_board
from tests.web.conftest import need_chromium

need_chromium()

WEB = Path(__file__).resolve().parents[2] / "src" / "meeple" / "web"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 740}


def page_of(game: str, fragment: str, lang: str = "en") -> str:
    """A table page around a board fragment, its stylesheets inline (the layout is what is measured)."""
    css = (WEB / "static" / "style.css").read_text() + (WEB / "games" / game / "style.css").read_text()
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>t</title><style>{css}</style></head><body><main><h1>t</h1>"
        f'<div id="board">{fragment}</div></main></body></html>'
    )


def played(game: str, players: int, seed: int, steps: int | None = None) -> Any:
    """A state of ``game`` after ``steps`` random moves (None: to the end)."""
    state = load_game(game, players=players).new_initial_state(seed)
    rng = Rng(seed)
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        done += 1
    return state


def board(state: Any, seat: int | None, lang: str = "en") -> str:
    return render_board(state, seat, state.history_messages(-3 if seat is None else seat), translator(lang))


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP)
    found = context.new_page()
    yield found
    context.close()


def show(page: Any, game: str, fragment: str, lang: str = "en", size: dict[str, int] = DESKTOP) -> None:
    page.set_viewport_size(size)
    page.set_content(page_of(game, fragment, lang))
    page.add_script_tag(content=(WEB / "static" / "panel.js").read_text())


TABLES = [("citadels", 4), ("capitol", 3), ("capital_lux_2", 3), ("caprice", 2)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_players_and_the_log_are_a_panel_beside_the_table_on_a_desktop(page: Any, game: str, players: int) -> None:
    state = played(game, players, seed=3, steps=12)
    show(page, game, board(state, state.current_player()))
    panel = page.locator(".side-panel").bounding_box()
    table = page.locator(".play-area").bounding_box()
    bar = page.locator(".turnbar").bounding_box()
    assert panel["x"] >= table["x"] + table["width"] - 1, "the panel is not on the right of the table"
    assert panel["y"] < 400 and panel["x"] + panel["width"] <= DESKTOP["width"], "the panel is not in view"
    assert bar["x"] + bar["width"] <= panel["x"] + 1, "the turn bar runs under the panel"
    assert not page.locator(".panel-toggle").is_visible()  # a desktop needs no bar: the panel is open
    badges = page.locator(".side-panel .badge")
    assert badges.count() == players and all(badges.nth(s).is_visible() for s in range(players))
    assert page.locator(".side-panel .log-lines li").first.is_visible()
    for s in range(players):  # every player: name, score where the game shows one, its colour swatch
        badge = badges.nth(s)
        assert badge.locator(".swatch").inner_text() == str(s + 1)
        if game != "caprice":
            assert re.search(r"\d+ points?", badge.inner_text()), badge.inner_text()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the panel stays in view (sticky)
    box = page.locator(".side-panel").bounding_box()
    assert box["y"] >= -1 and box["y"] < DESKTOP["height"] / 2


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_on_a_phone_the_players_are_a_bar_that_opens_onto_the_panel(page: Any, game: str, players: int) -> None:
    state = played(game, players, seed=3, steps=12)
    show(page, game, board(state, state.current_player()), size=PHONE)
    toggle = page.locator(".panel-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert toggle.bounding_box()["height"] >= 43.5
    chips = toggle.locator(".chip")
    assert chips.count() == players  # every seat in the bar, closed
    assert not page.locator(".side-panel .badge").first.is_visible()
    assert page.locator(".side-panel").bounding_box()["y"] < page.locator(".play-area").bounding_box()["y"]
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator(".side-panel .badge").first.is_visible()
    assert page.locator(".side-panel .log-lines").is_visible()
    # a new board after a move keeps the panel as the player left it (panel.js follows the swap)
    page.evaluate("html => { document.getElementById('board').innerHTML = html; }", board(state, None))
    page.wait_for_function("document.querySelector('.side-panel').classList.contains('open')")
    page.locator(".panel-toggle").click()
    assert not page.locator(".side-panel .badge").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _seat_colours(page: Any) -> dict[str, list[tuple[str, str, str]]]:
    """Every element of a seat (``seat-cN``) with its computed --seat colour and the number shown beside it."""
    found: dict[str, list[tuple[str, str, str]]] = page.evaluate(
        """() => {
          const out = {};
          document.querySelectorAll('[class*="seat-c"]').forEach(e => {
            const seat = (e.className.match(/\\bseat-c(\\d+)\\b/) || [])[1];
            if (seat === undefined) return;
            const colour = getComputedStyle(e).getPropertyValue('--seat').trim();
            const swatch = e.querySelector('.swatch, .owner');
            const where = e.closest('.side-panel .badge') ? 'badge' : e.closest('.chip') ? 'chip'
              : e.closest('.log-lines') ? 'log' : e.closest('#results') ? 'results' : 'board';
            (out[seat] = out[seat] || []).push([colour, where, swatch ? swatch.textContent.trim() : '']);
          });
          return out;
        }"""
    )
    return found


@pytest.mark.parametrize(("game", "players"), [("citadels", 7), ("capitol", 4), ("capital_lux_2", 4), ("caprice", 4)])
def test_a_seat_has_one_colour_everywhere_and_its_number_beside_it(page: Any, game: str, players: int) -> None:
    state = played(game, players, seed=5)  # the end: badges, chips, log, pieces and results
    show(page, game, board(state, 0))
    found = _seat_colours(page)
    assert sorted(found) == [str(s) for s in range(players)]
    colours = {}
    for seat, items in found.items():
        assert len({colour for colour, _where, _n in items}) == 1, (seat, items)
        places = {where for _c, where, _n in items}
        assert {"badge", "chip", "log", "results"} <= places, (seat, places)
        for _colour, where, number in items:
            if where in ("badge", "chip", "results"):
                assert number == str(int(seat) + 1), (seat, where, number)  # never the colour alone
        colours[seat] = items[0][0]
    assert len(set(colours.values())) == players, colours
    if game == "capitol":  # the buildings in their owner's colour, its number under each
        assert page.locator(".zone .bldg[class*=seat-c]").count() > 0
    ratios = page.evaluate(
        """() => Array.from(document.querySelectorAll('.swatch')).map(e => {
          const rgb = s => s.match(/\\d+/g).slice(0, 3).map(Number).map(v => v / 255)
            .map(c => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
          const lum = s => { const [r, g, b] = rgb(s); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
          const st = getComputedStyle(e), a = lum(st.color), b = lum(st.backgroundColor);
          return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        })"""
    )
    assert min(ratios) >= 4.5, min(ratios)  # the number on its colour reads as text


def test_capital_lux_2_is_drawn_as_a_table_of_cards(page: Any) -> None:
    for steps in (8, 30, 60):
        state = played("capital_lux_2", 3, seed=2, steps=steps)
        seat = state.current_player()
        obs = state.observation(seat)
        show(page, "capital_lux_2", board(state, seat))
        cards = page.locator("section.board .lux[data-piece]")
        pieces = cards.evaluate_all("es => es.map(e => e.dataset.piece)")
        assert len(pieces) == len(set(pieces)), "a card drawn twice"
        for card in cards.all()[:12]:  # a card: its value, its colour's letter, its power's icon
            assert card.locator(".value").inner_text().isdigit()
            assert card.locator(".letter").inner_text() in "BPYG"
            assert card.locator("svg.power use").count() == 1
            box = card.bounding_box()
            assert box["height"] > box["width"] * 1.2  # upright, as a card
        for owner, city in enumerate(obs["cities"]):  # four columns with their sums
            columns = page.locator(f'.city[data-seat="{owner}"] .column')
            assert columns.count() == 4
            for d in range(4):
                assert columns.nth(d).locator(".sum").inner_text().split()[-1] == str(city["totals"][d])
                shown = columns.nth(d).locator(".lux").evaluate_all("es => es.map(e => e.dataset.piece)")
                assert shown == [f"c{c['id']}" for c in city["districts"][d]]
                tops = [b["y"] for b in (c.bounding_box() for c in columns.nth(d).locator(".lux").all())]
                assert tops == sorted(tops)  # fanned down the column
        districts = page.locator(".capital .district4")
        assert districts.count() == 4
        for d in range(4):  # a stack under its power tile
            district = districts.nth(d)
            tile, stack = district.locator(".tile").bounding_box(), district.locator(".fan").bounding_box()
            assert stack["y"] >= tile["y"] + tile["height"] - 1
            shown = district.locator(".fan .lux").evaluate_all("es => es.map(e => e.dataset.piece)")
            assert shown == [f"c{c['id']}" for c in obs["capital"][d]["cards"]]
        hand = page.locator(".hand-row .hand-card .lux")
        assert hand.count() == len(obs.get("hand") or [])
        if hand.count() > 1:  # one row on a desktop
            assert len({round(c.bounding_box()["y"]) for c in hand.all()}) == 1


def test_capital_lux_2_cards_keep_their_identity_from_one_board_to_the_next() -> None:
    """``data-piece`` is the card's id: the same card is the same key before and after a move (for marks)."""
    state = played("capital_lux_2", 3, seed=4, steps=20)
    rng = Rng(9)
    for _ in range(15):
        if state.is_terminal():
            break
        before = board(state, None)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        after = board(state, None)
        keys = re.findall(r'data-piece="(c\d+)" data-kind="(\d-\d+)"', before + after)
        kinds: dict[str, str] = {}
        for key, kind in keys:
            assert kinds.setdefault(key, kind) == kind, key  # one key, one card


WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('section.board'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !parent.getClientRects().length || parent.closest('.visually-hidden, .sprite, title')) continue;
    const text = node.textContent;
    for (const match of text.matchAll(/[^\\s\\u202f\\u00a0\\-–—/·,;:()]+/gu)) {
      if (match[0].length < 4) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("game", "players"), [("citadels", 5), ("capitol", 4), ("capital_lux_2", 4), ("caprice", 3)])
def test_no_word_is_broken_inside_on_a_phone_or_a_desktop(page: Any, game: str, players: int, lang: str) -> None:
    """ "Battlefiel d": a card's or a character's name is never cut in the middle (issue #43 item 8)."""
    broken: set[str] = set()
    for seed, steps in ((1, 25), (2, 60), (3, None)):
        state = played(game, players, seed=seed, steps=steps)
        for seat in (0, 1):
            fragment = board(state, seat, lang)
            for size in (SMALL, DESKTOP):
                show(page, game, fragment, lang, size)
                broken.update(page.evaluate(WORDS))
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= size["width"], f"{game} {lang}: {wide} px wide on a {size['width']} px screen"
    assert not broken, sorted(broken)[:12]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    ("game", "players"),
    [("citadels", 7), ("citadels", 4), ("capitol", 4), ("capital_lux_2", 4), ("capital_lux_2", 1), ("caprice", 4)],
)
def test_the_end_tables_fit_a_360_px_screen_with_their_total(page: Any, game: str, players: int, lang: str) -> None:
    state = played(game, players, seed=3)
    show(page, game, board(state, 0, lang), lang, SMALL)
    _fits_with_its_total(page)


LONG_NAMES = ["Maximiliana-Wolkenstein", "Bartholomew_the_Great", "Anne-Charlotte Delacroix", "Wolfeschlegelsteinhaus"]
"""Names players may choose (24 characters at most, issue #41 item 18), one word or several."""


@pytest.mark.parametrize(("game", "players"), [("citadels", 4), ("capitol", 4), ("capital_lux_2", 4), ("caprice", 4)])
def test_the_end_tables_fit_a_360_px_screen_with_long_chosen_names(page: Any, game: str, players: int) -> None:
    state = played(game, players, seed=3)
    fragment = render_board(state, 0, state.history_messages(0), translator("fr"), None, LONG_NAMES[:players])
    show(page, game, fragment, "fr", SMALL)
    assert "Bartholomew_the_Great" in page.locator("#results").inner_text()
    _fits_with_its_total(page)


def _fits_with_its_total(page: Any) -> None:
    """No sideways scroll, every breakdown inside the screen, each Total row's cells too."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
    tables = page.locator("#results table.breakdown")
    assert tables.count() >= 1
    for table in tables.all():
        scroller = table.locator("xpath=..")
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth"), "the table scrolls sideways"
        cells = table.locator("th, td").evaluate_all("es => es.map(e => e.getBoundingClientRect().right)")
        assert max(cells) <= SMALL["width"], max(cells)
    total = "Total"
    totals = page.locator("#results table.breakdown th", has_text=re.compile(rf"^{total}$"))
    assert totals.count() >= 1
    for cell in totals.all():
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= SMALL["width"]
        row = cell.locator("xpath=..")
        values = row.locator("td").evaluate_all("es => es.map(e => e.getBoundingClientRect().right)")
        assert values and max(values) <= SMALL["width"]  # the totals themselves on the screen


def test_the_seat_form_shows_as_many_seats_as_players(page: Any, tmp_path: Path) -> None:
    """The lobby's "Create a table" lists the seats of the chosen player count, not the game's maximum (7 seats for a
    4-player Citadels table); a stylesheet rule, so it needs no script."""
    from fastapi.testclient import TestClient

    from meeple.core.registry import game_class
    from meeple.server.app import ServerConfig
    from meeple.web import create_web_app

    with TestClient(create_web_app(ServerConfig(db=f"sqlite:///{tmp_path / 'w.db'}", bot_workers=0))) as client:
        lobby = client.get("/?lang=en").text
    css = (WEB / "static" / "style.css").read_text()
    page.set_viewport_size(PHONE)
    page.set_content(lobby.replace('<link rel="stylesheet" href="/static/style.css">', f"<style>{css}</style>"))
    for game in ("citadels", "capitol", "capital_lux_2", "caprice"):
        cls = game_class(game)
        card = page.locator(f"#game-{game}")
        card.locator("details summary").click()
        count = card.locator("form.create select[name=param_players]")
        seats = card.locator("form.create label:has(select[name^=seat_])")
        assert seats.count() == cls.max_players
        default = int(count.input_value())
        assert sum(s.is_visible() for s in seats.all()) == default, game
        for n in range(cls.min_players, cls.max_players + 1):
            count.select_option(str(n))
            visible = [s.is_visible() for s in seats.all()]
            assert visible == [True] * n + [False] * (cls.max_players - n), (game, n, visible)
