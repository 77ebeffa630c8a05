"""Terminal rendering of a Capital Lux 2 observation (rich).

Draws the Capital (cards, totals, face-down items, MAX at resolution) under the four power tiles with their effects
in words (provisional ones marked), every City with its totals, gold and Bonus pile counts, your hand, your Bonus
pile, the draft, the outcome of the last resolution (during the next draft), and in solo ROB's hand, reserve, red
cards, Bonus pile and score margin with the rating label.
Uses the observation dict only (renderer protocol, meeple.cli.render).
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.games.capital_lux_2.observation import CapitalLux2Observation, Card

_COLOURS = ("blue", "pink", "yellow", "green")
_STYLES = ("bold white on blue", "bold black on pink1", "bold black on yellow", "bold white on green4")


def card_text(card: Card | None) -> Text:
    """Return a styled cell for a card dict (``{"id", "colour", "value"}``) or ``-`` for an empty slot."""
    if card is None:
        return Text(" - ", style="dim")
    return Text(f" {card['value']} ", style=_STYLES[card["colour"]])


def _cards(cards: list[Card] | list[Card | None]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out if cards else Text("-", style="dim")


def _hand(cards: list[Card]) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append("  ")
        out.append_text(card_text(c))
        out.append(f" #{c['id']}", style="dim")
    return out if cards else Text("-", style="dim")


def _capital(obs: CapitalLux2Observation) -> Table:
    table = Table(title="Capital", header_style="bold", show_lines=True, expand=True)
    for d, tile in enumerate(obs["tiles"]):
        table.add_column(Text(f"{_COLOURS[d]}: {tile['name']}", style=_STYLES[d]), ratio=1)
    table.add_row(*[Text(_VARIANT.sub("", t["effect"]), style="italic") for t in obs["tiles"]])
    rows: list[RenderableType] = []
    for district in obs["capital"]:
        cell = Text()
        cell.append_text(_cards(district["cards"]))
        cell.append(f"\ntotal {district['total']}")
        hidden = [str(i["value"]) if i["value"] != "hidden" else "?" for i in district["face_down"]]
        if hidden:
            cell.append(f"  face-down: {', '.join(hidden)}", style="magenta")
        if "max" in district:
            shown = [str(i["value"]) for i in district["revealed"]]
            cell.append(f"\nMAX {district['max']}" + (f" (revealed {', '.join(shown)})" if shown else ""), style="bold")
        rows.append(cell)
    table.add_row(*rows)
    states = [_tile_state(t["state"], obs) for t in obs["tiles"]]
    if any(states):
        table.add_row(*[Text(s, style="dim") for s in states])
    return table


_VARIANT = re.compile(r"\s*Variant .*$", re.S)
"""The effect texts end with the variant rules; the variant in force is shown by the tile's state instead."""

_STATE_LABELS = {
    "modifiers_in_pile": "modifiers left in the pile: {}",
    "drawn_modifier": "you drew the modifier {:+d}",
    "gold_covers_excess": "variant: gold may pay the excess at resolution",
    "pink_allowed": "variant: the pink district may be chosen too",
}


def _name(obs: CapitalLux2Observation, p: int) -> str:
    return "ROB" if obs["solo"] and p == 1 else f"seat {p}"


def _tile_state(state: dict[str, Any], obs: CapitalLux2Observation) -> str:
    """A tile's material in words (known keys) or ``key: value`` (others, e.g. per-seat lists)."""
    parts = []
    for key, value in state.items():
        if key in _STATE_LABELS:
            parts.append(_STATE_LABELS[key].format(value))
        elif key == "aristocrats_left":
            parts.append("Aristocrats left: " + ", ".join(f"{_name(obs, p)} {n}" for p, n in enumerate(value)))
        elif key == "aristocrats_on":
            placed = [
                f"{_name(obs, p)} {_COLOURS[d]}" + (f" x{n}" if n > 1 else "")
                for p, row in enumerate(value)
                for d, n in enumerate(row)
                if n
            ]
            parts.append("Aristocrats on: " + (", ".join(placed) or "none"))
        elif key == "sentinels":
            posts = [f"{_name(obs, p)} on {_COLOURS[d]}" for p, d in enumerate(value) if d >= 0]
            parts.append("sentinels: " + (", ".join(posts) or "none"))
        else:
            parts.append(f"{key.replace('_', ' ')}: {value}")
    return "\n".join(parts)


def _cities(obs: CapitalLux2Observation, seat: int | None) -> Table:
    table = Table(title="Cities", header_style="bold")
    table.add_column("player")
    for d in range(4):
        table.add_column(Text(_COLOURS[d], style=_STYLES[d]))
    table.add_column("hand")
    table.add_column("gold")
    table.add_column("bonus")
    for p, city in enumerate(obs["cities"]):
        rob = obs["solo"] and p == 1
        name = "ROB" if rob else f"seat {p}" + (" (you)" if p == seat else "")
        if not obs["solo"] and p == obs["emperor"]:
            name += " 👑"
        pairs = zip(city["districts"], city["totals"], strict=True)
        cells = [Text(f"{t}: ").append_text(_cards(cards)) for cards, t in pairs]
        hand = "-" if rob else str(obs["hand_sizes"][p])
        table.add_row(
            name,
            *cells,
            hand,
            str(obs["gold"][p]),
            f"{obs['bonus_counts'][p]} card" + ("" if obs["bonus_counts"][p] == 1 else "s"),
        )
    return table


def _draft(obs: CapitalLux2Observation) -> RenderableType | None:
    draft = obs.get("draft")
    if not draft:
        return None
    text = Text(f"Draft, stage {draft['stage']}: ")
    if draft["pack"] is not None:
        text.append("pack ")
        text.append_text(_hand(draft["pack"]))
    if draft["first_pick"]:
        text.append("  first pick ")
        text.append_text(card_text(draft["first_pick"]))
    if not obs["solo"]:
        sizes = ", ".join(f"seat {p}: {n}" for p, n in enumerate(draft["pack_sizes"]))
        order = draft.get("pick_order", list(range(len(draft["picks"]))))
        status = ", ".join(
            f"seat {p} {'still choosing' if v is None else 'has picked'}"
            for p, v in zip(order, draft["picks"], strict=True)
        )
        text.append(f"\npack sizes: {sizes}\npicks (hidden until all are in): {status}")
    return text


def _last_resolution(obs: CapitalLux2Observation) -> RenderableType | None:
    res = obs.get("last_resolution")
    if not res:
        return None
    text = Text("MAX: " + ", ".join(f"{_COLOURS[d]} {m}" for d, m in enumerate(res["max"])))
    for line in res["events"] or ["nothing over the MAX, no bonus"]:
        text.append(f"\n- {line}")
    return Panel(text, title=f"Resolution of round {res['round']}")


def _rob(obs: CapitalLux2Observation) -> RenderableType:
    rob = obs["rob"]
    text = Text()
    text.append("ROB hand (left, right): ")
    text.append_text(_cards(rob["hand"]))
    text.append("   reserve: ")
    text.append_text(_cards(rob["reserve"]))
    text.append(f"\nred cards this round: {rob['red_cards']}/3   ROB cards left: {rob['deck_left']}   ")
    text.append(f"flipped: {', '.join(rob['cards_flipped']) or '-'}")
    text.append("\nROB bonus pile: ")
    text.append_text(_cards(rob["bonus"]))
    text.append(f"  gold {rob['gold']}   ROB score {rob['score']}   your margin {rob['margin']:+d} ({rob['rating']})")
    if rob["last_move"]:
        text.append(f"\n{rob['last_move']}", style="italic")
    return Panel(text, title="ROB")


def render(obs: CapitalLux2Observation, seat: int | None) -> RenderableType:
    """Draw a Capital Lux 2 observation for ``seat`` (``None`` = public view)."""
    head = Text(f"Capital Lux 2 — round {obs['round']}/3, {obs['phase']}", style="bold cyan")
    if obs["ending"]:
        head.append("  (last turns)", style="bold red")
    parts: list[RenderableType] = [head, _capital(obs), _cities(obs, seat)]
    if obs["solo"]:
        parts.append(_rob(obs))
    resolution = _last_resolution(obs)
    if resolution is not None and obs["phase"] in ("draft", "resolution", "end"):
        parts.append(resolution)
    draft = _draft(obs)
    if draft is not None:
        parts.append(draft)
    if "hand" in obs:
        mine = Text("Your hand: ").append_text(_hand(obs["hand"]))
        mine.append("\nYour bonus pile: ").append_text(_cards(obs["bonus"]))
        if obs.get("peek"):
            mine.append("\nYou look at: ").append_text(_hand(obs["peek"]))
        parts.append(mine)
    pending = obs.get("pending")
    if pending:
        who = "You" if pending["player"] == seat else f"Seat {pending['player']}"
        parts.append(Text(f"{who} must decide: {pending['text']}", style="bold yellow"))
    if "scores" in obs:
        names = ["ROB" if obs["solo"] and p == 1 else f"seat {p}" for p in range(len(obs["scores"]))]
        parts.append(Text("Final scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, obs["scores"], strict=True))))
    return Group(*parts)


def parse_input(text: str, legal_texts: list[str]) -> list[str] | None:
    """Expand card ids typed as ``"7 12"`` into the matching legal texts in turn (e.g. the two draft picks).

    Only applies when every typed word is a number and each names the ``(#id)`` of a legal card action.
    """
    words = re.split(r"[\s,]+", text.strip())
    if len(words) < 2 or not all(w.isdigit() for w in words):
        return None
    out: list[str] = []
    for w in words:
        match = [t for t in legal_texts if t.endswith(f"(#{w})")]
        prefix = [t for t in match if t.startswith("keep ")] or match
        if len(prefix) != 1:
            return None
        out.append(prefix[0])
    return out
