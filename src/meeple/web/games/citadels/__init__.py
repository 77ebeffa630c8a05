"""Citadels in the browser: its board (characters, cities, hand as cards), prompts, variants and end screen.

Rules: citadels.md §3 (draft), §4 (turns and abilities), §5.2 rules 21-22 (scoring and ties); issue #33.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.i18n import N_, Message, Translator
from meeple.i18n.message import plural
from meeple.web.games import Variant, WebGame, seat_name

ABILITIES: tuple[str, ...] = (
    "",
    N_("Assassin: names a character, who loses the turn."),
    N_("Thief: names a character (not the Assassin nor the assassinated one) and takes its gold when it is called."),
    N_("Magician: swaps hands with a player, or exchanges cards with the deck."),
    N_("King: takes the crown; 1 gold per noble (yellow) district."),
    N_("Bishop: the Warlord cannot destroy its districts; 1 gold per religious (blue) district."),
    N_("Merchant: 1 gold more; 1 gold per trade (green) district."),
    N_("Architect: draws 2 cards more and may build up to 3 districts."),
    N_("Warlord: destroys a district by paying its cost minus 1; 1 gold per military (red) district."),
)
"""A character's ability in one line, by rank (citadels.md §4), for tooltips and the rules page."""

PROMPTS: tuple[tuple[str, str], ...] = (
    ("pick_character", N_("Choose your character for this round")),
    ("discard_character", N_("Choose a character to put aside face down")),
    ("assassinate", N_("Choose a character to assassinate")),
    ("rob", N_("Choose a character to rob")),
    ("confirm_exchange", N_("Choose the cards to put under the deck, then confirm the exchange")),
    ("swap_hands", N_("Swap hands with a player, or exchange cards with the deck")),
    ("keep_card", N_("Keep {keep} of the {drawn} cards you drew")),
    ("take_gold", N_("Take 2 gold or draw cards")),
    ("destroy_district", N_("Choose a district to destroy, or leave them all")),
    ("recover_district", N_("Take the destroyed district back into your hand for 1 gold?")),
    ("build_district", N_("Build a district from your hand, use an ability, or end your turn")),
    ("end_turn", N_("Use an ability or end your turn")),
)
"""The first legal action type found decides the prompt (citadels.md §3-4)."""

PAST: dict[str, str | Message] = {
    "assassinate {character}": N_("{actor} assassinated {character}"),
    "build {district}": N_("{actor} built {district}"),
    "cancel the exchange (choose your power again)": N_("{actor} cancelled the exchange"),
    "confirm the exchange": N_("{actor} exchanged cards with the deck"),
    "destroy nothing": N_("{actor} destroyed nothing"),
    "destroy {district} in seat {seat}'s city": N_("{actor} destroyed {district} in {seat}'s city"),
    "discard a card to the Laboratory for 1 gold": N_("{actor} discarded a card to the Laboratory for 1 gold"),
    "discard {district} to the Laboratory for 1 gold": N_("{actor} discarded {district} to the Laboratory for 1 gold"),
    "discard a character face down": N_("{actor} put a character aside face down"),
    "discard {character} face down": N_("{actor} put {character} aside face down"),
    "draw cards": N_("{actor} drew cards"),
    "end the turn": N_("{actor} ended the turn"),
    "exchange cards with the deck": N_("{actor} chose to exchange cards with the deck"),
    "keep a card": N_("{actor} kept a card"),
    "keep {district}": N_("{actor} kept {district}"),
    "let the destroyed district go (Graveyard)": N_("{actor} let the destroyed district go"),
    "pay 1 gold to take the destroyed district (Graveyard)": N_(
        "{actor} paid 1 gold to take the destroyed district back (Graveyard)"
    ),
    "pick a character": N_("{actor} picked a character"),
    "pick {character}": N_("{actor} picked {character}"),
    "rob {character}": N_("{actor} robbed {character}"),
    "select a card for the exchange": N_("{actor} chose a card for the exchange"),
    "select {district} for the exchange": N_("{actor} chose {district} for the exchange"),
    "swap hands with seat {seat}": N_("{actor} swapped hands with {seat}"),
    "take 2 gold": N_("{actor} took 2 gold"),
    "take income": N_("{actor} took their income"),
    "use the Smithy: pay 3 gold, draw 3 cards": N_("{actor} used the Smithy: 3 gold for 3 cards"),
    "reveals {character}": N_("{actor} revealed {character}"),
    "was {character}, killed this round": N_("{actor} was {character}, assassinated: no turn this round"),
    "the Thief takes {n} gold from seat {seat}": plural(
        "{actor}, the Thief, took {n} gold from {seat}", "{actor}, the Thief, took {n} gold from {seat}", 0
    ),
}
"""Each action and public event in the past, with its player: the turn summary's sentences (issue #43)."""


class CitadelsWeb(WebGame):
    """The web companion of Citadels."""

    name = "citadels"
    pitch = N_("Pick a secret character each round and build the most prestigious city.")
    folder = Path(__file__).resolve().parent
    clicks = {
        "pick_character": ("character",),
        "discard_character": ("character",),
        "build_district": ("kind",),
        "keep_card": ("kind",),
        "select_card": ("kind",),
        "discard_for_gold": ("kind",),
        "assassinate": ("character",),
        "rob": ("character",),
        "swap_hands": ("seat",),
        "destroy_district": ("seat", "kind"),
    }
    controls = (
        "take_gold",
        "draw_cards",
        "take_income",
        "exchange_cards",
        "confirm_exchange",
        "cancel_exchange",
        "use_smithy",
        "end_turn",
        "decline_destroy",
        "recover_district",
        "decline_recover",
    )
    variants = {
        "quick_game": Variant(
            N_("Quick game"), {"off": N_("no: 8 districts"), "7": N_("7 districts"), "6": N_("6 districts")}
        ),
        "killed_king_takes_crown": Variant(
            N_("An assassinated King still takes the crown"), {False: N_("no"), True: N_("yes")}
        ),
        "deck": Variant(N_("District deck"), {"fr1": N_("French 1st edition"), "en": N_("English edition")}),
        "great_wall": Variant(N_("Add the Great Wall (English deck)"), {False: N_("no"), True: N_("yes")}),
        "variant_2p_ffg": Variant(N_("Two-player variant (2 characters each)"), {False: N_("no"), True: N_("yes")}),
        "variant_3p_ffg": Variant(N_("Three-player variant (2 characters each)"), {False: N_("no"), True: N_("yes")}),
        "max_rounds": Variant(N_("Round limit")),
    }
    tie_rule = N_("Equal scores: the most district value wins, then the most gold; still equal, the win is shared.")
    past = PAST

    def marks(self, action: Mapping[str, Any], actor: int) -> list[str]:
        """A named character, a district built (its builder's city and card), a target seat (citadels.md §4)."""
        kind = action["type"]
        if kind in ("assassinate", "rob", "pick_character", "discard_character"):
            return [f"character-{action['character']}"]
        if kind == "build_district":
            return [f"district-{actor}-{action['kind']}"]
        if kind in ("destroy_district", "swap_hands"):
            return [f"seat-{action['seat']}"]
        return []

    def event_marks(self, message: Message, seat: int) -> list[str]:
        """A character revealed or found assassinated; the seat the Thief robbed (citadels.md §4)."""
        from meeple.games.citadels.vocabulary import THE_CHARACTER

        named = message.args.get("character")
        if named in THE_CHARACTER:
            return [f"character-{THE_CHARACTER.index(named)}"]
        if isinstance(message.args.get("seat"), int):
            return [f"seat-{message.args['seat']}"]
        return []

    def context(
        self, view: dict[str, Any], seat: int | None, reader: Translator, names: Sequence[str | None] = ()
    ) -> dict[str, Any]:
        """Character, district and colour names and the purple districts' texts, in the reader's language."""
        from meeple.games.citadels.data import COLOURS
        from meeple.games.citadels.vocabulary import CHARACTER, COLOUR, DISTRICT, PURPLE_TEXT

        return {
            "character": [reader.message(m) for m in CHARACTER],
            "district": [reader.message(m) for m in DISTRICT],
            "colour": {name: reader.message(COLOUR[i]) for i, name in enumerate(COLOURS)},
            "purple": {kind: reader.message(m) for kind, m in PURPLE_TEXT.items()},
            "ability": [reader.gettext(a) if a else "" for a in ABILITIES],
        }

    def tooltips(self, reader: Translator) -> dict[str, str]:
        """The eight characters' abilities and the purple districts' texts (citadels.md §4, §6)."""
        from meeple.games.citadels.vocabulary import CHARACTER, DISTRICT, PURPLE_TEXT

        out = {f"{rank}. {reader.message(CHARACTER[rank])}": reader.gettext(ABILITIES[rank]) for rank in range(1, 9)}
        out.update({reader.message(DISTRICT[kind]): reader.message(m) for kind, m in PURPLE_TEXT.items()})
        return out

    def prompt(self, view: dict[str, Any], seat: int | None, reader: Translator) -> str:
        """Citadels' decisions, from the legal actions and the pending decision (citadels.md §3-4)."""
        types = {a["json"]["type"] for a in view["legal_actions"]}
        pending = view["observation"].get("pending") or {}
        for kind, text in PROMPTS:
            if kind in types:
                drawn = len(pending.get("cards") or ())
                return reader.gettext(text).format(keep=pending.get("keep", 1), drawn=drawn)
        return super().prompt(view, seat, reader)

    def seat_facts(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> list[str]:
        """Gold, cards in hand, districts built, points so far (§5.2 rule 21, from the public cities), the crown."""
        s = observation["seats"][seat]
        points = observation["scores"][seat]["total"]
        facts = [
            reader.ngettext("{n} gold", "{n} gold", s["gold"]).format(n=s["gold"]),
            reader.ngettext("{n} card", "{n} cards", s["hand_size"]).format(n=s["hand_size"]),
            reader.ngettext("{n} district", "{n} districts", s["city_size"]).format(n=s["city_size"]),
            reader.ngettext("{n} point", "{n} points", points).format(n=points),
        ]
        if observation["crown"] == seat:
            facts.append(reader.gettext("crown"))
        return facts

    def secrets(self, observation: Mapping[str, Any], reader: Translator) -> list[str]:
        """The seat's characters and hand (citadels.md §3)."""
        from meeple.games.citadels.vocabulary import CHARACTER, DISTRICT

        out = []
        if observation.get("my_characters"):
            names = ", ".join(reader.message(CHARACTER[c]) for c in observation["my_characters"])
            out.append(reader.gettext("Characters: {names}").format(names=names))
        hand = ", ".join(reader.message(DISTRICT[d["kind"]]) for d in observation.get("hand") or ()) or "—"
        out.append(reader.gettext("Hand: {cards}").format(cards=hand))
        return out

    def round_phase(self, observation: Mapping[str, Any], reader: Translator) -> str:
        """The header's line, e.g. "Round 3 · choosing characters" / "Round 3 · turns" (citadels.md §3-4)."""
        phase = {"draft": N_("choosing characters"), "turn": N_("turns"), "end": N_("game over")}
        return reader.gettext("Round {round} · {phase}").format(
            round=observation["round"], phase=reader.gettext(phase.get(observation["phase"], "turns"))
        )

    def tiebreak_keys(self, observation: Mapping[str, Any], seats: int) -> list[tuple[float, ...]]:
        """District value, then gold (§5.2 rule 22)."""
        return [(observation["scores"][s]["districts"], observation["seats"][s]["gold"]) for s in range(seats)]

    def breakdown(
        self,
        observation: Mapping[str, Any],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> list[dict[str, Any]]:
        """Districts, five colours, first complete city, other complete city, total, gold (§5.2 rule 21)."""
        head = [
            reader.gettext("Player"),
            reader.gettext("Districts"),
            reader.gettext("Five colours"),
            reader.gettext("First complete city"),
            reader.gettext("Complete city"),
            reader.gettext("Total"),
            reader.gettext("Gold"),
        ]
        rows = []
        for s, score in enumerate(observation["scores"]):
            rows.append(
                [
                    seat_name(s, reader, me, names),
                    score["districts"],
                    score["five_colours"],
                    score["first_complete"],
                    score["complete"],
                    score["total"],
                    observation["seats"][s]["gold"],
                ]
            )
        caption = reader.gettext("Points (district costs; University and Dragon Gate count 8)")
        return [{"caption": caption, "head": head, "rows": rows}]


WEB = CitadelsWeb()
"""Named by Citadels' ``GameSpec.web``."""
