"""Terminal rendering of a Capitol observation (rich), and the bid input hook.

Draws the nine zones (colour, roof type, buildings per player with heights, fountains, large-space tile, free
spaces), each player's off-board buildings, roofs and score, the three piles with their visible top cards, the
auction in progress and the seat's own hand. Uses the observation dict only (renderer protocol, meeple.cli.render).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.cli.render import InputProblem
from meeple.games.capitol.const import PHASE_NAMES
from meeple.games.capitol.data import CARD_BY_NAME, CARD_TYPES, CARD_VALUE, TILE_NAMES
from meeple.games.capitol.observation import CapitolObservation, Pending
from meeple.games.capitol.vocabulary import CARD, CARD_TYPE_NAME, TILE_NAME, colour_legend, colour_word
from meeple.i18n import N_, _, known, ngettext, tr

_SEAT_STYLE = ("green", "red", "blue", "yellow")
_COLOUR_STYLE = {"C1": "cyan", "C2": "magenta", "C3": "orchid"}


def _seat(s: int) -> Text:
    return Text(f"P{s}", style=f"bold {_SEAT_STYLE[s % 4]}")


_PHASES = (N_("construction"), N_("improvement"), N_("end"), N_("over"))
"""The observation's ``phase`` in words, in :data:`PHASE_NAMES` order."""


def _phase(name: str) -> str:
    return known(_PHASES[PHASE_NAMES.index(name)])


def _tile(name: str) -> str:
    """A tile's name (``"fountain"``, ``"amphitheatre"``, ``"temple"``) in the current language."""
    return tr(TILE_NAME[TILE_NAMES.index(name)])


def _card(c: int | None) -> str:
    return "-" if c is None else tr(CARD[c])


def _cards(ids: list[int]) -> str:
    """Card names, identical cards grouped (``floor4 x2``)."""
    counts: dict[str, int] = {}
    for c in ids:
        counts[_card(c)] = counts.get(_card(c), 0) + 1
    return " ".join(name if k == 1 else f"{name} x{k}" for name, k in counts.items())


def _zones(obs: CapitolObservation) -> Table:
    legend = "\n".join(colour_legend(tr))
    table = Table(
        title=_("Board"),
        caption=_("roof: R round, T triangular; free: free/total small spaces; fountains: printed+tiles")
        + "\n"
        + _("Colour groups (the rulebooks name them differently; only the group matters):")
        + "\n"
        + legend,
        expand=False,
    )
    columns = (_("zone"), _("colour"), _("roof"), _("free"), _("fountains"), _("large"), _("buildings (P:h)"))
    for col in (*columns, _("floors")):
        table.add_column(col)
    for z in obs["zones"]:
        colour = z["colour"]
        buildings = Text()
        for i, (owner, height) in enumerate(z["buildings"]):
            if i:
                buildings.append(" ")
            buildings.append(f"P{owner}:{height}", style=_SEAT_STYLE[owner % 4])
        floors = Text()
        for s, f in enumerate(z["floors"]):
            if f:
                floors.append(f"P{s}={f} ", style=_SEAT_STYLE[s % 4])
        fountains = f"{z['printed_fountains']}+{z['fountain_tiles']}"
        table.add_row(
            z["name"],
            Text(f"{colour} {tr(colour_word(colour))}", style=_COLOUR_STYLE.get(colour, "")),
            {"round": "R", "triangular": "T"}.get(z["roof"], "-"),
            f"{z['free']}/{z['small_spaces']}",
            fountains,
            "" if z["large"] == "none" else _tile(z["large"]),
            buildings or Text("-"),
            floors or Text("-"),
        )
    return table


def _players(obs: CapitolObservation) -> Table:
    table = Table(title=_("Players"))
    columns = (_("seat"), _("score"), _("hand"), _("known cards"), _("off-board buildings"), _("roofs R/T"))
    for col in (*columns, _("status")):
        table.add_column(col)
    for p in obs["players"]:
        s = p["seat"]
        marks = []
        if s == obs["consul"]:
            marks.append(_("Consul"))
        if s == obs["current_player"]:
            marks.append(_("to move"))
        if obs["phase"] == "construction" and not p["active"]:
            marks.append(_("passed"))
        if p["amph_bonus"] and obs["phase"] == "end":
            marks.append(ngettext("+{n} card", "+{n} cards", p["amph_bonus"]).format(n=p["amph_bonus"]))
        table.add_row(
            _seat(s),
            str(p["score"]),
            str(p["hand_size"]),
            _cards(p["known_cards"]) or "-",
            " ".join(f"{h}{r}" for h, r in p["offboard"]) or "-",
            f"{p['reserve']['round']}/{p['reserve']['triangular']}",
            ", ".join(marks),
        )
    return table


def _piles(obs: CapitolObservation) -> Table:
    table = Table(title=_("Draw piles (face up)"))
    for col in (_("pile"), _("cards"), _("top card"), _("discards")):
        table.add_column(col)
    for pile in obs["piles"]:
        kind = tr(CARD_TYPE_NAME[CARD_TYPES.index(pile["type"])])
        table.add_row(kind, str(pile["size"]), _card(pile["top"]), str(len(pile["discard"])))
    return table


def auction_log_round(obs: CapitolObservation) -> int:
    """The round of the auctions in ``auction.log``: this round's from the improvement phase on, else the last."""
    return obs["round"] if obs["phase"] != "construction" else obs["round"] - 1


def _auction(obs: CapitolObservation, seat: int | None) -> RenderableType:
    auction = obs["auction"]
    lines = Text()
    lots = auction["lots"]
    lines.append(_("Lots of round {round}:").format(round=obs["round"]))
    for i, lot in enumerate(lots):
        style = "bold reverse" if auction["lot"] == i else ""
        lines.append(f" {i + 1}. {_tile(lot)} ", style=style)
    lines.append("\n")
    if auction["lot"] is not None:
        now = _("Now auctioned: lot {number}, {tile}").format(
            number=auction["lot"] + 1, tile=_tile(lots[auction["lot"]])
        )
        lines.append(now + "\n", style="bold")
    if auction["log"]:
        lines.append(_("Auctions of round {round}:").format(round=auction_log_round(obs)) + "\n")
    for entry in auction["log"]:
        lines.append(f"{_tile(entry['tile'])}: ")
        if entry["bids"] is None:
            lines.append(_("not held (no free space)") + "\n")
            continue
        parts = []
        for s, bid in enumerate(entry["bids"]):
            parts.append(f"P{s} {sum(CARD_VALUE[c] for c in bid)} [{' '.join(_card(c) for c in bid)}]")
        winner = entry["winner"]
        where = f" -> Z{entry['zone'] + 1}" if entry["zone"] >= 0 else ""
        outcome = _("; won by P{winner}{where}").format(winner=winner, where=where) if winner >= 0 else _("; not sold")
        lines.append(", ".join(parts) + outcome + "\n")
    if auction["lot"] is not None:
        for s, sealed in enumerate(auction["bids"]):
            if sealed is None:
                continue
            shown = (
                _("sealed")
                if isinstance(sealed, str)
                else f"{sum(CARD_VALUE[c] for c in sealed)} [{' '.join(map(_card, sealed))}]"
            )
            lines.append(f"P{s}: {shown}\n")
        if auction["my_draft"] is not None:
            draft = auction["my_draft"]
            so_far = _("your bid so far: {value} [{cards}]").format(
                value=sum(CARD_VALUE[c] for c in draft), cards=" ".join(map(_card, draft))
            )
            lines.append(so_far + "\n")
            lines.append(known(_BID_HINT), style="dim")
    return Panel(lines, title=_("Improvement (sealed bids)"))


def _hand(obs: CapitolObservation) -> Text:
    hand = obs["hand"]
    if hand is None:
        return Text("")
    out = Text(_("Your hand: "), style="bold")
    out.append(" ".join(_card(c) for c in hand) or _("(empty)"))
    out.append("   " + _("(+ STOP; total value {value})").format(value=sum(CARD_VALUE[c] for c in hand)))
    return out


_BID_HINT = N_(
    "Bid several cards at once by typing their values or names, e.g. 'bid 3 5 7' or 'bid floor4 permitC1-6';\n"
    "'bid' alone seals an empty bid (STOP on top). Bids stay hidden until all are revealed.\n"
)


def _pending_text(obs: CapitolObservation, pending: Pending) -> str:
    """What the pending decision asks, in words."""
    kind, data = pending["kind"], pending["data"]
    if kind == "floor":
        return ngettext(
            "place {n} floor (on an unroofed building or starting a new one)",
            "place {n} floors, one at a time (on an unroofed building or starting a new one)",
            data[0],
        ).format(n=data[0])
    if kind == "roof":
        return _("choose an unroofed building and a roof type")
    if kind == "permit":
        return _("choose a completed building to place in a zone of colour C{colour}").format(colour=data[0] + 1)
    tile = tr(TILE_NAME[data[0]]) if 1 <= data[0] <= 3 else _("tile")
    if data[0] == 3:
        return _("place the {tile} just won on a free small space (mandatory)").format(tile=tile)
    return _("place the {tile} just won on a free large space (mandatory)").format(tile=tile)


def _scoring(obs: CapitolObservation) -> Table | None:
    """The last round's scoring by zone and seat (capitol.md §5.2 Phase 3), or None before the first scoring."""
    if not obs["scorings"]:
        return None
    last = obs["scorings"][-1]
    table = Table(title=_("Scoring of round {round}").format(round=last["round"]), title_justify="left")
    table.add_column(_("zone"))
    for p in range(len(last["total"])):
        table.add_column(_seat(p), justify="right")
    for zone, points in zip(obs["zones"], last["zones"], strict=True):
        if any(points):
            table.add_row(zone["name"], *(str(x) for x in points))
    table.add_row(Text(_("total"), style="bold"), *(Text(str(x), style="bold") for x in last["total"]))
    return table


def render(obs: CapitolObservation, seat: int | None) -> RenderableType:
    """Draw a Capitol observation for ``seat`` (None = public view)."""
    supply = obs["tiles_supply"]
    tiles = ", ".join(
        (
            ngettext("{n} fountain", "{n} fountains", supply["fountain"]).format(n=supply["fountain"]),
            ngettext("{n} amphitheatre", "{n} amphitheatres", supply["amphitheatre"]).format(n=supply["amphitheatre"]),
            ngettext("{n} temple", "{n} temples", supply["temple"]).format(n=supply["temple"]),
        )
    )
    head = Text(
        _(
            "Capitol - round {round}/4, {phase} phase; Consul P{consul}; floors left {floors}; tiles left: {tiles}"
        ).format(
            round=obs["round"],
            phase=_phase(obs["phase"]),
            consul=obs["consul"],
            floors=obs["floor_supply"],
            tiles=tiles,
        ),
        style="bold",
    )
    parts: list[RenderableType] = [head, _zones(obs), _players(obs), _piles(obs)]
    scoring = _scoring(obs)
    if scoring is not None and obs["phase"] in ("end", "over", "construction"):
        parts.append(scoring)
    if obs["phase"] == "improvement" or obs["auction"]["log"]:
        parts.append(_auction(obs, seat))
    pending = obs["pending"]
    if pending is not None:
        asked = _pending_text(obs, pending)
        parts.append(Text(_("P{seat} must now {what}").format(seat=pending["player"], what=asked), style="italic"))
    if obs["draw_queue"]:
        seat_, left = obs["draw_queue"][0]
        draws = ngettext("P{seat} draws {n} more card", "P{seat} draws {n} more cards, one at a time", left)
        parts.append(Text(draws.format(seat=seat_, n=left), style="italic"))
    parts.append(_hand(obs))
    return Group(*parts)


BID_WORDS = ("bid", "enchère", "enchere")
"""The first word of a bid line, in each language."""


def _local_names() -> dict[str, str]:  # noqa: N802 - a lookup table, built per language
    """Card names in the current language (lower case) -> the English names (``toit4`` -> ``roof4``)."""
    return {tr(CARD[c]).lower(): str(CARD[c]) for c in range(len(CARD))}


SHORTCUTS = N_(
    "Shortcuts, while you bid: 'bid 3 5 7' adds the cards of those values and seals the bid (a value two kinds "
    "share is asked); 'bid floor4 permitC1-6' names the cards; 'bid' or 'bid stop' seals an empty bid."
)
"""Every short form :func:`parse_input` accepts, for ``help``."""


def parse_input(text: str, legal_texts: list[str]) -> list[str] | None:
    """Expand ``bid 3 5 7`` or ``bid floor4 permitC1-6`` into ``bid: add ...`` texts followed by ``seal the bid``.

    ``legal_texts`` are the English texts (``action_to_string``); the line may be French (``enchère 3 toit4``).

    Numbers are card values (the first offered card of that value not yet used is taken); names are card names;
    ``0`` and ``stop`` are ignored (``bid`` or ``bid stop`` seals an empty bid).
    Returns None when the line does not start with ``bid`` or no bid is being made; ``[]`` for an unknown card.
    """
    words = text.strip().split()
    if not words or words[0].lower() not in BID_WORDS or "seal the bid" not in [t.lower() for t in legal_texts]:
        return None
    offered = [t[len("bid: add ") :] for t in legal_texts if t.lower().startswith("bid: add ")]
    by_lower = {n.lower(): n for n in CARD_BY_NAME}
    out: list[str] = []
    used: dict[str, int] = {}
    for word in words[1:]:
        w = word.lower().strip(",")
        if w == "stop":  # the STOP card is always under the bid
            continue
        if w.isdigit():
            if int(w) == 0:
                continue
            candidates = [n for n in offered if CARD_VALUE[CARD_BY_NAME[n]] == int(w)]
            if not candidates:
                return []
            kinds = sorted(set(candidates), key=candidates.index)
            typed = sum(1 for other in words[1:] if other.lower().strip(",") == w)
            if typed < len(kinds):  # "bid 4" with a roof 4 and a floor 4: never guess which one was meant
                raise InputProblem(
                    _("{value} is ambiguous: {cards}; type the card instead, e.g. bid {first}").format(
                        value=w, cards=" / ".join(kinds), first=kinds[0]
                    )
                )
            name = min(candidates, key=lambda n: used.get(n, 0))
        elif w in by_lower:
            name = by_lower[w]
        elif w in _local_names():
            name = _local_names()[w]
        else:
            return []
        used[name] = used.get(name, 0) + 1
        out.append(f"bid: add {name}")
    return [*out, "seal the bid"]
