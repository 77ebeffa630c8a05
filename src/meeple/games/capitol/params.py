"""Parameters (variant flags) of Capitol.

Rules: capitol.md §5.4 (flag summary); every default is the spec's. Every parameter that is not a choice has a
checked range (issue 41, item 1; :mod:`meeple.core.params`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from meeple.core.params import param
from meeple.games.capitol.data import parse_layout


@dataclass(frozen=True)
class CapitolParams:
    """Capitol's parameters: the player count, the first Consul and every variant flag of capitol.md §5.4."""

    players: int = param(4, "number of players (2-4)", low=2, high=4)
    first_consul: int = param(-1, "seat of the first Consul; -1 = chosen by the seeded RNG", low=-1, high=3)
    end_draw: Literal["draw_six", "refill_to_six"] = field(
        default="draw_six", metadata={"doc": "End phase: draw 6 cards (FR) or draw up to 6 in hand (IT)"}
    )
    floor_placement: Literal["free", "tallest_incomplete_only"] = field(
        default="free",
        metadata={
            "doc": "floors go on any incomplete building or a new one (FR), or only on the tallest incomplete one, "
            "a new one, or the one the first floor started (IT)"
        },
    )
    shared_first_blocks_second: bool = field(
        default=True, metadata={"doc": "a shared first place (equal tallest buildings) leaves no second place (FR)"}
    )
    zero_bid: Literal["tie_rule", "no_sale"] = field(
        default="tie_rule", metadata={"doc": "all bids 0: the Consul side of the tie rule wins for free, or no sale"}
    )
    fountain_no_space: Literal["skip_auction", "award_no_place"] = field(
        default="skip_auction",
        metadata={"doc": "no free small space: the fountain auction is not held, or it is held and the tile removed"},
    )
    amph_bonus_timing: Literal["with_own_draw", "after_all_draws"] = field(
        default="with_own_draw", metadata={"doc": "amphitheatre bonus cards drawn with one's own 6, or after everyone"}
    )
    exhausted_pile: Literal["flip_fifo", "shuffle"] = field(
        default="flip_fifo",
        metadata={"doc": "an empty draw pile: turn its discard pile over (oldest on top), or shuffle it"},
    )
    played_card: Literal["revealed", "face_down"] = field(
        default="revealed",
        metadata={
            "doc": "a card played in Construction is revealed, then discarded (IT), or discarded face down (FR): "
            "the others see its type and what its action does, not its value"
        },
    )
    floor_shortage: Literal["take_remaining"] = field(
        default="take_remaining", metadata={"doc": "a floor card with fewer than 2 floors left takes what remains"}
    )
    final_round_end_phase: Literal["skip", "play"] = field(
        default="skip", metadata={"doc": "whether the End phase (drawing) of round 4 is played"}
    )
    final_tiebreak: Literal["shared"] = field(default="shared", metadata={"doc": "equal final totals share the win"})
    board_layout: str = param(
        "provisional_54",
        "'provisional_54' or nine 'colour:small_spaces:printed_fountains' entries, comma-separated",
        max_length=100,
        check=parse_layout,
        expands="9 zones, 3 of each colour C1-C3, each of 1 to 12 small spaces and 0 to 4 printed fountains",
    )
