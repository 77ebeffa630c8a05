"""The lobby's "Play now" and "Join", names on the board, and the table's chat, in Debian's Chromium (issue #34).

Two browser contexts meet through "Play now", see each other's names (escaped), talk; a third joins a waiting
table from the lobby's list. The lobby remembers the name typed last (local storage).
"""

from __future__ import annotations

from typing import Any

from tests.server.helpers import ServerProcess, http_json
from tests.web.conftest import need_chromium

need_chromium()


def _play_now(context: Any, url: str, game: str, name: str, players: int) -> Any:
    page = context.new_page()
    page.goto(f"{url}/")
    card = page.locator(f"#game-{game} form.play-now")
    card.locator("input[name=name]").fill(name)
    card.locator("select[name=players]").select_option(str(players))
    card.locator("button[type=submit]").click()
    page.wait_for_url("**/tables/*")
    return page


def test_two_strangers_meet_by_play_now_see_their_names_and_chat(server: ServerProcess, browser: Any) -> None:
    first, second = browser.new_context(), browser.new_context()
    ann = _play_now(first, server.url, "caprice", "<b>Ann</b>", 2)
    table = ann.url.rsplit("/tables/", 1)[1].split("?")[0]
    assert http_json(f"{server.url}/api/tables/{table}")["status"] == "waiting"
    bob = _play_now(second, server.url, "caprice", "Bob", 2)
    assert bob.url.rsplit("/tables/", 1)[1].split("?")[0] == table  # the two requests met at one table
    for page in (ann, bob):
        page.locator(".seats .badge").first.wait_for()
        page.wait_for_function("document.querySelectorAll('.seats .badge').length === 2")
    badges = bob.locator(".seats .badge strong").all_text_contents()
    assert badges == ["<b>Ann</b>", "Bob (you)"]  # a name is text, never markup
    assert bob.locator(".seats .badge b").count() == 0
    bob.locator("#chat-form input[name=text]").fill("gl <i>hf</i>")
    bob.locator("#chat-form button").click()
    line = ann.locator("#chat-lines li").first
    line.wait_for()
    assert line.text_content() == "Bob gl <i>hf</i>" and ann.locator("#chat-lines i").count() == 0
    lobby = first.new_page()
    lobby.goto(f"{server.url}/")
    assert lobby.locator("#game-citadels input[name=name]").input_value() == "<b>Ann</b>"  # remembered
    for context in (first, second):
        context.close()


def test_a_third_person_joins_a_waiting_table_from_the_lobby(server: ServerProcess, browser: Any) -> None:
    answer = http_json(f"{server.url}/api/tables", {"game": "citadels", "seats": ["human", "open", "bot:random"]})
    table = answer["table"]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/")
    entry = page.locator("ul.tables li", has=page.locator(f"a[href='/tables/{table}']"))
    assert "waiting for players" in entry.text_content()
    entry.locator("input[name=name]").fill("Cleo")
    entry.locator("button[type=submit]").click()
    page.wait_for_url(f"**/tables/{table}*")
    page.wait_for_function("document.querySelector('section.board').dataset.status === 'live'")
    assert "Cleo (you)" in page.locator(".seats").text_content()
    assert http_json(f"{server.url}/api/tables/{table}")["seats"][1]["name"] == "Cleo"
    context.close()
