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
    ("move", N_("Tap the top piece of a tower, then the tower it goes onto; or move no piece")),
    ("skip_move", N_("Tap the top piece of a tower, then the tower it goes onto; or move no piece")),
)
"""The first legal action type found decides the prompt (caprice.md §5-13)."""

PAST: dict[str, str] = {
    "place {piece} on {space}": N_("{actor} placed a {piece} piece on {space}"),
    "move the top piece of {source} to {target}": N_("{actor} moved the top piece of {source} onto {target}"),
    "do not move": N_("{actor} moved no piece"),
    "keep the drawn symbol": N_("{actor} kept the drawn symbol"),
    "exchange the drawn symbol (set it aside and draw again)": N_("{actor} exchanged the drawn symbol"),
    "put {symbol} next in the order": N_("{actor} put {symbol} next in their order"),
    "choose the next symbol of the order": N_("{actor} chose the next symbol of their order"),
    "no piece can move: the turn passes": N_("{actor} could move no piece: the turn passed"),
}
"""Each action and public event in the past, with its player: the turn summary's sentences (issue #43)."""


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
    past = PAST

    def marks(self, action: Mapping[str, Any], actor: int) -> list[str]:
        """The tower a piece was placed on or moved onto (caprice.md §5-7), never the one it left."""
        if action["type"] == "place":
            return [f"tower-{action['space']}"]
        if action["type"] == "move":
            return [f"tower-{action['target']}"]
        return []

    def context(
        self, view: dict[str, Any], seat: int | None, reader: Translator, names: Sequence[str | None] = ()
    ) -> dict[str, Any]:
        """The pieces' names in the reader's language; the towers whose top piece may move (tap, then tap)."""
        from meeple.games.caprice.vocabulary import PIECE

        moves_from = {a["json"]["source"] for a in view["legal_actions"] if a["json"]["type"] == "move"}
        return {"piece": {code: reader.message(m) for code, m in PIECE.items()}, "moves_from": moves_from}

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
