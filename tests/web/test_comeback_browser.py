"""Issue #44's browser test, in Debian's Chromium: a rematch accepted from the end screen, an invitation taken.

Two people play a rated Caprice game to the end; one offers a rematch from the end screen, the other sees the offer
come (the ``rematch`` message) and accepts it there, and the rematch starts. A third person, invited by name from the
lobby's "Create a table" form, takes the reserved seat of the new table from "My tables". On the way, axe-core checks
the new screens (the end screen with the offer, "My tables" with the invitation, a profile's block button, the lobby
form with ``?invite=``) in English and French, at phone and desktop size; with ``MEEPLE_SCREENSHOTS=1`` they are
written to docs/screenshots (``comeback-<screen>-<phone|desktop>-<en|fr>.png``).
"""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path
from typing import Any

from tests.server.helpers import ServerProcess, http_json
from tests.web.conftest import need_chromium
from tests.web.test_for_people import _axe
from tests.web.test_people_browser import _play_both_to_the_end, _rated_play_now, _sign_up

need_chromium()

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _every_way(page: Any, url: str, where: str, ready: str, opened: str | None = None) -> None:
    """axe on ``url`` in both languages at both sizes (``ready``: a selector the screen shows); screenshots if asked.

    ``opened``: a ``<summary>`` to click first (a folded form).
    """
    for lang in ("en", "fr"):
        page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
        page.wait_for_selector(ready)
        if opened is not None:
            page.locator(opened).click()
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            page.wait_for_timeout(150)
            _axe(page, f"{where} ({lang}, {size})")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{where} ({lang}, {size}) is {width} px wide"
            if os.environ.get("MEEPLE_SCREENSHOTS"):
                target = SHOTS / f"comeback-{where}-{size}-{lang}.png"
                page.screenshot(path=str(target), full_page=size == "phone")
                with contextlib.suppress(ImportError):
                    from PIL import Image

                    with Image.open(target) as image:
                        image.convert("RGB").quantize(colors=64).save(target, optimize=True)
    page.set_viewport_size(SIZES["desktop"])


def _table_of(page: Any) -> str:
    return str(page.url.rsplit("/tables/", 1)[1].split("?")[0])


def test_a_rematch_from_the_end_screen_and_an_invitation_taken_from_my_tables(
    server: ServerProcess, browser: Any
) -> None:
    suffix = uuid.uuid4().hex[:6]
    names = [f"ann_{suffix}", f"bob_{suffix}", f"cid_{suffix}"]
    contexts = [browser.new_context(viewport=SIZES["desktop"], bypass_csp=True) for _ in names]
    pages = [_sign_up(c, server.url, n) for c, n in zip(contexts, names, strict=True)]
    ann, bob, cid = pages
    for page in (ann, bob):
        _rated_play_now(page, server.url, "caprice", 2)
    table = _table_of(ann)
    assert _table_of(bob) == table
    _play_both_to_the_end([ann, bob])
    offer = ann.locator("#endgame form[action*='/rematch'] button")
    offer.wait_for()
    offer.click()  # "Rematch": Ann goes to the rematch's page, waiting for Bob
    ann.wait_for_url("**/tables/*")
    rematch = _table_of(ann)
    assert rematch != table and http_json(f"{server.url}/api/tables/{rematch}")["status"] == "waiting"
    told = bob.locator("#endgame", has_text=f"{names[0]} offers a rematch.")
    told.wait_for()  # Bob, still on the end screen, is told at once (the rematch message)
    assert f"Waiting for: {names[1]}." in told.text_content()
    _every_way(bob, f"{server.url}/tables/{table}", "end-screen-rematch-offered", "#endgame .rematch form")
    bob.locator("#endgame form[action*='/rematch'] button").click()  # "Accept the rematch"
    bob.wait_for_url(f"**/tables/{rematch}*")
    for page in (ann, bob):
        page.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
    seats = http_json(f"{server.url}/api/tables/{rematch}")["seats"]
    assert [s["account"] for s in seats] == [names[1], names[0]]  # rotated: Bob moves first now
    _every_way(ann, f"{server.url}/tables/{rematch}", "table-resign", "#endgame details.resign")
    # Ann invites Cid by name from the lobby's form (a friend's "Invite to a table" link fills it: ?invite=)
    _every_way(
        ann, f"{server.url}/?invite={names[2]}", "lobby-invite", ".invite-note", "#game-caprice details > summary"
    )
    ann.goto(f"{server.url}/?invite={names[2]}&lang=en")
    card = ann.locator("#game-caprice")
    card.locator("details > summary").click()
    form = card.locator("form.create")
    form.locator("select[name=param_players]").select_option("2")
    assert form.locator("select[name=seat_1]").is_visible() and form.locator("input[name=invite_1]").is_visible()
    assert not form.locator("input[name=invite_0]").is_visible()  # shown only for a seat that invites
    assert form.locator("select[name=seat_1]").input_value() == "invite"
    assert form.locator("input[name=invite_1]").input_value() == names[2]
    form.locator("button[type=submit]").click()
    invited = ann.locator("a.watch-link").get_attribute("href").rsplit("/tables/", 1)[1]
    assert http_json(f"{server.url}/api/tables/{invited}")["seats"][1]["invited"] == names[2]
    _every_way(cid, f"{server.url}/me/tables", "my-tables-invitation", "li.my-table form[action*='/decline']")
    cid.goto(f"{server.url}/me/tables?lang=en")
    entry = cid.locator("li.my-table", has=cid.locator(f"a[href^='/tables/{invited}']"))
    assert "You are invited" in entry.text_content()
    entry.locator("form[action*='/join'] button").click()  # "Take the seat"
    cid.wait_for_url(f"**/tables/{invited}*")
    cid.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
    assert http_json(f"{server.url}/api/tables/{invited}")["seats"][1]["account"] == names[2]
    _every_way(ann, f"{server.url}/players/{names[2]}", "profile-block", "section.block form button")
    for context in contexts:
        context.close()
