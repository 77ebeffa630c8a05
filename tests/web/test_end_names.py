"""The end screen names players, not seats (issue #41, item 18): "Ann wins", not "Seat 2 wins".

Wherever a seat has a chosen name it stands for the seat: the web end screen (headline, ranking, the game's breakdown
tables), the board's seat headings, the replay, and the terminal client's end; in English and French, on every game.
A seat without a name stays "Seat N".
"""

from __future__ import annotations

import html
import io
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.i18n import translator
from meeple.web.render import render_board

GAMES = [
    ("citadels", 3),
    ("citadels", 5),
    ("capitol", 2),
    ("capitol", 4),
    ("capital_lux_2", 2),
    ("capital_lux_2", 4),
    ("caprice", 2),
    ("caprice", 4),
]
NAMES = ["Ann", "Bob & <Co>", "Chloé", "Dmitri", "Eve"]


def _finished(game: str, players: int, seed: int = 3) -> Any:
    state = load_game(game, players=players).new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def _results(fragment: str) -> str:
    start = fragment.index('<section id="results"')
    return fragment[start : fragment.index("</section>", start)]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


@pytest.mark.parametrize(("game", "players"), GAMES)
@pytest.mark.parametrize(("lang", "wins", "you"), [("en", "wins", "(you)"), ("fr", "gagne", "(vous)")])
def test_the_end_screen_names_the_players(game: str, players: int, lang: str, wins: str, you: str) -> None:
    state = _finished(game, players)
    names: list[str | None] = [*NAMES[: players - 1], None]  # the last seat chose no name
    reader = translator(lang)
    for seat in (None, 0):
        fragment = render_board(state, seat, state.history_messages(-3 if seat is None else seat), reader, None, names)
        results = _results(fragment)
        text = _text(results)
        ranked = re.findall(r'<span class="name">([^<]*)</span>', results)
        expected = {html.escape(n) for n in names[:-1]} | {reader.gettext("Seat {number}").format(number=players)}
        if seat == 0:
            expected = (expected - {html.escape(NAMES[0])}) | {f"{html.escape(NAMES[0])} {you}"}
        assert set(ranked) == expected, ranked
        headline = _text(re.search(r"<h2[^>]*>(.*?)</h2>", results, re.S)[1]).strip()  # type: ignore[index]
        winners = [s for s, r in enumerate(state.returns()) if r == max(state.returns()) and r > 0]
        if winners == [seat]:
            assert headline == {"en": "You win", "fr": "Vous gagnez"}[lang], headline
        elif len(winners) == 1 and winners[0] < players - 1:
            assert headline.startswith(NAMES[winners[0]]) and wins in headline, headline
        assert not re.search(r"(Seat|Place) [1-4]\b", headline) or winners[-1:] == [players - 1], headline
        for name in names[:-1]:
            assert name in text  # the breakdown tables' rows or columns too
        assert "<Co>" not in fragment  # escaped, as everywhere


def test_a_solo_capital_lux_2_end_names_the_player_and_rob() -> None:
    state = _finished("capital_lux_2", 1)
    fragment = render_board(state, 0, state.history_messages(0), translator("en"), None, ["Ann", None])
    ranked = re.findall(r'<span class="name">([^<]*)</span>', _results(fragment))
    assert set(ranked) == {"Ann (you)", "ROB"}


def test_the_table_page_and_the_replay_name_the_players(tmp_path: Any) -> None:
    from meeple.server.app import ServerConfig
    from meeple.web import create_web_app
    from tests.server.conftest import OPEN
    from tests.server.helpers import create, next_of, play_to_end

    config = ServerConfig(db=f"sqlite:///{tmp_path / 'n.db'}", bot_workers=0, allow_seed=True, **OPEN)
    with TestClient(create_web_app(config)) as client:
        seats = [{"player": "human", "name": "Ann"}, {"player": "human", "name": "Bob"}]
        table, tokens = create(client, "caprice", seats, seed=2)
        with (
            client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[0]}") as ann,
            client.websocket_connect(f"/api/tables/{table}/ws?token={tokens[1]}") as bob,
        ):
            import threading

            other = threading.Thread(target=play_to_end, args=(bob, next_of(bob)))
            other.start()
            play_to_end(ann, next_of(ann))
            other.join(60)
        returns = client.get(f"/api/tables/{table}").json()["returns"]
        winner = ["Ann", "Bob"][returns.index(max(returns))] if returns.count(max(returns)) == 1 else None
        for lang, wins in (("en", "wins"), ("fr", "gagne")):
            page = client.get(f"/tables/{table}?lang={lang}").text
            headline = _text(re.search(r'<h2 id="results-title">(.*?)</h2>', page, re.S)[1]).strip()  # type: ignore[index]
            assert "Seat" not in headline and "Place" not in headline
            if winner is not None:
                assert headline == f"{winner} {wins}"
            replay = client.get(f"/tables/{table}/replay-view?lang={lang}").text
            assert "Ann" in _text(_results(replay)) and "Bob" in _text(_results(replay))
            assert re.search(r"<option[^>]*>[^<]*Ann", replay), "the replay's seat choice names the players"


def test_the_terminal_end_names_the_winner() -> None:
    from rich.console import Console

    from meeple.cli.online import OnlineSession
    from tests.server.test_people import _caprice_frames, _Socket

    for lang, winner_line, you_line in (("en", "Bob wins", "You win"), ("fr", "Bob gagne", "Vous gagnez")):
        from meeple.i18n import language

        with language(lang):
            for returns, expected in (([0.0, 1.0], winner_line), ([1.0, 0.0], you_line)):
                hello, state, final = _caprice_frames(legal_for_me=False)
                final = {**final, "returns": returns}
                out = io.StringIO()
                socket = _Socket([hello, state, final])
                session = OnlineSession(Console(file=out, width=200, color_system=None), lambda _p: "quit", socket)
                assert session.run() == 0
                text = out.getvalue()
                assert expected in text, text
                assert "Ann" in text and "Bob" in text


# ---------------------------------------------------------------------------------------------- in a real browser
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def test_the_end_screen_in_a_browser_names_the_players_at_both_sizes(tmp_path: Any) -> None:
    """A finished Citadels table of Ann, Chloé and a bot, opened by Chloé's invite link at 390 px and 1280 px, in
    English and French: the headline and ranking name the players; nothing scrolls sideways at phone size.

    ``MEEPLE_SCREENSHOTS=1`` (or ``en,fr``) also writes ``docs/screenshots/end-names-<phone|desktop>-<en|fr>.png``.
    """
    import os
    from pathlib import Path

    from tests.server.helpers import RandomSeat, ServerProcess, http_json
    from tests.web.conftest import CHROMIUM, need_chromium

    sync_api = need_chromium()
    asked = {x.strip() for x in os.environ.get("MEEPLE_SCREENSHOTS", "").split(",") if x.strip()}
    shots = {"en" if x == "1" else x for x in asked}
    folder = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    server = ServerProcess(f"sqlite:///{tmp_path / 'web.db'}", log=tmp_path / "server.log").start()
    try:
        seats = [{"player": "human", "name": "Ann"}, {"player": "human", "name": "Chloé"}, "bot:random"]
        body = {"game": "citadels", "params": {"players": 3}, "seats": seats, "seed": 5}
        created = http_json(f"{server.url}/api/tables", body)
        table, tokens = created["table"], {s["seat"]: s["token"] for s in created["seats"]}
        players = [RandomSeat(server.url, table, tokens[s], seed=s) for s in (0, 1)]
        for player in players:
            player.start()
        for player in players:
            player.join(300)
            assert player.finished.is_set()
        returns = http_json(f"{server.url}/api/tables/{table}")["returns"]
        names = ["Ann", "Chloé", None]
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for lang, wins, seat_word in (("en", "wins", "Seat"), ("fr", "gagne", "Place")):
                page = browser.new_page(viewport=SIZES["phone"])
                page.goto(f"{server.url}/tables/{table}?token={tokens[1]}&lang={lang}")  # Chloé's page
                headline = page.locator("#results-title").inner_text()
                best = [s for s, r in enumerate(returns) if r == max(returns)]
                if best == [1]:
                    assert headline == {"en": "You win", "fr": "Vous gagnez"}[lang], headline
                elif len(best) == 1 and names[best[0]]:
                    assert headline == f"{names[best[0]]} {wins}", headline
                ranking = page.locator("#results .ranking .name").all_inner_texts()
                assert {"Ann", f"{seat_word} 3"} <= set(ranking) and any(r.startswith("Chloé") for r in ranking)
                for size, viewport in SIZES.items():
                    page.set_viewport_size(viewport)
                    page.locator("#results").scroll_into_view_if_needed()
                    page.wait_for_timeout(300)
                    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), size
                    if lang in shots:
                        path = folder / f"end-names-{size}-{lang}.png"
                        page.screenshot(path=str(path))
                        from PIL import Image

                        with Image.open(path) as image:
                            image.convert("RGB").quantize(colors=64).save(path, optimize=True)
                page.close()
            browser.close()
    finally:
        server.stop()
