"""Capital Lux 2 in the browser: the Capital's four districts and power tiles, the Cities, ROB in solo, the results.

Rules: capital_lux_2.md §6 (draft), §7-8 (play), §13 (scoring), §14 (ties), §15 (solo against ROB); issue #33.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.i18n import N_, Message, Translator
from meeple.web.games import Results, Variant, WebGame, seat_name

NO, YES = N_("no"), N_("yes")


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
                "custom": N_("chosen (tiles field)"),
            },
        ),
        "provisional_powers": Variant(N_("Allow the provisional power tiles"), {False: NO, True: YES}),
        "merchant_gold_covers_excess": Variant(N_("Merchant: gold may pay an excess"), {False: NO, True: YES}),
        "clerc_excludes_pink": Variant(N_("Cleric: not from the pink district"), {False: NO, True: YES}),
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
        }

    def effect(self, text: str, reader: Translator) -> str:
        """A power tile's text with its variant flags named in words ("«Merchant: gold may pay an excess»")."""
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

    @staticmethod
    def public_points(observation: Mapping[str, Any], seat: int) -> int:
        """The points of ``seat`` anyone can count: its City's card values plus 2 per gold (§13, §3).

        The Bonus pile is face down (§11, §16): its cards are left out, and only their number is shown.
        """
        city = sum(card["value"] for district in observation["cities"][seat]["districts"] for card in district)
        return int(city + 2 * observation["gold"][seat])

    def running_score(self, observation: Mapping[str, Any], seat: int, reader: Translator) -> str:
        """The badge's running score, e.g. "23 points + 2 Bonus cards": :meth:`public_points`, the Bonus pile's size."""
        points = self.public_points(observation, seat)
        bonus = (observation.get("bonus_counts") or [0] * (seat + 1))[seat]
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
        phase = {"draft": N_("draft"), "play": N_("play"), "end": N_("game over")}
        word = phase.get(str(observation.get("phase")), N_("play"))
        return reader.gettext("Round {round} of 3 · {phase}").format(
            round=observation["round"], phase=reader.gettext(word)
        )

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

        head = [reader.gettext("Player"), *(reader.message(c) for c in COLOUR)]
        head += [
            reader.gettext("Bonus pile"),
            reader.gettext("Gold (×2)"),
            reader.gettext("Powers"),
            reader.gettext("Total"),
        ]
        rows = []
        finals = observation.get("scores") or list(scores)
        for p, name in enumerate(self._names(observation, reader, me, names)):
            city = list(observation["cities"][p]["totals"])
            bonus = sum(c["value"] for c in observation.get("bonus_piles", [[]] * len(finals))[p])
            gold = 2 * observation["gold"][p]
            total = int(finals[p])
            rows.append([name, *city, bonus, gold, total - sum(city) - bonus - gold, total])
        return [{"caption": reader.gettext("Points"), "head": head, "rows": rows}]

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
