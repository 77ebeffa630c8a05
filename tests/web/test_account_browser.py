"""The account pages of issue #44 in Debian's Chromium: axe-core finds no serious violation on forgot, reset, verify,
the account's settings and the report form, in English and French, at phone (390 px) and desktop sizes; their
screenshots go to docs/screenshots (``account-<page>-<lang>-<size>.png``). A real ``meeple serve --smtp`` process
mails the links.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import ServerProcess
from tests.server.mail import Inbox, smtp_server
from tests.web.conftest import need_chromium

need_chromium()

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _shot(page: Any, path: str, full_page: bool = True) -> None:
    """A screenshot for docs/screenshots, written only when asked (``MEEPLE_SCREENSHOTS`` set), as the others are."""
    if os.environ.get("MEEPLE_SCREENSHOTS"):
        page.screenshot(path=path, full_page=full_page)


ALWAYS = {"heading-order", "empty-heading", "page-has-heading-one", "landmark-unique"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def mailed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Inbox]]:
    folder = tmp_path_factory.mktemp("accounts")
    with smtp_server() as (inbox, port):
        process = ServerProcess(
            f"sqlite:///{folder / 'web.db'}",
            log=folder / "server.log",
            workers=0,
            options=("--no-rate-limits", "--smtp", f"smtp://127.0.0.1:{port}", "--mail-from", "games@example.org"),
        )
        process.options += ("--public-url", process.url)
        process.start()
        yield process, inbox
        process.stop()


def _axe(page: Any, where: str) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{where}: {v['id']} ({v['impact']}) {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical") or v["id"] in ALWAYS
    ]


def _token(inbox: Inbox, count: int, kind: str) -> str:
    (token,) = re.findall(rf"/{kind}/([A-Za-z0-9_-]+)", inbox.wait(count)[count - 1].get_content())
    return token


def test_the_account_pages_pass_axe_in_both_languages_at_both_sizes(mailed_server: Any, browser: Any) -> None:
    server, inbox = mailed_server
    with httpx.Client(base_url=server.url) as ann:
        body = {"username": "ann", "password": PASSWORD, "email": "ann@example.org"}
        assert ann.post("/api/accounts", json=body).status_code == 201
        verify = _token(inbox, 1, "verify")
        session = ann.cookies["meeple_session"]
    context = browser.new_context(viewport=SIZES["desktop"], bypass_csp=True)  # axe-core is injected as a script
    try:
        page = context.new_page()
        found: list[str] = []
        for lang in ("en", "fr"):
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                for name, path in (("forgot", "/forgot"), ("verify", f"/verify/{verify}")):
                    page.goto(f"{server.url}{path}?lang={lang}")
                    page.wait_for_selector("h1")
                    found += _axe(page, f"{name} ({lang}, {size})")
                    _shot(page, path=str(SHOTS / f"account-{name}-{lang}-{size}.png"), full_page=True)
        with httpx.Client(base_url=server.url) as ann:  # the address confirmed: a reset link can go to it
            assert ann.post(f"/api/verification/{verify}").status_code == 200
            assert ann.post("/api/password-reset", json={"username": "ann"}).status_code == 202
        page.goto(f"{server.url}/forgot?lang=fr")
        page.fill("input[name=who]", "nobody")
        page.click("button[type=submit]")
        page.wait_for_selector("[role=status]")
        found += _axe(page, "forgot, sent (fr)")
        page.set_viewport_size(SIZES["phone"])
        _shot(page, path=str(SHOTS / "account-forgot-sent-fr-phone.png"), full_page=True)
        context.add_cookies([{"name": "meeple_session", "value": session, "url": server.url}])
        for lang in ("en", "fr"):
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                page.goto(f"{server.url}/me/account?lang={lang}")
                page.wait_for_selector("h1")
                found += _axe(page, f"settings ({lang}, {size})")
                _shot(page, path=str(SHOTS / f"account-settings-{lang}-{size}.png"), full_page=True)
        with httpx.Client(base_url=server.url) as other:
            body = {"username": "mallory", "password": PASSWORD}
            assert other.post("/api/accounts", json=body).status_code == 201
        for lang in ("en", "fr"):
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                page.goto(f"{server.url}/players/mallory/report?lang={lang}")
                page.wait_for_selector("h1")
                found += _axe(page, f"report ({lang}, {size})")
                _shot(page, path=str(SHOTS / f"account-report-{lang}-{size}.png"), full_page=True)
        page.fill("textarea[name=reason]", "spam in the chat")
        page.click("button[type=submit]")
        page.wait_for_selector("[role=status]")
        found += _axe(page, "report, sent (fr, phone)")
        reset = _token(inbox, 2, "reset")  # last: the reset logs the session out
        for lang in ("en", "fr"):
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                page.goto(f"{server.url}/reset/{reset}?lang={lang}")
                page.wait_for_selector("h1")
                found += _axe(page, f"reset ({lang}, {size})")
                _shot(page, path=str(SHOTS / f"account-reset-{lang}-{size}.png"), full_page=True)
        page.fill("input[name=password]", "purple monkey dishwasher")
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(r"/players/ann"))
        assert page.locator("h1").inner_text() == "ann"
        assert found == []
    finally:
        context.close()
