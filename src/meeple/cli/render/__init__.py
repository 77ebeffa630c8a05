"""Terminal renderers: how the command line draws an observation.

The renderer protocol
---------------------
A game names its renderer module in its ``GameSpec.renderer`` (the built-in games: ``meeple/cli/render/<game>.py``).
That module defines:

``render(obs: <the game's observation TypedDict>, seat: int | None) -> rich.console.RenderableType``
    Draw ``obs``, which is ``state.observation(seat)`` (``seat`` is ``None`` for the public/spectator view and at
    the final reveal). It must use the observation dict ONLY, never a ``State``: whatever it shows is by construction
    what that seat may know. It should not list the legal moves: the command line numbers and prints them itself
    (``state.action_to_string(action, perspective=seat)`` texts), together with the recent actions of the others.

``parse_input(text: str, legal_texts: list[str]) -> list[str] | None`` (optional)
    Expand one typed line into one or several action texts, e.g. a bid typed as ``"3 5 7"`` expanded into the
    successive action texts of a multi-step bid. ``legal_texts`` are the texts of the legal moves now (in menu
    order). Return ``None`` when the hook does not apply, and the CLI falls back to its own matching (menu
    number, case-insensitive text, unique prefix). The returned texts are applied in order, each matched
    (case-insensitively) against the texts legal at that moment, all by the same seat; the whole line is checked
    on a copy of the game first, so a bad line changes nothing.

Games without a module get :func:`render_generic`, a readable tree of the observation dict.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text
from rich.tree import Tree

from meeple.core.errors import MeepleError
from meeple.core.registry import game_spec

RenderFn = Callable[[Mapping[str, Any], int | None], RenderableType]
"""``render(obs, seat)``: draws an observation."""
ParseFn = Callable[[str, list[str]], list[str] | None]
"""``parse_input(text, legal_texts)``: expands a typed line into action texts, or ``None``."""


class InputProblem(ValueError):
    """Raised by a ``parse_input`` hook for a line it understands but cannot play as typed (an ambiguous card).

    The message, in the current language, says why and what to type instead.
    """


_INLINE_LIMIT = 60


@dataclass(frozen=True)
class Renderer:
    """The rendering hooks of one game.

    Attributes:
        game: the registry name of the game.
        render: draws an observation (the game's own, or :func:`render_generic`).
        parse_input: the game's input hook, or ``None``.
        generic: True when the game has no renderer module.
        shortcuts: the English msgid listing every short form ``parse_input`` accepts (``help`` shows it), or "".
    """

    game: str
    render: RenderFn
    parse_input: ParseFn | None = None
    generic: bool = False
    shortcuts: str = ""


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _inline(value: Any) -> str | None:
    """Return a one-line text for scalars and short flat lists, else ``None``."""
    if _is_scalar(value):
        return "-" if value is None else str(value)
    if isinstance(value, (list, tuple)) and all(_is_scalar(v) for v in value):
        text = "[" + ", ".join("-" if v is None else str(v) for v in value) + "]"
        return text if len(text) <= _INLINE_LIMIT else None
    if isinstance(value, Mapping) and not value:
        return "{}"
    return None


def _add(tree: Tree, label: str, value: Any) -> None:
    text = _inline(value)
    if text is not None:
        line = Text()
        line.append(label, style="bold")
        line.append(": ")
        line.append(text)
        tree.add(line)
        return
    branch = tree.add(Text(label, style="bold"))
    if isinstance(value, Mapping):
        for key, item in value.items():
            _add(branch, str(key), item)
    elif isinstance(value, (list, tuple)):
        if all(_is_scalar(v) for v in value):
            branch.add(Pretty(list(value)))
        else:
            for i, item in enumerate(value):
                _add(branch, f"[{i}]", item)
    else:
        branch.add(Pretty(value))


def render_generic(obs: Mapping[str, Any], seat: int | None) -> RenderableType:
    """Render any observation dict as a tree, one line per key (nested dicts and lists as branches).

    Args:
        obs: a JSON-able observation (``state.observation(seat)``).
        seat: whose view it is (``None`` = public view); used for the title only.

    Returns:
        A rich renderable.
    """
    title = "Public view" if seat is None or seat < 0 else f"Seat {seat}'s view"
    tree = Tree(Text(title, style="bold cyan"))
    for key, value in obs.items():
        _add(tree, str(key), value)
    return tree


def renderer_for(game_name: str) -> Renderer:
    """Return the renderer of ``game_name``: the module its ``GameSpec.renderer`` names, else the generic one.

    Raises:
        TypeError: the game's module exists but defines no callable ``render``.
    """
    try:
        module_name = game_spec(game_name).renderer
    except MeepleError:
        module_name = None
    if module_name is None:
        return Renderer(game_name, render_generic, None, generic=True)
    module = importlib.import_module(module_name)
    render = getattr(module, "render", None)
    if not callable(render):
        raise TypeError(f"{module_name} must define render(obs, seat) -> RenderableType")
    parse = getattr(module, "parse_input", None)
    shortcuts = getattr(module, "SHORTCUTS", "")
    if callable(parse) and not shortcuts:
        raise TypeError(f"{module_name} defines parse_input: list its short forms in SHORTCUTS (help shows them)")
    return Renderer(game_name, render, parse if callable(parse) else None, shortcuts=shortcuts)


def stack(parts: Sequence[RenderableType]) -> RenderableType:
    """Return several renderables drawn one under the other."""
    return Group(*parts)
