"""Capital Lux 2 in the browser: the Capital's four districts and power tiles, the Cities, ROB in solo, the results.

Rules: capital_lux_2.md §6 (draft), §7-8 (play), §13 (scoring), §14 (ties), §15 (solo against ROB); issue #33.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.i18n import N_, Message, Translator
from meeple.web.games import Results, Variant, WebGame, score_sheet, seat_name

NO, YES = N_("no"), N_("yes")

ICONS: dict[str, str] = {
    # set A (Commencement)
    "agent": (
        '<path fill-rule="evenodd" d="M2 8Q12 3 22 8L20 15Q16 18 12 13Q8 18 4 15ZM'
        "5.5 10a2.2 1.6 0 1 0 4.4 0a2.2 1.6 0 1 0-4.4 0ZM"
        '14.1 10a2.2 1.6 0 1 0 4.4 0a2.2 1.6 0 1 0-4.4 0Z"/>'
    ),
    "clerc": (
        '<path d="M'
        "12 2.5a1.6 1.6 0 0 1 1.5 2C17 6 18 9 18 14l2.5 3.5h-17L6 14c0-5 1-8 4.5-9.5a1.6 1.6 0 0 1 1.5-2Z"
        'M9.5 19h5a2.5 2.5 0 0 1-5 0Z"/>'
    ),
    "marchand": (
        '<path fill-rule="evenodd" d="M3 12a9 9 0 1 0 18 0a9 9 0 1 0-18 0ZM'
        '8 12a4 4 0 1 1 8 0a4 4 0 1 1-8 0Z"/><circle cx="12" cy="12" r="1.8"/>'
    ),
    "savant": '<path d="M2 5Q7 3 11.3 6V20Q7 17 2 19ZM22 5Q17 3 12.7 6V20Q17 17 22 19Z"/>',
    # set B
    "infiltre": '<path d="M12 1.5 14.2 13H9.8ZM6.5 13h11v2h-11ZM11 15h2v5h-2ZM9.5 20h5v2.5h-5Z"/>',
    "prophete": (
        '<path fill-rule="evenodd" d="M1 12Q12 1 23 12Q12 23 1 12ZM'
        '7.5 12a4.5 4.5 0 1 0 9 0a4.5 4.5 0 1 0-9 0Z"/><circle cx="12" cy="12" r="2.2"/>'
    ),
    "disciple": (
        '<path d="M'
        "12 1.5C14 7 19.5 9 18.5 15A6.5 6.5 0 0 1 5.5 15C5 11 8 9 9 6C10 9 11 10 12 10.5C12.5 7 11 4.5 12 1.5Z"
        '"/>'
    ),
    "proselytiste": (
        '<path d="M2 9h4l11-5.5v17L6 15H2ZM19 10.8h4v2.4h-4ZM18.6 6.2l3.2-2 1.2 2-3.2 2ZM'
        '18.6 17.8l3.2 2 1.2-2-3.2-2Z"/>'
    ),
    # set C
    "recruteur": '<path d="M4.5 2h2.5v20H4.5ZM7 3h14l-3.5 4.5L21 12H7Z"/>',
    "missionnaire": '<path d="M11 1.5h2v21h-2ZM3.5 4.5h13.5l3 3-3 3H3.5ZM20.5 12.5H7l-3 3 3 3h13.5Z"/>',
    "aristocrate": '<path d="M2 17.5 3 6.5 8 11.5 12 3.5 16 11.5 21 6.5 22 17.5ZM2 19h20v2.5H2Z"/>',
    "explorateur": '<path d="M12 1 14.6 9.4 23 12 14.6 14.6 12 23 9.4 14.6 1 12 9.4 9.4Z"/>',
    # set D
    "etranger": '<path d="M1.5 15h21l-4 6.5h-13ZM11 2.5V14H3.5ZM13 4.5V14h6.5Z"/>',
    "mentaliste": (
        '<path fill-rule="evenodd" d="M2 12a10 10 0 1 0 20 0a10 10 0 1 0-20 0ZM'
        "5 12a7 7 0 1 1 14 0a7 7 0 1 1-14 0ZM8 12a4 4 0 1 0 8 0a4 4 0 1 0-8 0ZM"
        '10.5 12a1.5 1.5 0 1 1 3 0a1.5 1.5 0 1 1-3 0Z"/>'
    ),
    "sentinelle": (
        '<path fill-rule="evenodd" d="M4.5 2h3v2.5h2.3V2h4.4v2.5h2.3V2h3v7l-2.5 2v11h-11V11l-2.5-2ZM'
        '10 22v-5a2 2 0 0 1 4 0v5Z"/>'
    ),
    "dualiste": (
        '<path d="M2.5 4 4 2.5 21.5 20 20 21.5ZM21.5 4 20 2.5 2.5 20 4 21.5ZM'
        '3 15.5l5.5 5.5-1.4 1.4-5.5-5.5ZM21 15.5l-5.5 5.5 1.4 1.4 5.5-5.5Z"/>'
    ),
}
"""Each power tile's icon (inside a 24×24 ``<symbol>``, filled with the family's colour): our own drawing, shown on
the tile above its Capital district and on every card of its colour (issue #43 item 4)."""


def _card(message: Message) -> Message:
    """A citizen card without its id: "blue 3" (the engine's name adds "(#7)" for the command line)."""
    return Message(N_("{colour} {value}"), {"colour": message.args["colour"], "value": message.args["value"]})


PAST: dict[str, str] = {
    "choose seat {seat}": N_("{actor} chose {seat}"),
    "choose the {colour} district": N_("{actor} chose the {colour} district"),
    "give {card}": N_("{actor} gave {card}"),
    "keep a draft card": N_("{actor} kept a draft card"),
    "keep one of the cards seen": N_("{actor} kept one of the cards seen"),
    "keep {card}": N_("{actor} kept {card}"),
    "play {card} to the Capital ({tile})": N_("{actor} played {card} to the Capital ({tile})"),
    "play {card} to the City": N_("{actor} played {card} to their City"),
    "select {card}": N_("{actor} selected {card}"),
    "take {card}": N_("{actor} took {card}"),
    "pay {gold} gold to keep the {colour} district": N_("{actor} paid {gold} gold to keep the {colour} district"),
    "discard the {colour} City district": N_("{actor} discarded their {colour} City district"),
}
"""Each action in the past, with its player: the turn summary's sentences (issue #43)."""


class CapitalLux2Web(WebGame):
    """The web companion of Capital Lux 2."""

    name = "capital_lux_2"
    pitch = N_("Grow your City without outgrowing the Capital, whose cards set the limits.")
    folder = Path(__file__).resolve().parent
    clicks = {
        "keep_card": ("card",),
        "play_to_city": ("card",),
        "play_to_capital": ("card",),
        "select_card": ("card",),
        "give_card": ("card",),
        "take_card": ("card",),
        "choose_district": ("district",),
        "choose_seat": ("seat",),
        "pay_excess": ("district", "gold"),
        "discard_district": ("district",),
    }
    words = {(None, "{colour} {value} (#{id})"): _card}
    variants = {
        "config": Variant(
            N_("Power tiles"),
            {
                "A": N_("set A (Commencement)"),
                "B": N_("set B (provisional)"),
                "C": N_("set C (provisional)"),
                "D": N_("set D (provisional)"),
                "random": N_("one at random per colour"),
                "custom": N_("chosen one by one"),
            },
            N_(
                "The power tile of each colour: the rulebook's first set (Commencement), one of the three other sets "
                "(stand-ins: their real texts are not known), or one at random per colour."
            ),
            hidden=("custom",),
        ),
        "provisional_powers": Variant(
            N_("Allow the provisional power tiles"),
            {False: NO, True: YES},
            N_("Allows the stand-in tiles of the three other sets, whose real texts are not known."),
        ),
        "merchant_gold_covers_excess": Variant(
            N_("Merchant: gold may pay an excess"),
            {False: NO, True: YES},
            N_(
                "With the Merchant: when the districts are counted, a player may pay gold to keep a district that "
                "went over the Capital's."
            ),
        ),
        "clerc_excludes_pink": Variant(
            N_("Cleric: not from the pink district"),
            {False: NO, True: YES},
            N_(
                "The Cleric takes a card from a Capital district other than the pink one, as in the first Capital "
                "Lux; otherwise from any district."
            ),
        ),
        "tiles": Variant(N_("Chosen power tiles")),
        "agent_modifiers": Variant(N_("The Agent's modifier tokens")),
        "rob_deck": Variant(N_("ROB's deck")),
    }
    tie_rule = N_("Equal scores: the fewest gold wins; still equal, the win is shared.")
    past = PAST

    def marks(self, action: Mapping[str, Any], actor: int) -> list[str]:
        """The card played, taken or given (by its id), the Capital district or seat chosen (§7-9)."""
        if "card" in action:
            return [f"card-{action['card']}"]
        if action["type"] == "choose_district":
            return [f"capital-{action['district']}"]
        if action["type"] == "choose_seat":
            return [f"seat-{action['seat']}"]
        return []

    def context(
        self, view: dict[str, Any], seat: int | None, reader: Translator, names: Sequence[str | None] = ()
    ) -> dict[str, Any]:
        """Colours, letters, tiles and their effects, and the solo rating scale, in the reader's language."""
        from meeple.games.capital_lux_2.data import SOLO_RATINGS
        from meeple.games.capital_lux_2.powers import POWERS
        from meeple.games.capital_lux_2.vocabulary import COLOUR, LETTER, RATING

        lows = [low for low, _name in SOLO_RATINGS]
        highs = [low - 1 for low in lows[1:]] + [None]
        scale = [{"low": None, "high": -1, "label": reader.message(RATING["lost"])}] + [
            {"low": low, "high": high, "label": reader.message(RATING[name])}
            for (low, name), high in zip(SOLO_RATINGS, highs, strict=True)
        ]
        return {
            "scale": scale,
            "colour": [reader.message(m) for m in COLOUR],
            "letter": [reader.message(m) for m in LETTER],
            "tile": {t: reader.message(p.label_message) for t, p in POWERS.items()},
            "effect": {t: self.effect(p.effect, reader) for t, p in POWERS.items()},
            "icon": ICONS,
        }

    def effect(self, text: str, reader: Translator) -> str:
        """A power tile's text with its variant flags named in words ("“Merchant: gold may pay an excess”")."""
        return self.flag_words(reader.gettext(text), reader)

    def tooltips(self, reader: Translator) -> dict[str, str]:
        """Every power tile's text (§9 and the tiles' sheets)."""
        from meeple.games.capital_lux_2.powers import POWERS

        return {reader.message(p.label_message): self.effect(p.effect, reader) for p in POWERS.values()}

    def prompt(self, view: dict[str, Any], seat: int | None, reader: Translator) -> str:
        """A power's or a bonus's own question, else the draft or the play (§6-8)."""
        obs = view["observation"]
        types = {a["json"]["type"] for a in view["legal_actions"]}
        pending = obs.get("pending")
        if types and pending and pending.get("player") == seat:
            return self.say(pending["message"], reader)
        if "keep_card" in types:
            return reader.gettext("Keep one card of the pack; the rest passes on")
        if "play_to_city" in types or "play_to_capital" in types:
            return reader.gettext("Tap a card of your hand, then your City or the Capital")
        return super().prompt(view, seat, reader)

    def seat_facts(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> list[str]:
        """Gold, cards in hand, and with several players the running score (all public)."""
        facts = [reader.ngettext("{n} gold", "{n} gold", observation["gold"][seat]).format(n=observation["gold"][seat])]
        sizes = observation.get("hand_sizes")
        if sizes is not None and seat < len(sizes):
            facts.append(reader.ngettext("{n} card", "{n} cards", sizes[seat]).format(n=sizes[seat]))
        if not observation.get("solo"):
            facts.append(self.running_score(observation, seat, reader))
        if observation.get("emperor") == seat:
            facts.append(reader.gettext("Emperor"))
        return facts

    def seat_score(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> str:
        """The points anyone can count (:meth:`public_points`); at the end the score sheet's Total (§13)."""
        points = self.public_points(observation, seat)
        return reader.ngettext("{n} point", "{n} points", points).format(n=points)

    @staticmethod
    def public_points(observation: Mapping[str, Any], seat: int) -> int:
        """The points of ``seat`` anyone can count: its City's card values plus 2 per gold (§13, §3).

        The Bonus pile is face down (§11, §16): its cards are left out, and only their number is shown. At the end
        (the observation's final ``scores``), the seat's final score.
        """
        final = observation.get("scores")
        if final is not None and seat < len(final):
            return int(final[seat])
        city = sum(card["value"] for district in observation["cities"][seat]["districts"] for card in district)
        return int(city + 2 * observation["gold"][seat])

    def running_score(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> str:
        """The badge's running score, e.g. "23 points + 2 Bonus cards": :meth:`public_points`, the Bonus pile's size."""
        points = self.public_points(observation, seat)
        bonus = (observation.get("bonus_counts") or [0] * (seat + 1))[seat] if "scores" not in observation else 0
        said = reader.ngettext("{n} point", "{n} points", points).format(n=points)
        if not bonus:
            return said
        more = reader.ngettext("{n} Bonus card", "{n} Bonus cards", bonus).format(n=bonus)
        return reader.gettext("{points} + {bonus}").format(points=said, bonus=more)

    def secrets(self, observation: Mapping[str, Any], reader: Translator) -> list[str]:
        """The seat's hand and bonus pile (§6-11)."""
        from meeple.games.capital_lux_2.vocabulary import CARD

        def cards(items: Any) -> str:
            return ", ".join(self.say(CARD[c["id"]], reader) for c in items or ()) or "—"

        return [
            reader.gettext("Hand: {cards}").format(cards=cards(observation.get("hand"))),
            reader.gettext("Bonus pile: {cards}").format(cards=cards(observation.get("bonus"))),
        ]

    def round_phase(self, observation: Mapping[str, Any], reader: Translator) -> str:
        """The header's line, e.g. "Round 2 of 3 · draft" (§5: three rounds, each a draft then play)."""
        from meeple.games.capital_lux_2.vocabulary import DRAFT

        phase = {"play": N_("play"), "end": N_("game over")}
        if observation.get("phase") == "draft":
            word = reader.message(DRAFT)
        else:
            word = reader.gettext(phase.get(str(observation.get("phase")), N_("play")))
        return reader.gettext("Round {round} of 3 · {phase}").format(round=observation["round"], phase=word)

    def tiebreak_keys(self, observation: Mapping[str, Any], seats: int) -> list[tuple[float, ...]]:
        """The fewest gold first (§14)."""
        return [(-observation["gold"][s],) for s in range(seats)]

    def seat_label(
        self,
        observation: Mapping[str, Any],
        seat: int,
        reader: Translator,
        me: int | None = None,
        names: Sequence[str | None] = (),
    ) -> str:
        """ROB for participant 1 of a solo game (§15: ROB plays inside the rules, no seat); else :func:`seat_name`."""
        return "ROB" if observation.get("solo") and seat == 1 else seat_name(seat, reader, me, names)

    def _names(
        self, observation: Mapping[str, Any], reader: Translator, me: int | None, names: Sequence[str | None] = ()
    ) -> list[str]:
        count = len(observation["cities"])
        return [self.seat_label(observation, p, reader, me, names) for p in range(count)]

    def breakdown(
        self,
        observation: Mapping[str, Any],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> list[dict[str, Any]]:
        """Per participant: City points per colour, the Bonus pile, gold (2 each), powers, total (§13)."""
        from meeple.games.capital_lux_2.vocabulary import COLOUR

        finals = observation.get("scores") or list(scores)
        players = range(len(finals))
        city = [list(observation["cities"][p]["totals"]) for p in players]
        piles = observation.get("bonus_piles", [[]] * len(finals))
        bonus = [sum(c["value"] for c in piles[p]) for p in players]
        gold = [2 * observation["gold"][p] for p in players]
        total = [int(finals[p]) for p in players]
        lines = [(reader.message(c), [city[p][d] for p in players]) for d, c in enumerate(COLOUR)]
        lines += [
            (reader.gettext("Bonus pile"), bonus),
            (reader.gettext("Gold (×2)"), gold),
            (reader.gettext("Powers"), [total[p] - sum(city[p]) - bonus[p] - gold[p] for p in players]),
            (reader.gettext("Total"), total),
        ]
        return [score_sheet(reader.gettext("Points"), "", self._names(observation, reader, me, names), lines)]

    def results(
        self,
        observation: Mapping[str, Any],
        returns: Sequence[float],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> Results:
        """Solo: you against ROB, by the margin and the rulebook's rating (§15); else the generic ranking."""
        if not observation.get("solo"):
            return super().results(observation, returns, scores, reader, me, names)
        from meeple.games.capital_lux_2.vocabulary import RATING

        solo = observation["solo_result"]
        margin = int(solo["margin"])
        won = returns[0] == 1.0
        finals = observation["scores"]
        called = self._names(observation, reader, me, names)
        you, rob = {"seat": 0, "name": called[0], "score": finals[0]}, {"seat": 1, "name": "ROB", "score": finals[1]}
        first, second = (you, rob) if won else (rob, you)
        ranking = [{**first, "place": 1, "winner": True}, {**second, "place": 2, "winner": False}]
        rating = reader.message(RATING[solo["rating"]])
        if won:
            headline = reader.gettext("You beat ROB by {n} — {rating}").format(n=margin, rating=rating)
        elif margin < 0:
            headline = reader.gettext("ROB wins by {n}").format(n=-margin)
        else:
            headline = reader.gettext("ROB wins: equal scores, and you have no less gold")
        return Results(
            ranking=ranking,
            headline=headline,
            tie_rule=reader.gettext("Equal scores: you win with less gold than ROB."),
            tables=self.breakdown(observation, scores, reader, me, names),
            won=won,
        )


WEB = CapitalLux2Web()
"""Named by Capital Lux 2's ``GameSpec.web``."""
