"""Citadels in the browser: its board (characters, cities, hand as cards), prompts, variants and end screen.

Rules: citadels.md §3 (draft), §4 (turns and abilities), §5.2 rules 21-22 (scoring and ties); issue #33.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.i18n import N_, Message, Translator, term
from meeple.i18n.message import plural
from meeple.web.games import Variant, WebGame, either, score_sheet, seat_name

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

PROMPTS: tuple[tuple[str, Message], ...] = (
    ("pick_character", term("citadels prompt", "choose your character for this round")),
    ("discard_character", term("citadels prompt", "choose a character to put aside face down")),
    (
        "recover_district",
        term("citadels prompt", "take the destroyed district back into your hand for 1 gold, or leave it"),
    ),
    ("assassinate", term("citadels prompt", "choose a character to assassinate")),
    ("rob", term("citadels prompt", "choose a character to rob")),
    ("swap_hands", term("citadels prompt", "swap hands with a player")),
    ("exchange_cards", term("citadels prompt", "exchange cards with the deck")),
    ("select_card", term("citadels prompt", "choose the cards to put under the deck")),
    ("confirm_exchange", term("citadels prompt", "confirm the exchange")),
    ("cancel_exchange", term("citadels prompt", "cancel the exchange")),
    ("keep_card", term("citadels prompt", "keep {keep} of the {drawn} cards you drew")),
    ("destroy_district", term("citadels prompt", "choose a district to destroy")),
    ("decline_destroy", term("citadels prompt", "leave them all")),
    ("take_gold", term("citadels prompt", "take 2 gold")),
    ("draw_cards", term("citadels prompt", "draw cards")),
    ("take_income", term("citadels prompt", "take your income")),
    ("build_district", term("citadels prompt", "build a district from your hand")),
    ("discard_for_gold", term("citadels prompt", "discard a card for 1 gold (Laboratory)")),
    ("use_smithy", term("citadels prompt", "use the Smithy")),
    ("end_turn", term("citadels prompt", "end your turn")),
)
"""What each kind of move asks, in the order a prompt names them: a prompt names every kind that is legal, so that
its words match the board ("Choose a character to rob, take 2 gold or draw cards"; citadels.md §3-4). The context
``citadels prompt`` keeps them apart from the moves' own words: a prompt asks ("prenez 2 pièces d'or"), a move says
what it does ("prendre 2 pièces d'or")."""

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
            N_("Quick game"),
            {"off": N_("no: 8 districts"), "7": N_("7 districts"), "6": N_("6 districts")},
            N_("A shorter game: it ends once a city has 7 or 6 districts instead of 8."),
        ),
        "killed_king_takes_crown": Variant(
            N_("An assassinated King still takes the crown"),
            {False: N_("no"), True: N_("yes")},
            N_(
                "The rulebook's variant: the King's player takes the crown at the end of the round, even when "
                "assassinated."
            ),
        ),
        "deck": Variant(
            N_("District deck"),
            {"fr1": N_("French 1st edition"), "en": N_("English edition")},
            N_(
                "The district cards: the French first edition's (4 Churches, 2 Palaces) or the English edition's "
                "(3 Churches, 3 Palaces)."
            ),
        ),
        "great_wall": Variant(
            N_("Add the Great Wall (English deck)"),
            {False: N_("no"), True: N_("yes")},
            N_(
                "With the English edition's deck: the Great Wall is added (cost 6; the Warlord pays 1 more to destroy "
                "a district in its city)."
            ),
        ),
        "variant_2p_ffg": Variant(
            N_("Two-player variant (2 characters each)"),
            {False: N_("no"), True: N_("yes")},
            N_(
                "For two players, as in the English edition: each plays two characters, the characters put aside "
                "are face down, and the game ends at 8 districts."
            ),
        ),
        "variant_3p_ffg": Variant(
            N_("Three-player variant (2 characters each)"),
            {False: N_("no"), True: N_("yes")},
            N_(
                "For three players, as in the English edition: each plays two characters, the Assassin included, and "
                "the game ends at 8 districts."
            ),
        ),
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
        """Every kind of move the seat has, in words (citadels.md §3-4; issue #43 item 8)."""
        types = {a["json"]["type"] for a in view["legal_actions"]}
        pending = view["observation"].get("pending") or {}
        drawn = len(pending.get("cards") or ())
        said = [
            reader.message(text).format(keep=pending.get("keep", 1), drawn=drawn)
            for kind, text in PROMPTS
            if kind in types
        ]
        return either(said, reader) if said else super().prompt(view, seat, reader)

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

    def seat_score(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> str:
        """The points of the seat's public city (§5.2 rule 21)."""
        points = observation["scores"][seat]["total"]
        return reader.ngettext("{n} point", "{n} points", points).format(n=points)

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
        """Districts, five colours, first complete city, other complete city, gold, total (§5.2 rules 21-22)."""
        seats = range(len(observation["scores"]))
        score = observation["scores"]
        lines = [
            (reader.gettext("Districts"), [score[s]["districts"] for s in seats]),
            (reader.gettext("Five colours"), [score[s]["five_colours"] for s in seats]),
            (reader.gettext("First complete city"), [score[s]["first_complete"] for s in seats]),
            (reader.gettext("Complete city"), [score[s]["complete"] for s in seats]),
            (reader.gettext("Gold left (breaks ties)"), [observation["seats"][s]["gold"] for s in seats]),
            (reader.gettext("Total"), [score[s]["total"] for s in seats]),
        ]
        caption = reader.gettext("Points (district costs; University and Dragon Gate count 8)")
        players = [seat_name(s, reader, me, names) for s in seats]
        return [score_sheet(caption, "", players, lines)]


WEB = CitadelsWeb()
"""Named by Citadels' ``GameSpec.web``."""
