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

from meeple.games.citadels.data import CHARACTER_COLOUR, COLOURS, SCHOOL_OF_MAGIC
from meeple.games.citadels.observation import CitadelsObservation, District, PastCall
from meeple.games.citadels.vocabulary import CHARACTER, COLOUR, DISTRICT, THE_CHARACTER
from meeple.i18n import N_, _, known, ngettext, tr

STYLE = {
    "blue": "bold blue",
    "yellow": "bold yellow",
    "green": "bold green",
    "red": "bold red",
    "purple": "bold magenta",
}
PHASES = {"draft": N_("draft"), "turn": N_("turns"), "end": N_("end")}
"""The observation's ``phase`` in words."""
DECISIONS = {
    "keep_card": N_("which card to keep"),
    "exchange": N_("which cards to exchange"),
    "destroy": N_("which district to destroy"),
    "graveyard": N_("whether to save the destroyed district"),
}
"""A pending decision's ``kind`` in words (citadels.md §5.2; ``const.py`` documents the kinds)."""


def district_text(d: District) -> Text:
    """Return ``Name (cost)`` in the district's colour and the current language."""
    extra = f"{d['cost']}" if d["cost"] == d["score"] else _("{cost}, {score} pts").format(**d)
    return Text(f"{tr(DISTRICT[d['kind']])} ({extra})", style=STYLE.get(d["colour"], ""))


def _districts(items: list[District]) -> Text:
    out = Text()
    for i, d in enumerate(items):
        if i:
            out.append(", ")
        out.append_text(district_text(d))
    return out if items else Text("—", style="dim")


def _name(c: int | None) -> str:
    return tr(CHARACTER[c]) if c else "—"


def _seat(seat: int) -> str:
    return _("seat {seat}").format(seat=seat)


def _characters(obs: CitadelsObservation) -> Text:
    ch = obs["characters"]
    out = Text()
    out.append(_("Face up, out of the round: "), style="bold")
    out.append(", ".join(_name(c) for c in ch["faceup"]) or _("none"))
    out.append(_("   face down: {count}").format(count=ch["facedown_count"]) + "\n")
    if ch["calls"] and obs["phase"] != "end":  # at the end, the round's calls are shown below with the victim
        out.append(_("Called: "), style="bold")
        parts = []
        for call in ch["calls"]:
            if call["seat"] is not None:
                who = _seat(call["seat"])
            elif call["status"] == "silent":
                who = _("assassinated: no answer")
            else:
                who = _("nobody")
            parts.append(f"{_name(call['character'])} ({who})")
        out.append("; ".join(parts) + "\n")
    if ch["current"]:
        out.append(_("Now playing: "), style="bold")
        out.append(_name(ch["current"]) + "\n")
    if ch["assassinated"]:
        named = tr(THE_CHARACTER[ch["assassinated"]])
        out.append(_("The Assassin named {character}.").format(character=named) + "  ", style="red")
    if ch["robbed"]:
        out.append(_("The Thief named {character}.").format(character=tr(THE_CHARACTER[ch["robbed"]])), style="yellow")
    past = ch.get("past_calls") or []
    if past:
        last = past[-1]["round"]
        parts = [_past_call(call) for call in past if call["round"] == last]
        out.append("\n" + _("Round {round} calls: ").format(round=last) + "; ".join(parts), style="dim")
    return out


def _past_call(call: PastCall) -> str:
    who = _seat(call["seat"]) if call["seat"] is not None else _("nobody")
    if call["status"] == "assassinated":
        return _("{character} ({who}, assassinated)").format(character=_name(call["character"]), who=who)
    return f"{_name(call['character'])} ({who})"


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
    if not n:
        return None
    return _("Colour income ({colour}) not taken yet: +{n} gold").format(colour=tr(COLOUR[colour]), n=n)


def _seats(obs: CitadelsObservation) -> Table:
    title = _("Round {round} — {phase}").format(round=obs["round"], phase=known(PHASES[obs["phase"]]))
    table = Table(title=title, expand=True)
    for col in (_("seat"), _("gold"), _("cards"), _("characters"), _("city")):
        table.add_column(col, overflow="fold")
    for s in obs["seats"]:
        label = f"{s['seat']}" + (" 👑" if s["seat"] == obs["crown"] else "")
        label += " " + _("(you)") if s["seat"] == obs["seat"] else ""
        if s["seat"] == obs["current_player"]:
            label = f"▶ {label}"
        city = _districts(s["city"])
        city.append(f"  [{s['city_size']}/{obs['threshold']}]" + (" " + _("complete") if s["complete"] else ""))
        chars = ", ".join(_name(c) for c in s["revealed"]) or "?"
        table.add_row(label, str(s["gold"]), str(s["hand_size"]), chars, city)
    return table


def _pending(obs: CitadelsObservation) -> RenderableType | None:
    p = obs["pending"]
    draft = obs["draft"]
    offered = draft["offered"]
    if obs["phase"] == "draft" and offered:
        text = _("Characters offered to you: ") + ", ".join(_name(c) for c in offered)
        if draft["returned"]:
            text += " " + _("({character} was set aside face down; the one you leave goes face down)").format(
                character=tr(THE_CHARACTER[draft["returned"]])
            )
        return Text(text, style="bold cyan")
    if not p:
        return None
    if p["kind"] == "keep_card" and "cards" in p:
        keep = _("You drew — keep {n}:").format(n=p["keep"])
        return Group(Text(keep, style="bold cyan"), _districts(p["cards"]))
    if p["kind"] == "exchange" and "selected" in p:
        return Group(Text(_("Selected for the exchange:"), style="bold cyan"), _districts(p["selected"]))
    if p["kind"] == "graveyard":
        title = Text(_("Destroyed district (Graveyard may save it):"), style="bold cyan")
        return Group(title, district_text(p["district"]))
    what = known(DECISIONS[p["kind"]]) if p["kind"] in DECISIONS else p["kind"]
    who = _("You are") if p["player"] == obs["seat"] else _("Seat {seat} is").format(seat=p["player"])
    return Text(_("{who} deciding: {what}").format(who=who, what=what), style="dim")


def _scores(obs: CitadelsObservation) -> Table:
    table = Table(title=_("Final scores") if obs["winners"] is not None else _("Scores so far"))
    for col in (_("seat"), _("districts"), _("5 colours"), _("first"), _("complete"), _("total")):
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
    """Return a rich rendering of a Citadels observation, in the current language (``meeple.i18n``).

    Args:
        obs: ``state.observation(seat)``.
        seat: the seat whose view it is (``None``: spectator).
    """
    parts: list[RenderableType] = [_seats(obs), Panel(_characters(obs), title=_("Characters"))]
    hand = obs["hand"]
    if hand is not None:
        mine = ", ".join(_name(c) for c in obs["my_characters"]) or _("none yet")
        if obs["my_discarded"]:
            mine += "   " + _("(you put face down: {characters})").format(
                characters=", ".join(_name(c) for c in obs["my_discarded"])
            )
        lines: list[RenderableType] = [
            Text(_("Your character(s): {mine}").format(mine=mine), style="bold"),
            _districts(hand),
        ]
        income = _income_hint(obs, seat)
        if income is not None:
            lines.append(Text(income, style="green"))
        if seat is not None:
            title = _("Your hand (seat {seat}) — {gold} gold").format(seat=seat, gold=obs["seats"][seat]["gold"])
        else:
            title = _("Hand")
        parts.append(Panel(Group(*lines), title=title))
    pending = _pending(obs)
    if pending is not None:
        parts.append(pending)
    if obs["last_round"] and obs["phase"] != "end":
        parts.append(Text(_("A city is complete: this is the last round."), style="bold red"))
    if obs["winners"] is not None or obs["phase"] == "end":
        parts.append(_scores(obs))
    n = obs["deck_size"]
    parts.append(Text(ngettext("Deck: {n} card", "Deck: {n} cards", n).format(n=n), style="dim"))
    return Group(*parts)
