"""Capitol in the browser: the nine zones with their buildings, the piles, the sealed bids, every round's scoring.

Rules: capitol.md §2 (board), §5.2 (the four phases: construction, improvement, scoring, end), §6 (final scoring);
issue #33.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.i18n import N_, Message, Translator
from meeple.i18n.message import plural
from meeple.web.games import Variant, WebGame, seat_name

NO, YES = N_("no"), N_("yes")


def _card_word(msgid: str) -> Any:
    """A Capitol card as players name it: ``Roof 7``, ``Floor 3``, ``Permit C3·5`` (the engine: ``roof7``...)."""

    def rewrite(message: Message) -> Message:
        return Message(msgid, dict(message.args))

    return rewrite


TILE_TIPS = {
    "fountain": N_(
        "Fountain: in its zone, first place scores 2 points plus 1 per fountain, second place 1 per fountain."
    ),
    "temple": N_("Temple: doubles every point scored in its zone."),
    "amphitheatre": N_(
        "Amphitheatre: at every End phase from now on, first place in its zone draws 2 cards more, second 1."
    ),
}
"""What a tile does, for tooltips and the rules page (capitol.md §5.2 phases 3-4)."""

PROMPTS: tuple[tuple[str, str], ...] = (
    ("add_to_bid", N_("Add cards to your sealed bid for the {tile}, then seal it")),
    ("seal_bid", N_("Add cards to your sealed bid for the {tile}, then seal it")),
    ("place_tile", N_("Choose the zone where your {tile} goes")),
    ("draw_card", N_("Draw a card from one of the face-up piles")),
    ("place_building", N_("Tap your roofed building beside the board, then the zone where it goes")),
    ("place_roof", N_("Tap a round or a triangular roof, then the building it goes on")),
    ("place_floor", N_("Choose the building your floor goes on, or start a new one")),
    ("play_card", N_("Play a card from your hand, or pass")),
)
"""The first legal action type found decides the prompt (capitol.md §5.2)."""

PAST: dict[str, str | Message] = {
    "bid: add {card}": N_("{actor} added {card} to their sealed bid"),
    "draw from {pile}": N_("{actor} drew from {pile}"),
    "floor: add onto the unroofed building of height {height}": N_(
        "{actor} added a floor onto their unroofed building of height {height}"
    ),
    "floor: start a new building": N_("{actor} started a new building"),
    "pass": N_("{actor} passed"),
    "place the tile in {zone} ({colour})": N_("{actor} placed the tile in {zone} ({colour})"),
    "place the {roof}-roofed building of height {height} in {zone} ({colour})": N_(
        "{actor} placed their {roof}-roofed building of height {height} in {zone} ({colour})"
    ),
    "play {card} and place a building": N_("{actor} played {card} to place a building"),
    "play {card} and place a roof": N_("{actor} played {card} to place a roof"),
    "play {card} and take floors": N_("{actor} played {card} to take floors"),
    "play {card} without its action": N_("{actor} played {card} without its action"),
    "play a floor card face down and take floors": N_("{actor} played a floor card face down to take floors"),
    "play a roof card face down and place a roof": N_("{actor} played a roof card face down to place a roof"),
    "play a {colour} permit face down and place a building": N_(
        "{actor} played a {colour} permit face down to place a building"
    ),
    "play a {type} card face down, without its action": N_(
        "{actor} played a {type} card face down, without its action"
    ),
    "prepare a sealed bid": N_("{actor} prepared a sealed bid"),
    "roof the building of height {height} with a {roof} roof": N_(
        "{actor} roofed their building of height {height} with a {roof} roof"
    ),
    "seal the bid": N_("{actor} sealed their bid"),
    "draws {card}, face up": N_("{actor} drew {card}, face up"),
    "scores {n} point in round {round} ({zones})": plural(
        "{actor} scored {n} point in round {round} ({zones})", "{actor} scored {n} points in round {round} ({zones})", 0
    ),
}
"""Each action and public event in the past, with its player: the turn summary's sentences (issue #43)."""


class CapitolWeb(WebGame):
    """The web companion of Capitol."""

    name = "capitol"
    pitch = N_("Raise the buildings of Rome floor by floor and win the majorities of its nine zones.")
    folder = Path(__file__).resolve().parent
    clicks = {
        "play_card": ("card", "act"),
        "add_to_bid": ("card",),
        "place_tile": ("zone",),
        "draw_card": ("pile",),
        "place_floor": ("onto",),
        "place_roof": ("height", "roof"),
        "place_building": ("height", "roof", "zone"),
    }
    controls = ("pass", "seal_bid")
    words = {
        ("capitol", "roof{value}"): _card_word(N_("Roof {value}")),
        ("capitol", "floor{value}"): _card_word(N_("Floor {value}")),
        ("capitol", "permit{colour}-{value}"): _card_word(N_("Permit {colour}·{value}")),
    }
    variants = {
        "end_draw": Variant(
            N_("End phase draw"),
            {
                "draw_six": N_("draw 6 cards (French rules)"),
                "refill_to_six": N_("refill the hand to 6 (Italian rules)"),
            },
        ),
        "floor_placement": Variant(
            N_("Where floors go"),
            {
                "free": N_("on any unfinished building (French rules)"),
                "tallest_incomplete_only": N_("only on the tallest unfinished one"),
            },
        ),
        "shared_first_blocks_second": Variant(
            N_("A shared first place leaves no second place"), {False: NO, True: YES}
        ),
        "zero_bid": Variant(
            N_("When every bid is empty"), {"tie_rule": N_("the Consul's tie rule decides"), "no_sale": N_("no sale")}
        ),
        "fountain_no_space": Variant(
            N_("A fountain with no free space"),
            {"skip_auction": N_("is not auctioned"), "award_no_place": N_("is auctioned and then removed")},
        ),
        "amph_bonus_timing": Variant(
            N_("Amphitheatre bonus cards"),
            {"with_own_draw": N_("drawn with one's own cards"), "after_all_draws": N_("drawn after everyone")},
        ),
        "exhausted_pile": Variant(
            N_("An empty draw pile"), {"flip_fifo": N_("turn its discards over"), "shuffle": N_("shuffle its discards")}
        ),
        "played_card": Variant(
            N_("Cards played in construction"),
            {
                "revealed": N_("shown, then discarded (Italian rules)"),
                "face_down": N_("discarded face down (French rules)"),
            },
        ),
        "floor_shortage": Variant(N_("Too few floors left"), {"take_remaining": N_("take what remains")}),
        "final_round_end_phase": Variant(N_("End phase of round 4"), {"skip": N_("skipped"), "play": N_("played")}),
        "final_tiebreak": Variant(N_("Equal final scores"), {"shared": N_("share the win")}),
        "first_consul": Variant(N_("First Consul")),
        "board_layout": Variant(N_("Board layout"), {"provisional_54": N_("provisional (54 small spaces)")}),
    }
    tie_rule = N_("Equal final scores share the win.")
    past = PAST

    def marks(self, action: Mapping[str, Any], actor: int) -> list[str]:
        """The zone a building or tile went to, the pile drawn from (capitol.md §5.2)."""
        if action["type"] in ("place_building", "place_tile"):
            return [f"zone-{action['zone']}"]
        if action["type"] == "draw_card":
            return [f"pile-{action['pile']}"]
        return []

    def context(
        self, view: dict[str, Any], seat: int | None, reader: Translator, names: Sequence[str | None] = ()
    ) -> dict[str, Any]:
        """Card, tile, roof and colour names in the reader's language (cards in human words: ``Roof 7``), card faces.

        Besides the names (computed once per language: ``_names``), ``build_here`` lists each zone's "build here"
        moves as ``(code, height, roof)``, ``build_from`` the ``(height, roof number)`` of the buildings that may go
        to a zone and ``roofs_to_place`` the roofs a ``place_roof`` may put on (tap, then tap: issue #43), and
        ``building_words(owner, height, roof)`` says a building ("Seat 2: 3 floors, roof round"): done here rather
        than in template loops and macros, which cost most of a Capitol board's render time
        (``benchmarks/board_render.py``, issue #33).
        """
        vocabulary = _names(reader)
        build_here: dict[int, list[tuple[int, int, str]]] = {}
        roofs: set[int] = set()
        for action in view["legal_actions"]:
            data = action["json"]
            if data["type"] == "place_building":
                build_here.setdefault(data["zone"], []).append((action["code"], data["height"], ROOFS[data["roof"]]))
            elif data["type"] == "place_roof":
                roofs.add(data["roof"])
        return {
            **vocabulary,
            "build_here": build_here,
            "build_from": {
                (height, 1 if roof == "round" else 2) for moves in build_here.values() for _c, height, roof in moves
            },
            "roofs_to_place": sorted(roofs),
            "building_words": _building_words(view, seat, reader, vocabulary, names),
        }

    def tooltips(self, reader: Translator) -> dict[str, str]:
        """The three tiles' effects (capitol.md §5.2)."""
        from meeple.games.capitol.data import TILE_NAMES
        from meeple.games.capitol.vocabulary import TILE_NAME

        return {
            reader.message(TILE_NAME[i]): reader.gettext(TILE_TIPS[n])
            for i, n in enumerate(TILE_NAMES)
            if n in TILE_TIPS
        }

    def prompt(self, view: dict[str, Any], seat: int | None, reader: Translator) -> str:
        """Capitol's decisions: the auctioned tile or the won one is named (capitol.md §5.2)."""
        from meeple.games.capitol.data import TILE_NAMES
        from meeple.games.capitol.vocabulary import TILE_NAME

        obs = view["observation"]
        types = {a["json"]["type"] for a in view["legal_actions"]}
        auction = obs.get("auction") or {}
        tile = ""
        if auction.get("lot") is not None:
            tile = auction["lots"][auction["lot"]]
        elif obs.get("pending") and obs["pending"]["kind"] == "tile" and auction.get("log"):
            tile = auction["log"][-1]["tile"]
        tile_word = reader.message(TILE_NAME[TILE_NAMES.index(tile)]) if tile in TILE_NAMES else ""
        for kind, text in PROMPTS:
            if kind in types:
                return reader.gettext(text).format(tile=tile_word)
        return super().prompt(view, seat, reader)

    def seat_facts(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> list[str]:
        """Score, cards in hand, the Consul (public)."""
        p = observation["players"][seat]
        facts = [
            reader.ngettext("{n} point", "{n} points", p["score"]).format(n=p["score"]),
            reader.ngettext("{n} card", "{n} cards", p["hand_size"]).format(n=p["hand_size"]),
        ]
        if observation.get("consul") == seat:
            facts.append(reader.gettext("Consul"))
        return facts

    def secrets(self, observation: Mapping[str, Any], reader: Translator) -> list[str]:
        """The seat's hand (capitol.md §1)."""
        from meeple.games.capitol.vocabulary import CARD

        hand = ", ".join(self.say(CARD[c], reader) for c in observation.get("hand") or ()) or "—"
        return [reader.gettext("Hand: {cards}").format(cards=hand)]

    def round_phase(self, observation: Mapping[str, Any], reader: Translator) -> str:
        """The header's line, e.g. "Round 2 of 4 · improvement" (capitol.md §5.2: the four phases)."""
        phase = {
            "construction": N_("construction"),
            "improvement": N_("improvement"),
            "end": N_("drawing"),
            "over": N_("game over"),
        }
        return reader.gettext("Round {round} of 4 · {phase}").format(
            round=observation["round"], phase=reader.gettext(phase.get(observation["phase"], "construction"))
        )

    def breakdown(
        self,
        observation: Mapping[str, Any],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> list[dict[str, Any]]:
        """Every round's zone table (the points each seat scored per zone) and the totals (capitol.md §5.2, §6)."""
        seats = len(observation["players"])
        head = [reader.gettext("Zone")] + [seat_name(s, reader, me, names) for s in range(seats)]
        tables = []
        for scoring in observation["scorings"]:
            rows: list[list[Any]] = [
                [observation["zones"][z]["name"], *points] for z, points in enumerate(scoring["zones"]) if any(points)
            ]
            rows.append([reader.gettext("Total"), *scoring["total"]])
            caption = reader.gettext("Scoring of round {round}").format(round=scoring["round"])
            tables.append({"caption": caption, "head": head, "rows": rows})
        return tables


ROOFS = ("none", "round", "triangular")
"""A roof's name by its number in the actions' JSON (``place_building``, ``place_roof``)."""


_NAMES: dict[str, dict[str, Any]] = {}
"""Capitol's names per language (``_names``)."""


def _names(reader: Translator) -> dict[str, Any]:
    """The card, tile, roof and colour names of Capitol in the reader's language (the same on every board: once)."""
    names = _NAMES.get(reader.lang)
    if names is None:
        names = _NAMES[reader.lang] = _names_in(reader)
    return names


def _names_in(reader: Translator) -> dict[str, Any]:
    """``_names``, computed."""
    from meeple.games.capitol.data import (
        CARD_COLOUR,
        CARD_REP,
        CARD_TYPE,
        CARD_TYPES,
        CARD_VALUE,
        COLOURS,
        ROOF_NAMES,
        TILE_NAMES,
    )
    from meeple.games.capitol.vocabulary import CARD, CARD_TYPE_NAME, ROOF_NAME, TILE_NAME, colour_legend, colour_word

    return {
        "card": [WEB.say(m, reader) for m in CARD],
        "rep": CARD_REP,  # actions name a card by the first id of its kind: identical cards are one move
        "kind": [CARD_TYPES[t] for t in CARD_TYPE],  # a card's face: its type's icon, its value, its permit colour
        "value": CARD_VALUE,
        "permit_colour": [COLOURS[c] if c >= 0 else "" for c in CARD_COLOUR],
        "card_type": [reader.message(m) for m in CARD_TYPE_NAME],
        "tile_name": {name: reader.message(TILE_NAME[i]) for i, name in enumerate(TILE_NAMES)},
        "roof_name": {name: reader.message(ROOF_NAME[i]) for i, name in enumerate(ROOF_NAMES)},
        "colour_word": {c: reader.message(colour_word(c)) for c in COLOURS},
        "colour_legend": colour_legend(reader.message),
        "tile_tip": {name: reader.gettext(text) for name, text in TILE_TIPS.items()},
    }


def _building_words(
    view: dict[str, Any],
    seat: int | None,
    reader: Translator,
    vocabulary: Mapping[str, Any],
    names: Sequence[str | None] = (),
) -> Any:
    """``words(owner, height, roof)``: a building in words, its accessible name ("Ann: 3 floors, roof round")."""
    roof_word, unroofed = reader.gettext("roof"), reader.gettext("unroofed")

    def words(owner: int, height: int, roof: str) -> str:
        floors = reader.ngettext("{n} floor", "{n} floors", height).format(n=height)
        where = f", {roof_word} {vocabulary['roof_name'][roof]}" if roof != "none" else f" ({unroofed})"
        return f"{seat_name(owner, reader, seat, names)}: {floors}{where}"

    return words


WEB = CapitolWeb()
"""Named by Capitol's ``GameSpec.web``."""
