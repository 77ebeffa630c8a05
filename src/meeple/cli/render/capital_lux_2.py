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
from meeple.games.capital_lux_2.powers import POWERS
from meeple.games.capital_lux_2.vocabulary import COLOUR, DRAFT, LETTER, RATING, rob_card
from meeple.i18n import N_, Message, _, known, ngettext, tr

_STYLES = ("bold white on blue", "bold black on pink1", "bold black on yellow", "bold white on green4")


def card_text(card: Card | None) -> Text:
    """Return a styled cell for a card dict (``{"id", "colour", "value"}``) or ``-`` for an empty slot."""
    if card is None:
        return Text(" - ", style="dim")
    return Text(f" {tr(LETTER[card['colour']])}{card['value']} ", style=_STYLES[card["colour"]])


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
    table = Table(title=_("Capital"), header_style="bold", show_lines=True, expand=True)
    for d, tile in enumerate(obs["tiles"]):
        label = tr(POWERS[tile["id"]].label_message)
        table.add_column(Text(f"{_colour(d)}: {label}", style=_STYLES[d]), ratio=1)
    table.add_row(*[Text(_VARIANT.sub("", known(t["effect"])), style="italic") for t in obs["tiles"]])
    rows: list[RenderableType] = []
    for district in obs["capital"]:
        cell = Text()
        cell.append_text(_cards(district["cards"]))
        cell.append("\n" + _("total {total}").format(total=district["total"]))
        hidden = [str(i["value"]) if i["value"] != "hidden" else "?" for i in district["face_down"]]
        if hidden:
            cell.append("  " + _("face-down: {items}").format(items=", ".join(hidden)), style="magenta")
        if "max" in district:
            shown = [str(i["value"]) for i in district["revealed"]]
            revealed = " " + _("(revealed {items})").format(items=", ".join(shown)) if shown else ""
            cell.append(f"\nMAX {district['max']}" + revealed, style="bold")
        rows.append(cell)
    table.add_row(*rows)
    states = [_tile_state(t["state"], obs) for t in obs["tiles"]]
    if any(states):
        table.add_row(*[Text(s, style="dim") for s in states])
    return table


_VARIANT = re.compile(r"\s*Variante? .*$", re.S)
"""The effect texts end with the variant rules; the variant in force is shown by the tile's state instead."""

_STATE_LABELS = {
    "modifiers_in_pile": N_("modifiers left in the pile: {}"),
    "drawn_modifier": N_("you drew the modifier {:+d}"),
    "gold_covers_excess": N_("variant: gold may pay the excess at resolution"),
    "pink_allowed": N_("variant: the pink district may be chosen too"),
}


def _colour(d: int) -> str:
    """A district's colour in words with its letter: "blue (B)"."""
    return f"{tr(COLOUR[d])} ({tr(LETTER[d])})"


def _message(data: dict[str, Any] | None) -> str:
    """An observation's message (``Message.to_json``) in the current language."""
    return "" if data is None else tr(Message.from_json(data))


def _name(obs: CapitalLux2Observation, p: int) -> str:
    return "ROB" if obs["solo"] and p == 1 else _("seat {seat}").format(seat=p)


def _tile_state(state: dict[str, Any], obs: CapitalLux2Observation) -> str:
    """A tile's material in words (known keys) or ``key: value`` (others, e.g. per-seat lists)."""
    parts = []
    for key, value in state.items():
        if key in _STATE_LABELS:
            parts.append(known(_STATE_LABELS[key]).format(value))
        elif key == "aristocrats_left":
            parts.append(_("Aristocrats left: ") + ", ".join(f"{_name(obs, p)} {n}" for p, n in enumerate(value)))
        elif key == "aristocrats_on":
            placed = [
                f"{_name(obs, p)} {_colour(d)}" + (f" x{n}" if n > 1 else "")
                for p, row in enumerate(value)
                for d, n in enumerate(row)
                if n
            ]
            parts.append(_("Aristocrats on: ") + (", ".join(placed) or _("none")))
        elif key == "sentinels":
            posts = [
                _("{who} on {colour}").format(who=_name(obs, p), colour=_colour(d))
                for p, d in enumerate(value)
                if d >= 0
            ]
            parts.append(_("sentinels: ") + (", ".join(posts) or _("none")))
        else:
            parts.append(f"{key.replace('_', ' ')}: {value}")
    return "\n".join(parts)


def _cities(obs: CapitalLux2Observation, seat: int | None) -> Table:
    table = Table(title=_("Cities"), header_style="bold")
    table.add_column(_("player"))
    for d in range(4):
        table.add_column(Text(_colour(d), style=_STYLES[d]))
    table.add_column(_("hand"))
    table.add_column(_("gold"))
    table.add_column(_("bonus"))
    for p, city in enumerate(obs["cities"]):
        rob = obs["solo"] and p == 1
        name = "ROB" if rob else _name(obs, p) + (" " + _("(you)") if p == seat else "")
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
            ngettext("{n} card", "{n} cards", obs["bonus_counts"][p]).format(n=obs["bonus_counts"][p]),
        )
    return table


def _draft(obs: CapitalLux2Observation) -> RenderableType | None:
    draft = obs.get("draft")
    if not draft:
        return None
    text = Text(_("Draft, stage {stage}: ").format(stage=draft["stage"]))
    if draft["pack"] is not None:
        text.append(_("pack") + " ")
        text.append_text(_hand(draft["pack"]))
    if draft["first_pick"]:
        text.append("  " + _("first pick") + " ")
        text.append_text(card_text(draft["first_pick"]))
    if not obs["solo"]:
        sizes = ", ".join(f"{_name(obs, p)}: {n}" for p, n in enumerate(draft["pack_sizes"]))
        order = draft.get("pick_order", list(range(len(draft["picks"]))))
        status = ", ".join(
            (_("seat {seat} still choosing") if v is None else _("seat {seat} has picked")).format(seat=p)
            for p, v in zip(order, draft["picks"], strict=True)
        )
        text.append("\n" + _("pack sizes: {sizes}").format(sizes=sizes))
        text.append("\n" + _("picks (hidden until all are in): {status}").format(status=status))
    return text


def _last_resolution(obs: CapitalLux2Observation) -> RenderableType | None:
    res = obs.get("last_resolution")
    if not res:
        return None
    text = Text("MAX: " + ", ".join(f"{_colour(d)} {m}" for d, m in enumerate(res["max"])))
    events = [_message(e) for e in res["event_messages"]] or [_("nothing over the MAX, no bonus")]
    for line in events:
        text.append(f"\n- {line}")
    return Panel(text, title=_("Resolution of round {round}").format(round=res["round"]))


def _rob(obs: CapitalLux2Observation) -> RenderableType:
    rob = obs["rob"]
    text = Text()
    text.append(_("ROB hand (left, right): "))
    text.append_text(_cards(rob["hand"]))
    text.append("   " + _("reserve: "))
    text.append_text(_cards(rob["reserve"]))
    text.append(
        "\n"
        + _("red cards this round: {red}/3   ROB cards left: {left}").format(
            red=rob["red_cards"], left=rob["deck_left"]
        )
    )
    flipped = ", ".join(tr(rob_card(c)) for c in rob["flipped_codes"]) or "-"
    text.append("   " + _("flipped: {cards}").format(cards=flipped))
    text.append("\n" + _("ROB bonus pile: "))
    text.append_text(_cards(rob["bonus"]))
    text.append(
        "  "
        + _("gold {gold}   ROB score {score}   your margin {margin:+d}").format(
            gold=rob["gold"], score=rob["score"], margin=rob["margin"]
        )
    )
    if obs["phase"] == "end" or rob["margin"] >= 0:
        text.append(f" ({tr(RATING[rob['rating']])})")
    if rob["last_move_message"]:
        text.append("\n" + _message(rob["last_move_message"]), style="italic")
    return Panel(text, title="ROB")


_PHASES = {"play": N_("play"), "resolution": N_("resolution"), "end": N_("end")}
"""The observation's ``phase`` in words."""


def render(obs: CapitalLux2Observation, seat: int | None) -> RenderableType:
    """Draw a Capital Lux 2 observation for ``seat`` (``None`` = public view)."""
    phase = tr(DRAFT) if obs["phase"] == "draft" else known(_PHASES.get(obs["phase"], obs["phase"]))
    head = Text(
        _("Capital Lux 2 — round {round}/3, {phase}").format(round=obs["round"], phase=phase), style="bold cyan"
    )
    if obs["ending"]:
        head.append("  " + _("(last turns)"), style="bold red")
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
        mine = Text(_("Your hand: ")).append_text(_hand(obs["hand"]))
        mine.append("\n" + _("Your bonus pile: ")).append_text(_cards(obs["bonus"]))
        if obs.get("peek"):
            mine.append("\n" + _("You look at: ")).append_text(_hand(obs["peek"]))
        parts.append(mine)
    pending = obs.get("pending")
    if pending:
        what = _message(pending["message"])
        if pending["player"] == seat:
            asked = _("You must decide: {what}").format(what=what)
        else:
            asked = _("Seat {seat} must decide: {what}").format(seat=pending["player"], what=what)
        parts.append(Text(asked, style="bold yellow"))
    parts.append(Text(_("Colours: ") + ", ".join(_colour(d) for d in range(4)), style="dim"))
    if not obs["solo"] and obs["emperor"] is not None:
        parts.append(Text(_("👑 = the first player of this round"), style="dim"))
    if "scores" in obs:
        names = [_name(obs, p) for p in range(len(obs["scores"]))]
        line = ", ".join(f"{n} {s}" for n, s in zip(names, obs["scores"], strict=True))
        parts.append(Text(_("Final scores: ") + line))
    return Group(*parts)


SHORTCUTS = N_(
    "Shortcuts: card numbers in a row ('7 12') play the matching moves in turn, e.g. both draft picks; each "
    "number is a card's (#id)."
)
"""Every short form :func:`parse_input` accepts, for ``help``."""


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
