"""Terminal rendering of a Caprice observation (rich).

Draws the six towers bottom to top with the red marker and the piece placed this turn, the supply, the bag, each
player's symbol count and exchanges, the seat's own symbols (and the token it is drawing), and the reveal with each
player's order, points tower by tower and total (and how a tie was broken) at the end. Uses the observation dict
only (renderer protocol, meeple.cli.render).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.games.caprice.const import PHASES
from meeple.games.caprice.observation import CapriceObservation
from meeple.games.caprice.rules import tower_points
from meeple.games.caprice.vocabulary import PIECE
from meeple.i18n import N_, _, known, ngettext, tr

_STYLE = {
    "DR": "bold white on grey23",
    "DT": "bold white on grey23",
    "LR": "black on grey85",
    "LT": "black on grey85",
}
_GLYPH = {"DR": "●", "DT": "✸", "LR": "○", "LT": "✧"}
_HEIGHT = 4
_PIECES = ("DR", "DT", "LR", "LT")
_SPACES = ("A", "B", "C", "D", "E", "F")
_SKIP = {"SKIP", "PASS", "-", "NO", "PASSER", "NON"}
_PHASE_WORDS = (N_("draw symbols"), N_("place"), N_("move"), N_("order the symbols"), N_("over"))
"""The observation's ``phase`` in words, in :data:`PHASES` order."""


def piece_text(name: str) -> Text:
    """Return a styled cell for a piece or symbol name such as ``"DR"``."""
    return Text(f" {_GLYPH.get(name, '?')} {name} ", style=_STYLE.get(name, ""))


def _compact(name: str) -> Text:
    """Return a narrow styled cell (glyph and name, no padding) for tables that must fit 80 columns."""
    return Text(f"{_GLYPH.get(name, '?')}{name}", style=_STYLE.get(name, ""))


def _symbols_text(names: list[str] | None, compact: bool = False) -> Text:
    out = Text()
    for i, name in enumerate(names or []):
        if i:
            out.append(" ")
        out.append_text(_compact(name) if compact else piece_text(name))
    return out if names else Text("-")


def _board(obs: CapriceObservation) -> Table:
    table = Table(title=_("Towers (bottom to top)"), show_lines=False, header_style="bold")
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


def _players(obs: CapriceObservation) -> Table:
    table = Table(title=_("Players"), header_style="bold")
    for col in (_("seat"), _("symbols held"), _("exchanges"), _("status")):
        table.add_column(col)
    for seat in range(obs["players"]):
        exchanges = obs["exchanges"][seat]
        ex = ", ".join(
            _("draw {draw}: {piece} set aside").format(draw=e["draw"], piece=e["set_aside"]) for e in exchanges
        )
        status = []
        if seat == obs["first_player"]:
            status.append(_("first"))
        if seat == obs["current_player"]:
            status.append(_("to move"))
        if seat == obs.get("ender"):
            status.append(_("ended the game"))
        if seat == obs.get("seat"):
            status.append(_("you"))
        ex = ex or "-"
        table.add_row(str(seat), str(obs["symbol_counts"][seat]), ex, ", ".join(status))
    return table


def _reveal(obs: CapriceObservation) -> RenderableType:
    reveal = obs["reveal"]
    assert reveal is not None  # drawn at the end only
    spaces = "".join(obs["spaces"])
    table = Table(title=_("Final reveal"), header_style="bold")
    per_tower = _("per tower {first}-{last}").format(first=spaces[0], last=spaces[-1])
    for col in (_("seat"), _("order (bottom to top)"), per_tower, _("points")):
        table.add_column(col, no_wrap=True)
    codes = {name: i for i, name in enumerate(_PIECES)}
    towers = [[codes[p] for p in t] for t in obs["towers"]]
    for seat in range(obs["players"]):
        mark = " " + _("(winner)") if seat == obs.get("winner") else ""
        order = [codes[p] for p in reveal["orders"][seat]]
        per_tower = " ".join(str(tower_points(order, t)) for t in towers)
        table.add_row(
            f"{seat}{mark}",
            _symbols_text(reveal["orders"][seat], compact=True),
            per_tower,
            str(reveal["points"][seat]),
        )
    points: list[int] = reveal["points"]
    tied = [s for s in range(obs["players"]) if points[s] == max(points)]
    if len(tied) > 1 and obs.get("ender") is not None:
        note = _(
            "Tie on {points} points: seat {winner} wins, the first tied player after seat {ender}, who ended the game"
        ).format(points=max(points), winner=obs.get("winner"), ender=obs["ender"])
        return Group(table, Text(note, style="yellow"))
    return table


def render(obs: CapriceObservation, seat: int | None) -> RenderableType:
    """Return a rich rendering of a Caprice observation as seen by ``seat`` (``None`` = spectator)."""
    parts: list[RenderableType] = [_board(obs)]
    info = Text()
    marker = obs.get("marker")
    phase = known(_PHASE_WORDS[PHASES.index(obs["phase"])])
    info.append(_("Phase: {phase}   Marker: {marker}   ").format(phase=phase, marker=marker or "-"))
    bag = ngettext("Bag: {n} token", "Bag: {n} tokens", obs["bag"]).format(n=obs["bag"])
    info.append(_("Full towers: {full}/5").format(full=obs["full_towers"]) + f"   {bag}\n")
    if marker and obs["phase"] != "over":
        info.append("◆", style="bold red")
        info.append(
            " " + _("= the red marker: the top piece of {space} was moved last and cannot move").format(space=marker)
        )
        info.append("\n")
    if obs.get("just_placed") and obs["phase"] == "move":
        info.append(
            _("Just placed on {space}: that piece cannot move this turn").format(space=obs["just_placed"]) + "\n"
        )
    info.append(_("Legend: ") + ", ".join(f"{_GLYPH[p]} {p} {tr(PIECE[p])}" for p in _PIECES) + "\n")
    info.append(_("Supply: "))
    for name, count in obs["supply"].items():
        info.append_text(piece_text(name))
        info.append(f" x{count}  ")
    parts.append(info)
    parts.append(_players(obs))
    symbols, drawn = obs["symbols"], obs["drawn_symbol"]
    if symbols is not None:
        mine = Text(_("Your symbols: "))
        mine.append_text(_symbols_text(symbols))
        if drawn:
            mine.append("\n" + _("Drawn now: "))
            mine.append_text(piece_text(drawn))
            if obs["can_exchange"]:
                mine.append("  " + _("(you hold it twice already: you may exchange it)"), style="yellow")
            else:
                mine.append("  " + _("(nothing to exchange: keep it)"), style="dim")
        if obs.get("best_order"):
            mine.append("\n" + _("Best order now: "))
            mine.append_text(_symbols_text(obs["best_order"]))
            points = obs["points"] or 0
            mine.append("  = " + ngettext("{n} point", "{n} points", points).format(n=points))
        if obs.get("order_chosen") is not None and obs["phase"] == "order":
            chosen = obs["order_chosen"] or []
            mine.append("\n" + _("Your order so far: "))
            mine.append_text(_symbols_text(chosen))
            mine.append("  " + _("(now choosing level {level} of 4, from the bottom)").format(level=len(chosen) + 1))
        parts.append(mine)
    if obs.get("reveal"):
        parts.append(_reveal(obs))
    title = "Caprice" + (" - " + _("seat {seat}").format(seat=seat) if seat is not None else "")
    return Panel(Group(*parts), title=title)


SHORTCUTS = N_(
    "Shortcuts: 'DR A' places DR on A; 'A B' moves the top piece of A to B; 'skip' (or '-', 'pass', 'no') "
    "declines the move; 'DR A B C' or 'DR A skip' places and then moves or declines in one line; in the manual "
    "order phase, a piece alone ('DR') puts that symbol next in your order."
)
"""Every short form :func:`parse_input` accepts, for ``help``."""


def parse_input(text: str, legal_texts: list[str]) -> list[str] | None:
    """Expand short forms into action texts; return None when the line is not one of them.

    ``DR A`` places DR on A; ``A B`` moves the top piece of A to B; ``skip`` (or ``-``) declines the move;
    ``DR A B C`` / ``DR A skip`` places and then moves / declines in one line; in the manual order phase a piece
    name alone (``DR``) puts that symbol next in the order.
    """
    words = text.upper().replace(",", " ").split()
    out: list[str] = []
    if len(words) == 1 and words[0] in _PIECES:
        order = f"put {words[0]} next in the order"
        return [order] if order in legal_texts else None
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
