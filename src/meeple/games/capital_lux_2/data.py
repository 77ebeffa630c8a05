"""Static data of Capital Lux 2: the 100 citizen cards, district order, solo rating scale and ROB deck.

Rules: capital_lux_2.md §1-§4 (components), "Solo / ROB" (ROB deck), FR "taux de réussite" (rating scale).
Validated at import.
"""

from __future__ import annotations

from typing import Any, Final

BLUE: Final = 0
PINK: Final = 1
YELLOW: Final = 2
GREEN: Final = 3
DISTRICTS: Final[tuple[int, ...]] = (BLUE, PINK, YELLOW, GREEN)
"""District order everywhere it matters (spec §2)."""
COLOUR_NAMES: Final[tuple[str, ...]] = ("blue", "pink", "yellow", "green")

NUM_CARDS: Final = 100
CARDS_PER_COLOUR: Final = 25
VALUES: Final[tuple[int, ...]] = (2, 3, 4, 5, 6)
GOLD_VP: Final = 2
ROUNDS: Final = 3
HAND_SIZE: Final = 6
STARTING_CAPITAL: Final = 3
STARTING_CAPITAL_SOLO: Final = 4
ROB_HAND: Final = 2
ROB_RESERVE: Final = 5
ROB_RED_LIMIT: Final = 3

CARD_COLOUR: Final[tuple[int, ...]] = tuple(c // CARDS_PER_COLOUR for c in range(NUM_CARDS))
"""Colour (0..3) of each citizen card id 0..99: ids 25*colour .. 25*colour+24."""
CARD_VALUE: Final[tuple[int, ...]] = tuple(VALUES[(c % CARDS_PER_COLOUR) // 5] for c in range(NUM_CARDS))
"""Value (2..6) of each citizen card id: five cards of each value per colour (spec §1, our choice)."""


def card_name(card: int) -> str:
    """Return the readable name of a citizen card, e.g. ``"blue 3 (#7)"``."""
    return f"{COLOUR_NAMES[CARD_COLOUR[card]]} {CARD_VALUE[card]} (#{card})"


DEFAULT_AGENT_MODIFIERS: Final[tuple[int, ...]] = (4, 2, -1, -3)
"""Agent modifier tokens (spec "Agent", CL1 TricTrac)."""

DEFAULT_ROB_DECK: Final = "left=5/1/2,right=5/1/2,top=4/2/0"
"""ROB deck: per kind, count/red/bonus (spec "ROB deck composition", our choice)."""

ROB_LEFT: Final = 0
ROB_RIGHT: Final = 1
ROB_TOP: Final = 2
ROB_KIND_NAMES: Final[tuple[str, ...]] = ("left", "right", "top")
ROB_RED: Final = 4
"""Flag bit of a red (stopwatch) ROB card; a ROB card is ``kind | red | bonus``."""
ROB_BONUS: Final = 8
"""Flag bit of a ROB card with the bonus symbol."""
ROB_KIND_MAX: Final = 20
"""ROB cards of one kind at most in a ``rob_deck`` description (the default has 5, 5 and 4)."""
ROB_DECK_MAX: Final = 40
"""ROB cards at most in a ``rob_deck`` description (the default has 14): issue 41, item 1."""


def parse_rob_deck(spec: str) -> tuple[int, ...]:
    """Parse a ROB deck description into ROB card codes (``kind | ROB_RED | ROB_BONUS`` bits).

    Args:
        spec: ``"left=C/R/B,right=C/R/B,top=C/R/B"``: per kind, the card count, how many are red and how many carry
            the bonus symbol (red and bonus cards are distinct cards; ``R + B <= C``); at most
            :data:`ROB_KIND_MAX` cards of a kind and :data:`ROB_DECK_MAX` in all, checked before any card is made.

    Returns:
        The cards in a canonical order.

    Raises:
        ValueError: a malformed description, or more cards than allowed (the message says which bound).
    """
    counts: list[tuple[int, int, int, int]] = []
    seen: set[str] = set()
    for part in spec.split(","):
        name, sep, text = part.strip().partition("=")
        if not sep or name not in ROB_KIND_NAMES or name in seen:
            raise ValueError(f"bad ROB deck part {part[:20]!r}: expected left=C/R/B, right=C/R/B, top=C/R/B")
        seen.add(name)
        try:
            count, red, bonus = (int(x) for x in text.split("/"))
        except ValueError:
            raise ValueError(f"bad ROB deck counts {text[:20]!r}: expected count/red/bonus") from None
        if min(count, red, bonus) < 0 or red + bonus > count:
            raise ValueError(f"bad ROB deck counts {text[:20]!r}: need 0 <= red + bonus <= count")
        if count > ROB_KIND_MAX:
            raise ValueError(f"{count} {name} cards: at most {ROB_KIND_MAX} of a kind")
        counts.append((ROB_KIND_NAMES.index(name), count, red, bonus))
    total = sum(c[1] for c in counts)
    if total > ROB_DECK_MAX:
        raise ValueError(f"{total} ROB cards: at most {ROB_DECK_MAX} in all")
    if not total:
        raise ValueError("the ROB deck is empty")
    out: list[int] = []
    for kind, count, red, bonus in counts:
        out += [kind | ROB_RED] * red + [kind | ROB_BONUS] * bonus + [kind] * (count - red - bonus)
    return tuple(out)


def rob_card_name(code: int) -> str:
    """Return a readable name of a ROB card, e.g. ``"left (red)"``."""
    marks = [m for m, bit in (("red", ROB_RED), ("bonus", ROB_BONUS)) if code & bit]
    return ROB_KIND_NAMES[code & 3] + (f" ({', '.join(marks)})" if marks else "")


SOLO_RATINGS: Final[tuple[tuple[int, str], ...]] = (
    (0, "decent"),
    (7, "good"),
    (13, "very good"),
    (19, "excellent"),
    (25, "extraordinary"),
    (31, "world class"),
)
"""Solo rating scale (FR "taux de réussite"): lowest margin of each band and its label; a negative margin is lost."""


def solo_rating(margin: int, won: bool) -> str:
    """Return the rulebook's rating label of a solo game: "lost" unless the player beat ROB, else the margin's band.

    One rule for a tie (our choice, docs/decisions.md "Solo result"): the outcome decides (``rules.solo_wins``: a
    higher score, or an equal score with less gold than ROB), the margin then places a won game on the scale. So a
    tie won on gold is "decent" (margin 0) and counts as a win; a tie lost on gold is "lost".

    Args:
        margin: your score minus ROB's.
        won: whether you beat ROB (``rules.solo_wins``).

    Returns:
        ``"lost"``, ``"decent"`` (0-6), ``"good"`` (7-12), ``"very good"`` (13-18), ``"excellent"`` (19-24),
        ``"extraordinary"`` (25-30) or ``"world class"`` (31+).
    """
    if not won or margin < 0:
        return "lost"
    label = SOLO_RATINGS[0][1]
    for low, name in SOLO_RATINGS:
        if margin >= low:
            label = name
    return label


def rating_distribution(results: list[tuple[int, bool]]) -> dict[str, Any]:
    """Summarise solo results (for ``meeple simulate capital_lux_2 --players 1``).

    Args:
        results: one ``(margin, won)`` per game: your score minus ROB's, and whether you beat ROB.

    Returns:
        ``{"games", "mean_margin", "wins", "ratings": {label: count}}`` with every label of the scale, in order;
        ``wins`` counts the games won (a tie won on gold included), the same games the ratings do not call "lost".
    """
    ratings = {"lost": 0} | {name: 0 for _, name in SOLO_RATINGS}
    for margin, won in results:
        ratings[solo_rating(margin, won)] += 1
    return {
        "games": len(results),
        "mean_margin": sum(m for m, _w in results) / len(results) if results else 0.0,
        "wins": sum(1 for _m, won in results if won),
        "ratings": ratings,
    }


def _validate() -> None:
    assert len(CARD_COLOUR) == NUM_CARDS == len(CARD_VALUE)
    for colour in DISTRICTS:
        values = sorted(CARD_VALUE[c] for c in range(NUM_CARDS) if CARD_COLOUR[c] == colour)
        assert values == sorted(list(VALUES) * 5), colour
    assert len(parse_rob_deck(DEFAULT_ROB_DECK)) == 14


_validate()
