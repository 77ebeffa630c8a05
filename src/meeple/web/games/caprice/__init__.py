"""Caprice in the browser: six towers of dark/light, round/toothed pieces; at the end every player's symbols.

Rules: caprice.md §5-10 (placing, moving, the red marker), §11-13 (scoring and symbol orders), §14 (ties); issue #33.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from meeple.i18n import N_, Message, Translator
from meeple.web.games import Results, Variant, WebGame, seat_name


def _in_words(message: Message) -> Message:
    """A piece or symbol code in an action's text as its name in words: "place light round on A", not "LR".

    Codes are what the terminal types; on the web the pieces are drawn and named (caprice.md §1).
    """
    from meeple.games.caprice.vocabulary import PIECE

    args = {
        k: PIECE.get(v, v) if k in ("piece", "symbol") and isinstance(v, str) else v for k, v in message.args.items()
    }
    return Message(message.msgid, args, message.context, message.plural)


PROMPTS: tuple[tuple[str, str], ...] = (
    ("keep_symbol", N_("You drew a third copy of a symbol: keep it or exchange it")),
    ("order_symbol", N_("Put your symbols in order, bottom to top: choose the next one")),
    ("place", N_("Place a piece from the supply on a tower")),
    ("move", N_("Move the top piece of a tower onto another tower, or skip")),
    ("skip_move", N_("Move the top piece of a tower onto another tower, or skip")),
)
"""The first legal action type found decides the prompt (caprice.md §5-13)."""


class CapriceWeb(WebGame):
    """The web companion of Caprice."""

    name = "caprice"
    pitch = N_("Stack six towers in the order only your hidden symbols know.")
    folder = Path(__file__).resolve().parent
    clicks = {"place": ("piece", "space"), "move": ("source", "target"), "order_symbol": ("symbol",)}
    controls = ("skip_move", "keep_symbol", "exchange_symbol")
    words = {(None, "place {piece} on {space}"): _in_words, (None, "put {symbol} next in the order"): _in_words}
    variants = {
        "third_symbol_exchange": Variant(
            N_("A drawn third copy of a symbol"),
            {"optional": N_("may be exchanged (French rules)"), "mandatory": N_("must be exchanged")},
        ),
        "symbol_order": Variant(
            N_("Final order of the symbols"),
            {"best": N_("the best one, found for you"), "manual": N_("chosen by each player")},
        ),
        "first_player": Variant(N_("First player")),
    }
    tie_rule = N_("Equal points: the tied player who comes soonest after the one who ended the game wins.")

    def context(
        self, view: dict[str, Any], seat: int | None, reader: Translator, names: Sequence[str | None] = ()
    ) -> dict[str, Any]:
        """The pieces' names in the reader's language."""
        from meeple.games.caprice.vocabulary import PIECE

        return {"piece": {code: reader.message(m) for code, m in PIECE.items()}}

    def prompt(self, view: dict[str, Any], seat: int | None, reader: Translator) -> str:
        """Caprice's decisions (caprice.md §5-13)."""
        types = {a["json"]["type"] for a in view["legal_actions"]}
        for kind, text in PROMPTS:
            if kind in types:
                return reader.gettext(text)
        return super().prompt(view, seat, reader)

    def secrets(self, observation: Mapping[str, Any], reader: Translator) -> list[str]:
        """The seat's hidden symbols (caprice.md §4)."""
        from meeple.games.caprice.vocabulary import PIECE

        symbols = ", ".join(reader.message(PIECE[x]) for x in observation.get("symbols") or ()) or "—"
        return [reader.gettext("Symbols: {symbols}").format(symbols=symbols)]

    def round_phase(self, observation: Mapping[str, Any], reader: Translator) -> str:
        """The header's line, e.g. "Full towers: 2/5" (caprice.md §9: the game ends when 5 towers have height 4)."""
        return reader.gettext("Full towers: {full}/5").format(full=observation.get("full_towers", 0))

    def results(
        self,
        observation: Mapping[str, Any],
        returns: Sequence[float],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> Results:
        """The ranking (ties: soonest after the ender, §14) and every player's symbols and points per tower."""
        found = super().results(observation, returns, scores, reader, me, names)
        ender = observation.get("ender")
        if ender is not None:
            n = len(returns)
            found.ranking.sort(key=lambda r: (-r["winner"], -r["score"], (r["seat"] - ender - 1) % n))
            for index, row in enumerate(found.ranking):
                row["place"] = index + 1
        return found

    def breakdown(
        self,
        observation: Mapping[str, Any],
        scores: Sequence[float],
        reader: Translator,
        me: int | None,
        names: Sequence[str | None] = (),
    ) -> list[dict[str, Any]]:
        """Every player's symbols in their order and the points each tower gave them (§11-13)."""
        from meeple.games.caprice.rules import codes, tower_points
        from meeple.games.caprice.vocabulary import PIECE

        reveal = observation.get("reveal")
        if not reveal:
            return []
        towers = [codes(t) for t in observation["towers"]]
        head = [reader.gettext("Player"), reader.gettext("Symbols, bottom to top")]
        head += [reader.gettext("Tower {space}").format(space=space) for space in observation["spaces"]]
        head.append(reader.gettext("Total"))
        rows = []
        for s, order in enumerate(reveal["orders"]):
            per_tower = [tower_points(codes(order), t) for t in towers]
            symbols = ", ".join(reader.message(PIECE[x]) for x in order)
            rows.append([seat_name(s, reader, me, names), symbols, *per_tower, reveal["points"][s]])
        return [{"caption": reader.gettext("Symbols revealed and points per tower"), "head": head, "rows": rows}]


WEB = CapriceWeb()
"""Named by Caprice's ``GameSpec.web``."""
