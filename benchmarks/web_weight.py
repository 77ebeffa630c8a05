"""What a table page costs per move: bytes on the wire per refresh and the time from a tap to the new board.

    python benchmarks/web_weight.py                       # this checkout's src/
    python benchmarks/web_weight.py --src ../main/src      # another tree (e.g. before a change), same measure
    python benchmarks/web_weight.py --src ../main/src --src src --rounds 2   # both, alternated, one browser

A real ``meeple serve`` (sqlite) and Debian's Chromium at phone size (390x844): one human seat against random bots
in each game (seed 5), ``--moves`` taps on the board. Per refresh: the bytes of the board fetches as sent (gzip
counted when the server compresses) and of the WebSocket frames received; the board fetches of the first page load
are counted apart (a second fetch of the board the page already holds shows up there). Tap to board: from the click
to the new ``data-version`` in the page (milliseconds, median and 90th percentile), and how long the board fetch
itself took (the browser's request timing: what a board carried in the frame would save at most), and how long
app.js took to swap the board in (its ``meeple:swap`` User Timing measure: keep panels, mark changes, animate).
Two shared cores here: compare the trees' numbers from one run (``--src`` twice, ``--rounds`` alternating them),
as ratios.

Issue #33 (item 9, "Lighter").
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.helpers import free_port, http_json, wait_for_server  # noqa: E402

GAMES = {"citadels": 3, "capitol": 3, "capital_lux_2": 3, "caprice": 2}


def measure(url: str, browser: Any, game: str, players: int, moves: int, pace: int = 0) -> dict[str, float]:
    """Play ``moves`` taps of one game; return its bytes per refresh and tap-to-board times.

    ``pace``: the page's speed for the others' moves (issue #43), ms each; 0 shows them at once.
    """
    seats = ["human"] + ["bot:random"] * (players - 1)
    answer = http_json(f"{url}/api/tables", {"game": game, "params": {"players": players}, "seats": seats, "seed": 5})
    table, token = answer["table"], answer["seats"][0]["token"]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    fetched: list[int] = []
    fetch_ms: list[float] = []
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(len(data))))

    def on_finished(request: Any) -> None:
        if "/board" in request.url:
            fetched.append(int(request.sizes()["responseBodySize"]))
            timing = request.timing
            fetch_ms.append(timing["responseEnd"] - timing["requestStart"])

    page.on("requestfinished", on_finished)
    page.add_init_script(f"localStorage.setItem('meeple-pace', '{pace}')")  # the others' moves' speed (issue #43)
    page.goto(f"{url}/tables/{table}?token={token}")
    page.wait_for_timeout(1500)
    first_load = len(fetched)
    fetched.clear()
    fetch_ms.clear()
    frames.clear()
    times: list[float] = []
    for _ in range(moves):
        board = "section.board [data-action-code]:not(.moves *):not([aria-disabled=true]):visible"
        pick = "section.board.my-turn [data-pick]:visible"
        page.wait_for_selector(f"section.board.my-turn {board.split(' ', 1)[1]}, {pick}", timeout=30000)
        if page.locator("section.board[data-returns]").count():
            break
        if not page.locator(board).count():  # tap, then tap (issue #43): the piece first, then its destination
            page.locator(pick).first.click()
        before = page.locator("section.board").get_attribute("data-version")
        target = page.locator(board).first
        try:
            target.scroll_into_view_if_needed(timeout=3000)
            start = time.perf_counter()
            target.click(timeout=3000)
        except Exception:  # noqa: BLE001 - a bot's move redrew the board first: look again
            continue
        page.wait_for_function(
            "v => { const b = document.querySelector('section.board'); return b && b.dataset.version !== v; }",
            arg=before,
            timeout=30000,
        )
        times.append((time.perf_counter() - start) * 1000)
        page.wait_for_timeout(300)
    page.wait_for_timeout(800)
    swaps = page.evaluate("performance.getEntriesByName('meeple:swap').map(e => e.duration)")
    page.close()
    refreshes = max(1, len(fetched))
    return {
        "first_load_board_fetches": first_load,
        "refreshes": len(fetched),
        "board_bytes_per_refresh": sum(fetched) / refreshes,
        "frame_bytes_per_refresh": sum(frames) / refreshes,
        "tap_to_board_ms_median": statistics.median(times) if times else float("nan"),
        "tap_to_board_ms_p90": sorted(times)[int(0.9 * (len(times) - 1))] if times else float("nan"),
        "board_fetch_ms_median": statistics.median(fetch_ms) if fetch_ms else float("nan"),
        "swap_ms_median": statistics.median(swaps) if swaps else float("nan"),
        "swap_ms_p90": sorted(swaps)[int(0.9 * (len(swaps) - 1))] if swaps else float("nan"),
    }


def main() -> None:
    """Measure every game served from each ``--src`` in turn (``--rounds`` times); print one line per game and tree."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", action="append", help="a source tree to serve (repeatable; default: this one)")
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=1, help="how many times each tree is measured, alternated")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only these games (repeatable)")
    parser.add_argument("--pace", type=int, default=0, help="ms per move of the others played back (0: at once)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = shutil.which("chromium") or "/usr/bin/chromium"
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for _ in range(args.rounds):
            for src in args.src or [str(ROOT / "src")]:
                serve_and_measure(browser, src, args.moves, args.game or list(GAMES), args.pace)
        browser.close()


def serve_and_measure(browser: Any, src: str, moves: int, games: list[str], pace: int = 0) -> None:
    """Start a server from the tree ``src``, measure every game, print one line per game."""
    port = free_port()
    folder = Path(tempfile.mkdtemp())
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve()), "MEEPLE_SKIP_COMPILED": "1"}
    command = [sys.executable, "-m", "meeple", "serve", "--port", str(port), "--db", f"sqlite:///{folder / 'w.db'}"]
    server = subprocess.Popen(command + ["--allow-seed"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for_server(url)
        for game in games:
            found = measure(url, browser, game, GAMES[game], moves, pace)
            print(src, game, " ".join(f"{k}={v:.1f}" for k, v in found.items()), flush=True)
    finally:
        server.terminate()
        server.wait(15)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
