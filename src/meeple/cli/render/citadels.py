"""Terminal rendering of a Citadels observation (what one seat, or a spectator, may see).

Draws, from ``observation(seat)`` only: the round and phase, the crown, the characters (face-up removed, called,
revealed, assassinated, robbed), every seat's gold, hand size and city with colours, my hand and characters, the
draft offer, the pending decision and the scores.

Rules: citadels.md §5.2 (public information); observation schema in ``meeple.games.citadels.observation``.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.games.citadels.data import CHARACTER_COLOUR, CHARACTER_NAMES, COLOURS, SCHOOL_OF_MAGIC
from meeple.games.citadels.observation import CitadelsObservation, District, PastCall

STYLE = {
    "blue": "bold blue",
    "yellow": "bold yellow",
    "green": "bold green",
    "red": "bold red",
    "purple": "bold magenta",
}


def district_text(d: District) -> Text:
    """Return ``Name (cost)`` in the district's colour."""
    extra = f"{d['cost']}" if d["cost"] == d["score"] else f"{d['cost']}, {d['score']} pts"
    return Text(f"{d['name']} ({extra})", style=STYLE.get(d["colour"], ""))


def _districts(items: list[District]) -> Text:
    out = Text()
    for i, d in enumerate(items):
        if i:
            out.append(", ")
        out.append_text(district_text(d))
    return out if items else Text("—", style="dim")


_STATUS = {"absent": "nobody", "silent": "assassinated: no answer"}


def _name(c: int | None) -> str:
    return CHARACTER_NAMES[c] if c else "—"


def _characters(obs: CitadelsObservation) -> Text:
    ch = obs["characters"]
    out = Text()
    out.append("Face up, out of the round: ", style="bold")
    out.append(", ".join(_name(c) for c in ch["faceup"]) or "none")
    out.append(f"   face down: {ch['facedown_count']}\n")
    if ch["calls"] and obs["phase"] != "end":  # at the end, the round's calls are shown below with the victim
        out.append("Called: ", style="bold")
        parts = []
        for call in ch["calls"]:
            who = f"seat {call['seat']}" if call["seat"] is not None else _STATUS.get(call["status"], call["status"])
            parts.append(f"{call['name']} ({who})")
        out.append("; ".join(parts) + "\n")
    if ch["current"]:
        out.append("Now playing: ", style="bold")
        out.append(_name(ch["current"]) + "\n")
    if ch["assassinated"]:
        out.append(f"The Assassin named the {_name(ch['assassinated'])}.  ", style="red")
    if ch["robbed"]:
        out.append(f"The Thief named the {_name(ch['robbed'])}.", style="yellow")
    past = ch.get("past_calls") or []
    if past:
        last = past[-1]["round"]
        parts = [_past_call(call) for call in past if call["round"] == last]
        out.append(f"\nRound {last} calls: " + "; ".join(parts), style="dim")
    return out


def _past_call(call: PastCall) -> str:
    who = f"seat {call['seat']}" if call["seat"] is not None else "nobody"
    if call["status"] == "assassinated":
        return f"{call['name']} ({who}, assassinated)"
    return f"{call['name']} ({who})"


def _income_hint(obs: CitadelsObservation, seat: int | None) -> str | None:
    """Return "colour income: +N gold" while my coloured character may still take it, else None."""
    turn = obs.get("turn")
    if not turn or seat is None or turn["seat"] != seat or turn["income_taken"]:
        return None
    colour = CHARACTER_COLOUR[turn["character"]]
    if colour < 0:
        return None
    city = obs["seats"][seat]["city"]
    n = sum(1 for d in city if d["colour"] == COLOURS[colour] or d["kind"] == SCHOOL_OF_MAGIC)
    return f"Colour income ({COLOURS[colour]}) not taken yet: +{n} gold" if n else None


def _seats(obs: CitadelsObservation) -> Table:
    table = Table(title=f"Round {obs['round']} — {obs['phase']}", expand=True)
    for col in ("seat", "gold", "cards", "characters", "city"):
        table.add_column(col, overflow="fold")
    for s in obs["seats"]:
        label = f"{s['seat']}" + (" 👑" if s["seat"] == obs["crown"] else "")
        label += " (you)" if s["seat"] == obs["seat"] else ""
        if s["seat"] == obs["current_player"]:
            label = f"▶ {label}"
        city = _districts(s["city"])
        city.append(f"  [{s['city_size']}/{obs['threshold']}]" + (" complete" if s["complete"] else ""))
        chars = ", ".join(_name(c) for c in s["revealed"]) or "?"
        table.add_row(label, str(s["gold"]), str(s["hand_size"]), chars, city)
    return table


def _pending(obs: CitadelsObservation) -> RenderableType | None:
    p = obs["pending"]
    draft = obs["draft"]
    offered = draft["offered"]
    if obs["phase"] == "draft" and offered:
        text = "Characters offered to you: " + ", ".join(_name(c) for c in offered)
        if draft["returned"]:
            text += f" (the {_name(draft['returned'])} was set aside face down; the one you leave goes face down)"
        return Text(text, style="bold cyan")
    if not p:
        return None
    if p["kind"] == "keep_card" and "cards" in p:
        return Group(Text(f"You drew — keep {p['keep']}:", style="bold cyan"), _districts(p["cards"]))
    if p["kind"] == "exchange" and "selected" in p:
        return Group(Text("Selected for the exchange:", style="bold cyan"), _districts(p["selected"]))
    if p["kind"] == "graveyard":
        title = Text("Destroyed district (Graveyard may save it):", style="bold cyan")
        return Group(title, district_text(p["district"]))
    return Text(f"Seat {p['player']} is deciding: {p['kind'].replace('_', ' ')}", style="dim")


def _scores(obs: CitadelsObservation) -> Table:
    table = Table(title="Final scores" if obs["winners"] is not None else "Scores so far")
    for col in ("seat", "districts", "5 colours", "first", "complete", "total"):
        table.add_column(col, justify="right")
    for seat, b in enumerate(obs["scores"]):
        win = obs["winners"] is not None and seat in obs["winners"]
        table.add_row(
            f"{seat}{' 🏆' if win else ''}",
            str(b["districts"]),
            str(b["five_colours"]),
            str(b["first_complete"]),
            str(b["complete"]),
            Text(str(b["total"]), style="bold"),
        )
    return table


def render(obs: CitadelsObservation, seat: int | None) -> RenderableType:
    """Return a rich rendering of a Citadels observation.

    Args:
        obs: ``state.observation(seat)``.
        seat: the seat whose view it is (``None``: spectator).
    """
    parts: list[RenderableType] = [_seats(obs), Panel(_characters(obs), title="Characters")]
    hand = obs["hand"]
    if hand is not None:
        mine = ", ".join(_name(c) for c in obs["my_characters"]) or "none yet"
        if obs["my_discarded"]:
            mine += "   (you put face down: " + ", ".join(_name(c) for c in obs["my_discarded"]) + ")"
        lines: list[RenderableType] = [Text(f"Your character(s): {mine}", style="bold"), _districts(hand)]
        income = _income_hint(obs, seat)
        if income is not None:
            lines.append(Text(income, style="green"))
        parts.append(
            Panel(
                Group(*lines),
                title=f"Your hand (seat {seat}) — {obs['seats'][seat]['gold']} gold" if seat is not None else "Hand",
            )
        )
    pending = _pending(obs)
    if pending is not None:
        parts.append(pending)
    if obs["last_round"] and obs["phase"] != "end":
        parts.append(Text("A city is complete: this is the last round.", style="bold red"))
    if obs["winners"] is not None or obs["phase"] == "end":
        parts.append(_scores(obs))
    parts.append(Text(f"Deck: {obs['deck_size']} cards", style="dim"))
    return Group(*parts)
