from __future__ import annotations

import io

from rich.console import Console

from meeple.cli.render import render_generic, renderer_for


def text_of(renderable: object) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=100).print(renderable)
    return buffer.getvalue()


def test_generic_renderer_shows_every_key() -> None:
    obs = {"gold": 3, "hand": ["Temple", "Market"], "players": [{"city": ["Castle"], "gold": 2}], "x": None, "e": {}}
    out = text_of(render_generic(obs, 1))
    assert "Seat 1's view" in out
    assert "gold: 3" in out and "hand: [Temple, Market]" in out and "city: [Castle]" in out
    assert "x: -" in out and "e: {}" in out
    assert "Public view" in text_of(render_generic({}, None))


def test_long_lists_are_broken_into_lines() -> None:
    out = text_of(render_generic({"deck": list(range(40))}, None))
    assert "39" in out


def test_renderer_for_falls_back_to_the_generic_renderer() -> None:
    renderer = renderer_for("toy_auction")
    assert renderer.generic and renderer.parse_input is None
    assert renderer_for("not-an-identifier").generic
