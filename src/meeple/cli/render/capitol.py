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

from meeple.games.capitol.data import CARD_BY_NAME, CARD_NAME, CARD_VALUE, COLOUR_ALIASES
from meeple.games.capitol.observation import CapitolObservation, Pending

_SEAT_STYLE = ("green", "red", "blue", "yellow")
_COLOUR_STYLE = {"C1": "cyan", "C2": "magenta", "C3": "orchid"}


def _seat(s: int) -> Text:
    return Text(f"P{s}", style=f"bold {_SEAT_STYLE[s % 4]}")


def _card(c: int | None) -> str:
    return "-" if c is None else CARD_NAME[c]


def _cards(ids: list[int]) -> str:
    """Card names, identical cards grouped (``floor4 x2``)."""
    counts: dict[str, int] = {}
    for c in ids:
        counts[CARD_NAME[c]] = counts.get(CARD_NAME[c], 0) + 1
    return " ".join(name if k == 1 else f"{name} x{k}" for name, k in counts.items())


def _zones(obs: CapitolObservation) -> Table:
    aliases = ", ".join(f"{c} = {'/'.join(a)}" for c, a in COLOUR_ALIASES.items())
    table = Table(
        title=f"Board ({aliases})",
        caption="roof: R round, T triangular; free: free/total small spaces; fountains: printed+tiles",
        expand=False,
    )
    for col in ("zone", "colour", "roof", "free", "fountains", "large", "buildings (P:h)", "floors"):
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
            Text(colour, style=_COLOUR_STYLE.get(colour, "")),
            {"round": "R", "triangular": "T"}.get(z["roof"], "-"),
            f"{z['free']}/{z['small_spaces']}",
            fountains,
            "" if z["large"] == "none" else z["large"],
            buildings or Text("-"),
            floors or Text("-"),
        )
    return table


def _players(obs: CapitolObservation) -> Table:
    table = Table(title="Players")
    for col in ("seat", "score", "hand", "known cards", "off-board buildings", "roofs R/T", "status"):
        table.add_column(col)
    for p in obs["players"]:
        s = p["seat"]
        marks = []
        if s == obs["consul"]:
            marks.append("Consul")
        if s == obs["current_player"]:
            marks.append("to move")
        if obs["phase"] == "construction" and not p["active"]:
            marks.append("passed")
        if p["amph_bonus"] and obs["phase"] == "end":
            marks.append(f"+{p['amph_bonus']} cards")
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
    table = Table(title="Draw piles (face up)")
    for col in ("pile", "cards", "top card", "discards"):
        table.add_column(col)
    for pile in obs["piles"]:
        table.add_row(pile["type"], str(pile["size"]), _card(pile["top"]), str(len(pile["discard"])))
    return table


def _auction(obs: CapitolObservation, seat: int | None) -> RenderableType:
    auction = obs["auction"]
    lines = Text()
    lots = auction["lots"]
    for i, lot in enumerate(lots):
        style = "bold reverse" if auction["lot"] == i else ""
        lines.append(f" {i + 1}. {lot} ", style=style)
    lines.append("\n")
    for entry in auction["log"]:
        lines.append(f"{entry['tile']}: ")
        if entry["bids"] is None:
            lines.append("not held (no free space)\n")
            continue
        parts = []
        for s, bid in enumerate(entry["bids"]):
            parts.append(f"P{s} {sum(CARD_VALUE[c] for c in bid)} [{' '.join(CARD_NAME[c] for c in bid)}]")
        winner = entry["winner"]
        where = f" -> Z{entry['zone'] + 1}" if entry["zone"] >= 0 else ""
        lines.append(", ".join(parts) + (f"; won by P{winner}{where}" if winner >= 0 else "; not sold") + "\n")
    if auction["lot"] is not None:
        for s, sealed in enumerate(auction["bids"]):
            if sealed is None:
                continue
            shown = (
                sealed
                if isinstance(sealed, str)
                else f"{sum(CARD_VALUE[c] for c in sealed)} [{' '.join(map(_card, sealed))}]"
            )
            lines.append(f"P{s}: {shown}\n")
        if auction["my_draft"] is not None:
            draft = auction["my_draft"]
            lines.append(f"your bid so far: {sum(CARD_VALUE[c] for c in draft)} [{' '.join(map(_card, draft))}]\n")
            lines.append(_BID_HINT, style="dim")
    return Panel(lines, title="Improvement (sealed bids)")


def _hand(obs: CapitolObservation) -> Text:
    hand = obs["hand"]
    if hand is None:
        return Text("")
    out = Text("Your hand: ", style="bold")
    out.append(" ".join(CARD_NAME[c] for c in hand) or "(empty)")
    out.append(f"   (+ STOP; total value {sum(CARD_VALUE[c] for c in hand)})")
    return out


_BID_HINT = (
    "Bid several cards at once by typing their values or names, e.g. 'bid 3 5 7' or 'bid floor4 permitC1-6';\n"
    "'bid' alone seals an empty bid (STOP on top). Bids stay hidden until all are revealed.\n"
)


def _pending_text(obs: CapitolObservation, pending: Pending) -> str:
    """What the pending decision asks, in words."""
    kind, data = pending["kind"], pending["data"]
    if kind == "floor":
        return f"place {data[0]} floor(s), one at a time (on an unroofed building or starting a new one)"
    if kind == "roof":
        return "choose an unroofed building and a roof type"
    if kind == "permit":
        return f"choose a completed building to place in a zone of colour C{data[0] + 1}"
    tile = {1: "amphitheatre", 2: "temple", 3: "fountain"}.get(data[0], "tile")
    where = "a free small space" if tile == "fountain" else "a free large space"
    return f"place the {tile} just won on {where} (mandatory)"


def render(obs: CapitolObservation, seat: int | None) -> RenderableType:
    """Draw a Capitol observation for ``seat`` (None = public view)."""
    supply = obs["tiles_supply"]
    head = Text(
        f"Capitol - round {obs['round']}/4, {obs['phase']} phase; Consul P{obs['consul']}; "
        f"floors left {obs['floor_supply']}; tiles left: {supply['fountain']} fountains, "
        f"{supply['amphitheatre']} amphitheatres, {supply['temple']} temples",
        style="bold",
    )
    parts: list[RenderableType] = [head, _zones(obs), _players(obs), _piles(obs)]
    if obs["phase"] == "improvement" or obs["auction"]["log"]:
        parts.append(_auction(obs, seat))
    pending = obs["pending"]
    if pending is not None:
        parts.append(Text(f"P{pending['player']} must now {_pending_text(obs, pending)}", style="italic"))
    if obs["draw_queue"]:
        seat_, left = obs["draw_queue"][0]
        parts.append(Text(f"P{seat_} draws {left} more card(s), one at a time", style="italic"))
    parts.append(_hand(obs))
    return Group(*parts)


def parse_input(text: str, legal_texts: list[str]) -> list[str] | None:
    """Expand ``bid 3 5 7`` or ``bid floor4 permitC1-6`` into ``bid: add ...`` texts followed by ``seal the bid``.

    Numbers are card values (the first offered card of that value not yet used is taken); names are card names;
    ``0`` and ``stop`` are ignored (``bid`` or ``bid stop`` seals an empty bid).
    Returns None when the line does not start with ``bid`` or no bid is being made; ``[]`` for an unknown card.
    """
    words = text.strip().split()
    if not words or words[0].lower() != "bid" or "seal the bid" not in [t.lower() for t in legal_texts]:
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
            name = min(candidates, key=lambda n: used.get(n, 0))
        elif w in by_lower:
            name = by_lower[w]
        else:
            return []
        used[name] = used.get(name, 0) + 1
        out.append(f"bid: add {name}")
    return [*out, "seal the bid"]
