"""The browser tests' shared pieces: a running ``meeple serve`` and Debian's Chromium driven by Playwright.

Playwright's own browser download is not used: ``executable_path`` points at the system Chromium (``.ci/run``
installs it). Without it the browser tests are skipped, except under CI where they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import ServerProcess, http_json

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def need_chromium() -> Any:
    """The Playwright sync API, or a skip (a failure under CI) when Chromium or Playwright is missing."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            raise RuntimeError("Chromium is missing: .ci/run installs Debian's chromium package for the browser tests")
        pytest.skip("no Chromium on this machine (apt-get install chromium)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("web")
    process = ServerProcess(f"sqlite:///{folder / 'web.db'}", log=folder / "server.log").start()
    yield process
    process.stop()


INSTANT = "try { if (!localStorage.getItem('meeple-pace')) localStorage.setItem('meeple-pace', '0'); } catch (e) {}"
"""The pages of the tests show the others' moves at once (issue #43's speed setting "at once"), unless a test sets
another speed (tests/web/test_living_table.py): playing every bot's move back at 0.6 s would make whole games slow."""


class Browser:
    """Chromium whose new pages and contexts start with :data:`INSTANT` (``.raw``: the browser itself)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def new_context(self, **options: Any) -> Any:
        context = self.raw.new_context(**options)
        context.add_init_script(INSTANT)
        return context

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def close(self) -> None:
        self.raw.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = need_chromium()
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
        )
        yield Browser(launched)
        launched.close()


def new_table(server: ServerProcess, game: str, seats: list[str], seed: int) -> tuple[str, dict[int, str]]:
    """Create a seeded table through the API; return its id and each human seat's token."""
    body = {"game": game, "params": {"players": len(seats)}, "seats": seats, "seed": seed}
    answer = http_json(f"{server.url}/api/tables", body)
    return answer["table"], {s["seat"]: s["token"] for s in answer["seats"]}
