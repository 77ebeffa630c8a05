"""The pages as HTTP answers of a running ``meeple serve``: human words, gzip, the rules page, the replay, CSP-ready.

Issue #33: labels of variants and bot levels in words (both languages), game titles in the tab title, gzip on HTML
and JSON, ``/rules/<game>`` with the variants in force at a table, a replay that opens at the end with the full view
as one board, and no inline script, style or event handler anywhere (issue #32's Content-Security-Policy).
"""

from __future__ import annotations

import gzip
import http.cookiejar
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from meeple.core.registry import game_class, registered_games
from tests.server.helpers import ServerProcess, http_json
from tests.web.conftest import new_table

SHIPPED = [g for g in registered_games() if game_class(g).__module__.startswith("meeple.games.")]
"""The games the server process knows (another test module may have registered a toy game in this process)."""
RAW = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\bTrue\b|\bFalse\b|\(#\d+\)|\bbot:\w+")
INLINE = re.compile(r"<script>|<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+=|\sstyle=|<style", re.IGNORECASE)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("pages")
    process = ServerProcess(f"sqlite:///{folder / 'pages.db'}", log=folder / "server.log").start()
    yield process
    process.stop()


JAR = http.cookiejar.CookieJar()
BROWSER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(JAR))
"""Keeps the seat's cookie an invite link sets (the link answers 303 to the page without its token)."""


def _get(url: str, gzip_ok: bool = False) -> tuple[str, dict[str, str], int]:
    """GET ``url`` (cookies kept): the text (decompressed), the headers, the bytes as sent."""
    headers = {"Accept-Encoding": "gzip"} if gzip_ok else {}
    if "lang=" not in url:  # English unless asked: the language cookie of an earlier page must not decide
        url += ("&" if "?" in url else "?") + "lang=en"
    with BROWSER.open(urllib.request.Request(url, headers=headers), timeout=30) as answer:
        body = answer.read()
        found = {k.lower(): v for k, v in answer.headers.items()}
    text = gzip.decompress(body) if found.get("content-encoding") == "gzip" else body
    return text.decode(), found, len(body)


def _visible(html: str) -> str:
    """The page's text without tags, attributes, the script and the hidden form values."""
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_lobby_names_every_variant_and_level_in_words(server: ServerProcess, lang: str) -> None:
    html, _, _ = _get(f"{server.url}/?lang={lang}")
    text = _visible(html)
    assert not RAW.findall(text), RAW.findall(text)[:5]
    assert not INLINE.search(html)
    if lang == "fr":
        assert "Partie rapide" in text and "bot (moyen)" in text and "Place 1" in text
    else:
        assert "Quick game" in text and "bot (medium)" in text and "Seat 1" in text and "Seat 0" not in text


def test_table_pages_are_titled_by_their_game_compressed_and_inline_free(server: ServerProcess) -> None:
    table, tokens = new_table(server, "capitol", ["human", "bot:random", "bot:random"], seed=3)
    html, headers, sent = _get(f"{server.url}/tables/{table}?token={tokens[0]}", gzip_ok=True)
    assert headers.get("content-encoding") == "gzip" and sent < len(html.encode()) / 2
    assert re.search(r"<title>Capitol — Seat 1 · meeple</title>", html)
    assert table not in html.split("<title>")[1].split("</title>")[0]
    assert not INLINE.search(html)
    assert "token=" not in html  # the seat is the page's cookie
    board, headers, _ = _get(f"{server.url}/tables/{table}/board", gzip_ok=True)
    assert headers.get("content-encoding") == "gzip"
    assert 'id="prompt"' in board and f'href="/rules/capitol?table={table}"' in board and "Seat 1 (you)" in board
    _, headers, _ = _get(f"{server.url}/api/tables/{table}", gzip_ok=True)
    assert headers.get("content-encoding") == "gzip"  # JSON too


@pytest.mark.parametrize("game", SHIPPED)
def test_the_rules_page_gives_the_summary_and_the_variants_in_force(server: ServerProcess, game: str) -> None:
    html, _, _ = _get(f"{server.url}/rules/{game}?lang=fr")
    text = _visible(html)
    assert "Règles" in text and not RAW.findall(text), RAW.findall(text)[:5]
    assert not INLINE.search(html)
    if game == "citadels":
        seats = ["human", "bot:random", "bot:random"]
        body = {"game": game, "params": {"players": 3, "quick_game": "7"}, "seats": seats, "seed": 1}
        table = http_json(f"{server.url}/api/tables", body)["table"]
        html, _, _ = _get(f"{server.url}/rules/citadels?table={table}")
        assert "Variants at this table" in html and "7 districts" in html
        assert "Assassin: names a character" in html  # the characters' abilities (also the tooltips)


def test_the_rules_page_refuses_unknown_games_and_tables(server: ServerProcess) -> None:
    for path in ("/rules/chess", "/rules/citadels?table=nope", "/games/chess/style.css"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.url}{path}", timeout=30)
        assert refused.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.url}/rules/citadels?table={'x' * 65}", timeout=30)
    assert refused.value.code == 422


def test_each_game_has_its_own_stylesheet(server: ServerProcess) -> None:
    for game in SHIPPED:
        css, headers, _ = _get(f"{server.url}/games/{game}/style.css")
        assert headers["content-type"].startswith("text/css") and f".board-{game}" in css


def test_the_replay_opens_at_the_end_with_one_board_and_each_seats_secrets(server: ServerProcess) -> None:
    body = {"game": "caprice", "params": {"players": 2}, "seats": ["bot:random", "bot:random"], "seed": 4}
    table = http_json(f"{server.url}/api/tables", body)["table"]
    for _ in range(300):
        if http_json(f"{server.url}/api/tables/{table}")["status"] == "finished":
            break
        time.sleep(0.1)
    html, _, _ = _get(f"{server.url}/tables/{table}/replay-view")
    total = re.search(r'data-total="(\d+)"', html)
    assert total and f'value="{total.group(1)}" id="replay-step"' in html  # at the end
    assert html.count('<section class="board') == 1  # one board, not one per seat
    assert html.count("<h3>Seat ") == 2 and "Symbols: " in html  # each seat's secrets under its heading
    assert 'id="results"' in html
    assert not INLINE.search(html)
    start, _, _ = _get(f"{server.url}/tables/{table}/replay-view?version=0&seat=1")
    assert 'value="0" id="replay-step"' in start and "<h3>Seat " not in start
    # the slider's "Move n" is the log's line n: step 5 shows "5/total" and a log of 5 numbered lines
    fifth, _, _ = _get(f"{server.url}/tables/{table}/replay-view?step=5&seat=0")
    assert re.search(r">5/\d+</output>", fifth)
    assert re.search(r"Log \(5 moves\)", fifth) and 'class="latest"' in fifth
    assert max(int(n) for n in re.findall(r'move-number">(\d+)\.', fifth)) == 5
    for name in ("version", "step"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{server.url}/tables/{table}/replay-view?{name}={'9' * 13}", timeout=30)
        assert refused.value.code == 422
