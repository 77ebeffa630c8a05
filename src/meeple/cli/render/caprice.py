"""Terminal rendering of a Caprice observation (rich).

Draws the six towers bottom to top with the red marker and the piece placed this turn, the supply, the bag, each
player's symbol count and exchanges, the seat's own symbols (and the token it is drawing), and the reveal with the
scores at the end. Uses the observation dict only (renderer protocol, meeple.cli.render).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_STYLE = {
    "DR": "bold white on grey23",
    "DT": "bold white on grey23",
    "LR": "black on grey85",
    "LT": "black on grey85",
}
_GLYPH = {"DR": "●", "DT": "✸", "LR": "○", "LT": "✧"}
_HEIGHT = 4


def piece_text(name: str) -> Text:
    """Return a styled cell for a piece or symbol name such as ``"DR"``."""
    return Text(f" {_GLYPH.get(name, '?')} {name} ", style=_STYLE.get(name, ""))


def _symbols_text(names: list[str] | None) -> Text:
    out = Text()
    for i, name in enumerate(names or []):
        if i:
            out.append(" ")
        out.append_text(piece_text(name))
    return out if names else Text("-")


def _board(obs: dict[str, Any]) -> Table:
    table = Table(title="Towers (bottom to top)", show_lines=False, header_style="bold")
    for space in obs["spaces"]:
        table.add_column(space, justify="center", min_width=8)
    towers: list[list[str]] = obs["towers"]
    for level in range(_HEIGHT - 1, -1, -1):
        row: list[Text] = []
        for i, tower in enumerate(towers):
            if level < len(tower):
                cell = piece_text(tower[level])
                top = level == len(tower) - 1
                if top and obs["spaces"][i] == obs.get("marker"):
                    cell.append(" ◆", style="bold red")
                if top and obs["spaces"][i] == obs.get("just_placed"):
                    cell.stylize("underline")
            else:
                cell = Text("·", style="dim")
            row.append(cell)
        table.add_row(*row)
    table.add_row(*[Text(f"{len(t)}/4", style="bold green" if len(t) == _HEIGHT else "dim") for t in towers])
    return table


def _players(obs: dict[str, Any]) -> Table:
    table = Table(title="Players", header_style="bold")
    for col in ("seat", "symbols", "exchanges", "status"):
        table.add_column(col)
    for seat in range(obs["players"]):
        ex = ", ".join(f"draw {e['draw']}: {e['set_aside']} set aside" for e in obs["exchanges"][seat]) or "-"
        status = []
        if seat == obs["first_player"]:
            status.append("first")
        if seat == obs["current_player"]:
            status.append("to move")
        if seat == obs.get("ender"):
            status.append("ended the game")
        if seat == obs.get("seat"):
            status.append("you")
        table.add_row(str(seat), str(obs["symbol_counts"][seat]), ex, ", ".join(status))
    return table


def _reveal(obs: dict[str, Any]) -> Table:
    reveal = obs["reveal"]
    table = Table(title="Final reveal", header_style="bold")
    for col in ("seat", "symbols", "order (bottom to top)", "points"):
        table.add_column(col)
    for seat in range(obs["players"]):
        mark = " (winner)" if seat == obs.get("winner") else ""
        table.add_row(
            f"{seat}{mark}",
            _symbols_text(reveal["symbols"][seat]),
            _symbols_text(reveal["orders"][seat]),
            str(reveal["points"][seat]),
        )
    return table


def render(obs: dict[str, Any], seat: int | None) -> RenderableType:
    """Return a rich rendering of a Caprice observation as seen by ``seat`` (``None`` = spectator)."""
    parts: list[RenderableType] = [_board(obs)]
    info = Text()
    marker = obs.get("marker")
    info.append(f"Phase: {obs['phase']}   Marker: {marker or '-'}   ")
    info.append(f"Full towers: {obs['full_towers']}/5   Bag: {obs['bag']} tokens\n")
    info.append("Supply: ")
    for name, count in obs["supply"].items():
        info.append_text(piece_text(name))
        info.append(f" x{count}  ")
    parts.append(info)
    parts.append(_players(obs))
    if obs.get("symbols") is not None:
        mine = Text("Your symbols: ")
        mine.append_text(_symbols_text(obs["symbols"]))
        if obs.get("drawn_symbol"):
            mine.append("   drawn: ")
            mine.append_text(piece_text(obs["drawn_symbol"]))
            if obs.get("can_exchange"):
                mine.append("  (a third copy: you may exchange it)", style="yellow")
        if obs.get("best_order"):
            mine.append("\nBest order now: ")
            mine.append_text(_symbols_text(obs["best_order"]))
            mine.append(f"  = {obs['points']} points")
        if obs.get("order_chosen"):
            mine.append("\nYour order so far: ")
            mine.append_text(_symbols_text(obs["order_chosen"]))
        parts.append(mine)
    if obs.get("reveal"):
        parts.append(_reveal(obs))
    title = "Caprice" + (f" - seat {seat}" if seat is not None else "")
    return Panel(Group(*parts), title=title)


_PIECES = ("DR", "DT", "LR", "LT")
_SPACES = ("A", "B", "C", "D", "E", "F")
_SKIP = {"SKIP", "PASS", "-", "NO"}


def parse_input(text: str, legal_texts: list[str]) -> list[str] | None:
    """Expand short forms into action texts; return None when the line is not one of them.

    ``DR A`` places DR on A; ``A B`` moves the top piece of A to B; ``skip`` (or ``-``) declines the move;
    ``DR A B C`` / ``DR A skip`` places and then moves / declines in one line.
    """
    words = text.upper().replace(",", " ").split()
    out: list[str] = []
    if len(words) >= 2 and words[0] in _PIECES and words[1] in _SPACES:
        out.append(f"place {words[0]} on {words[1]}")
        words = words[2:]
    if len(words) == 2 and words[0] in _SPACES and words[1] in _SPACES:
        out.append(f"move the top piece of {words[0]} to {words[1]}")
        words = []
    elif len(words) == 1 and words[0] in _SKIP:
        out.append("do not move")
        words = []
    if words or not out:
        return None
    return out
