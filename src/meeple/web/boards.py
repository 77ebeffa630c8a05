"""What a game's board template needs beyond the view: names in the reader's language, click codes.

Each clickable piece of the board carries the code of the legal action played on it.

A board element is clickable only when a legal action stands behind it: ``codes[(kind, key)]`` is that action's
integer code, found from the legal actions' JSON (``type`` and fields). The move list under the board offers every
legal action too, so nothing depends on a board drawing every move.

Rules: issue "Play online: the browser client" (every legal move on the board, ``data-action-code``).
"""

from __future__ import annotations

from typing import Any

from meeple.i18n import Translator

CLICKS: dict[str, dict[str, tuple[str, ...]]] = {
    "citadels": {
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
    },
    "caprice": {"place": ("piece", "space"), "move": ("source", "target"), "order_symbol": ("symbol",)},
    "capitol": {
        "play_card": ("card", "act"),
        "add_to_bid": ("card",),
        "place_tile": ("zone",),
        "draw_card": ("pile",),
        "place_floor": ("onto",),
        "place_roof": ("height", "roof"),
        "place_building": ("height", "roof", "zone"),
    },
    "capital_lux_2": {
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
    },
}
"""Per game: action type -> the JSON fields that identify the board element it is played on."""

CONTROLS: dict[str, tuple[str, ...]] = {
    "citadels": (
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
    ),
    "capitol": ("pass", "seal_bid"),
    "capital_lux_2": (),
    "caprice": ("skip_move", "keep_symbol", "exchange_symbol"),
}
"""Per game: the decisions no piece stands for (take gold, pass, seal the bid...), drawn as the board's buttons."""


def action_codes(game: str, legal: list[dict[str, Any]]) -> dict[tuple[Any, ...], int]:
    """Return ``(action type, *identifying fields) -> code`` for the legal actions a board can draw as clicks."""
    wanted = CLICKS.get(game, {})
    out: dict[tuple[Any, ...], int] = {}
    for action in legal:
        data = action["json"]
        fields = wanted.get(data["type"])
        if fields is not None:
            out[(data["type"], *(data[f] for f in fields))] = action["code"]
    return out


def board_context(game: str, view: dict[str, Any], seat: int | None, reader: Translator) -> dict[str, Any]:
    """Return the names and click codes the board template of ``game`` uses.

    Args:
        game: the registry name.
        view: ``game_view(state, seat, log, reader)`` (observation, legal actions with codes and texts).
        seat: the reader's seat (None: spectator).
        reader: the reader's language.
    """
    controls = CONTROLS.get(game, ())
    codes = action_codes(game, view["legal_actions"])

    def pick(*keys: tuple[Any, ...]) -> int | None:
        """The code of the first of ``keys`` that is a legal action (code 0 included), else None."""
        return next((codes[k] for k in keys if k in codes), None)

    context: dict[str, Any] = {
        "codes": codes,
        "pick": pick,
        "controls": [a for a in view["legal_actions"] if a["json"]["type"] in controls],
    }
    if game == "citadels":
        from meeple.games.citadels.data import COLOURS
        from meeple.games.citadels.vocabulary import CHARACTER, COLOUR, DISTRICT, PURPLE_TEXT

        context["character"] = [reader.message(m) for m in CHARACTER]
        context["district"] = [reader.message(m) for m in DISTRICT]
        context["colour"] = {name: reader.message(COLOUR[i]) for i, name in enumerate(COLOURS)}
        context["purple"] = {kind: reader.message(m) for kind, m in PURPLE_TEXT.items()}
    elif game == "capital_lux_2":
        from meeple.games.capital_lux_2.data import SOLO_RATINGS
        from meeple.games.capital_lux_2.powers import POWERS
        from meeple.games.capital_lux_2.vocabulary import COLOUR, LETTER, RATING

        lows = [low for low, _name in SOLO_RATINGS]
        highs = [low - 1 for low in lows[1:]] + [None]
        context["scale"] = [{"low": None, "high": -1, "label": reader.message(RATING["lost"])}] + [
            {"low": low, "high": high, "label": reader.message(RATING[name])}
            for (low, name), high in zip(SOLO_RATINGS, highs, strict=True)
        ]

        context["colour"] = [reader.message(m) for m in COLOUR]
        context["letter"] = [reader.message(m) for m in LETTER]
        context["tile"] = {t: reader.message(p.label_message) for t, p in POWERS.items()}
        context["effect"] = {t: reader.gettext(p.effect) for t, p in POWERS.items()}
    elif game == "capitol":
        from meeple.games.capitol.data import CARD_REP, COLOURS, ROOF_NAMES, TILE_NAMES
        from meeple.games.capitol.vocabulary import (
            CARD,
            CARD_TYPE_NAME,
            ROOF_NAME,
            TILE_NAME,
            colour_legend,
            colour_word,
        )

        context["card"] = [reader.message(m) for m in CARD]
        context["rep"] = CARD_REP  # actions name a card by the first id of its kind: identical cards are one move
        context["card_type"] = [reader.message(m) for m in CARD_TYPE_NAME]
        context["tile_name"] = {name: reader.message(TILE_NAME[i]) for i, name in enumerate(TILE_NAMES)}
        context["roof_name"] = {name: reader.message(ROOF_NAME[i]) for i, name in enumerate(ROOF_NAMES)}
        context["colour_word"] = {c: reader.message(colour_word(c)) for c in COLOURS}
        context["colour_legend"] = colour_legend(reader.message)
    elif game == "caprice":
        from meeple.games.caprice.vocabulary import PIECE

        context["piece"] = {code: reader.message(m) for code, m in PIECE.items()}
    return context
