"""Observations and the rules summary of Capitol (the action texts are in ``describe.py``).

Rules: capitol.md §5.3 (public and private information).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict

from meeple.core import SEALED
from meeple.games.capitol.const import AUCTION, PHASE_NAMES, seen_by
from meeple.games.capitol.data import (
    CARD_REP,
    CARD_TYPES,
    COLOURS,
    ROOF_NAMES,
    ROOF_SHORT,
    TILE_NAMES,
)
from meeple.i18n.message import M

if TYPE_CHECKING:
    from meeple.games.capitol.state import CapitolState


class Zone(TypedDict):
    """One of the nine zones of the board (public). Rules: capitol.md §2."""

    name: str
    colour: str
    """Display colour of the zone's district colour (C1..C3)."""
    roof: str
    """The roof type the zone's first building fixed, or the empty type."""
    small_spaces: int
    free: int
    """Free small spaces."""
    printed_fountains: int
    fountain_tiles: int
    """Fountain tiles placed in the zone."""
    large: str
    """The tile on the large space (amphitheatre, temple) or the empty name."""
    buildings: list[list[int]]
    """Per building ``[owner seat, floors]`` in placement order."""
    floors: list[int]
    """Floors each seat has in the zone."""


class Reserve(TypedDict):
    """Roofs left in a seat's reserve."""

    round: int
    triangular: int


class PlayerInfo(TypedDict):
    """One seat as the table sees it (public)."""

    seat: int
    score: int
    """Points."""
    hand_size: int
    known_cards: list[int]
    """Cards of that hand everyone knows (drawn face up, returned from a revealed bid), by kind (``CARD_REP``)."""
    offboard: list[list[int | str]]
    """Off-board buildings ``[floors, roof short name]``."""
    reserve: Reserve
    active: bool
    """Still playing this construction phase (has not passed)."""
    amph_bonus: int
    """Extra cards the amphitheatres give at the end draw."""


class Pile(TypedDict):
    """One face-up draw pile and its discard pile (public), cards by kind.

    ``discard`` holds None for a card another seat played face down (``played_card=face_down``).
    """

    type: str
    size: int
    top: int | None
    discard: list[int | None]


class AuctionEntry(TypedDict):
    """One finished auction (public)."""

    tile: str
    winner: int
    """The winning seat, or -1."""
    bids: list[list[int]] | None
    """The revealed bids by kind, or None."""
    zone: int
    """Where the tile went, or -1."""


class Auction(TypedDict):
    """The improvement phase's auctions."""

    lots: list[str]
    """The tiles auctioned this round (public)."""
    lot: int | None
    """Index of the lot being auctioned; None outside the auction."""
    bids: list[list[int] | str | None]
    """Per seat: None (not in), ``"sealed"`` (in, hidden), or my own bid's card ids (own)."""
    my_draft: list[int] | None
    """The cards of my bid in progress (own, while I bid); else None."""
    log: list[AuctionEntry]


class Pending(TypedDict):
    """The decision on top of the stack (public): ``"floor"``, ``"roof"``, ``"permit"`` or ``"tile"``."""

    player: int
    kind: str
    data: list[int]


class Scoring(TypedDict):
    """One round's scoring, public (capitol.md §5.2 Phase 3)."""

    round: int
    zones: list[list[int]]
    """Per zone (board order), the points each seat scored there."""
    total: list[int]
    """Per seat, the points of this scoring."""


class CapitolObservation(TypedDict):
    """What ``player`` may know of a Capitol position (``observation(player)``).

    Public: the board, off-board buildings, reserves, floor supply, tiles, scores, Consul, hand sizes, the cards
    of each hand that are public knowledge, pile sizes and tops, discard piles, revealed bids. Own: ``hand``, my
    sealed bid in ``auction.bids`` and ``auction.my_draft``.
    """

    game: Literal["capitol"]
    seat: int | None
    """``player``; None for the spectator."""
    current_player: int
    phase: str
    """``"construction"``, ``"improvement"``, ``"end"`` or ``"over"``."""
    round: int
    """Round 1-4."""
    consul: int
    """The seat holding the Consul."""
    scores: list[int]
    floor_supply: int
    """Floors left in the common supply."""
    tiles_supply: dict[str, int]
    tiles_removed: dict[str, int]
    zones: list[Zone]
    players: list[PlayerInfo]
    piles: list[Pile]
    auction: Auction
    pending: Pending | None
    draw_queue: list[list[int]]
    scorings: list[Scoring]
    """Every scoring so far, by zone and seat (the breakdown shown after each round)."""
    """The end draws still to come ``[seat, cards]``."""
    hand: list[int] | None
    """My hand's card ids, sorted (own); None for the spectator."""


def build_observation(state: CapitolState, player: int | None) -> CapitolObservation:
    """Return what ``player`` (None = spectator) may know of ``state``, as a JSON-able dict.

    Public: the board, off-board buildings, reserves, floor supply, tiles, scores, Consul, hand sizes, the cards
    of each hand that are public knowledge (drawn face up or returned from a revealed bid), pile sizes and tops,
    discard piles, revealed bids. Private: the seat's own hand, its sealed bid and bid in progress.

    Public cards are shown by kind: the lowest id of identical cards (``CARD_REP``), never the id of the very
    card, since which of several identical cards a hand held is hidden (it would tell another seat, e.g., that a
    hand still holds a second copy). The seat's own hand, bid and draft keep their real ids.
    """
    game = state.game
    n = game.num_players
    mine = player is not None and 0 <= player < n
    free = state.zone_free()
    zones: list[Zone] = []
    for z, zone in enumerate(game.zones):
        zones.append(
            {
                "name": zone.name,
                "colour": COLOURS[zone.colour],
                "roof": ROOF_NAMES[state.zone_roof[z]],
                "small_spaces": zone.small_spaces,
                "free": free[z],
                "printed_fountains": zone.printed_fountains,
                "fountain_tiles": state.zone_ftiles[z],
                "large": TILE_NAMES[state.zone_large[z]],
                "buildings": [[b & 3, b >> 2] for b in state.zone_bld[z]],
                "floors": state.zone_floors[z * n : z * n + n],
            }
        )
    players: list[PlayerInfo] = []
    for s in range(n):
        players.append(
            {
                "seat": s,
                "score": state.points[s],
                "hand_size": len(state.hands[s]),
                "known_cards": sorted(CARD_REP[c] for c in state.known[s]),
                "offboard": [[c >> 2, ROOF_SHORT[c & 3]] for c in state.offboard[s]],
                "reserve": {"round": state.reserve[2 * s], "triangular": state.reserve[2 * s + 1]},
                "active": state.active[s],
                "amph_bonus": state.bonus[s],
            }
        )
    piles: list[Pile] = [
        {
            "type": CARD_TYPES[t],
            "size": len(state.piles[t]),
            "top": CARD_REP[state.piles[t][-1]] if state.piles[t] else None,
            "discard": [
                CARD_REP[c] if seen_by(code) in (-1, player) else None
                for c, code in zip(state.discards[t], state.discard_seen[t], strict=True)
            ],
        }
        for t in range(3)
    ]
    lots = state.lots()
    bidding = state.phase == AUCTION and not state.stack
    bids: list[list[int] | str | None] = [None] * n
    for s, v in state.bids.values.items():
        bids[s] = list(v) if s == player else SEALED
    auction: Auction = {
        "lots": [TILE_NAMES[k] for k in lots],
        "lot": state.lot if state.phase == AUCTION else None,
        "bids": bids,
        "my_draft": list(state.draft) if mine and bidding and state.to_move == player else None,
        "log": [
            {"tile": TILE_NAMES[e[0]], "winner": e[1], "bids": _public_bids(e[2]), "zone": e[3]}
            for e in state.auction_log
        ],
    }
    pending: Pending | None = None
    if state.stack:
        top = state.stack[-1]
        pending = {"player": top.player, "kind": top.kind, "data": list(top.data)}
    return {
        "game": "capitol",
        "seat": player,
        "current_player": state.current_player(),
        "phase": PHASE_NAMES[state.phase],
        "round": state.round,
        "consul": state.consul,
        "scores": list(state.points),
        "floor_supply": state.supply,
        "tiles_supply": {TILE_NAMES[k]: state.tiles[k] for k in (3, 1, 2)},
        "tiles_removed": {TILE_NAMES[k]: state.removed[k] for k in (3, 1, 2)},
        "zones": zones,
        "players": players,
        "piles": piles,
        "auction": auction,
        "pending": pending,
        "draw_queue": [list(e) for e in state.draw_queue],
        "scorings": [_scoring(i + 1, flat, n) for i, flat in enumerate(state.scorings)],
        "hand": sorted(state.hands[player]) if mine and player is not None else None,
    }


def _scoring(round_: int, flat: list[int], n: int) -> Scoring:
    """A scoring's public breakdown from its flat ``[zone * n + seat]`` points."""
    zones = [flat[z : z + n] for z in range(0, len(flat), n)]
    return {"round": round_, "zones": zones, "total": [sum(zone[p] for zone in zones) for p in range(n)]}


def _public_bids(bids: list[list[int]] | None) -> list[list[int]] | None:
    """Revealed bids of the auction log, cards by kind (see :func:`build_observation`)."""
    return None if bids is None else [[CARD_REP[c] for c in b] for b in bids]


RULES_SUMMARY = M(
    """\
# Capitol (Alan R. Moon & Aaron Weissblum, 2001), 2-4 players

Build Rome's districts: win floor majorities in the nine zones over four rounds.

**Setup.** Each player holds 2 roof, 2 floor and 4 permit cards (hidden) plus a STOP card; the rest form three
face-up draw piles (roof 1-7 x2, floor 1-8 x3, permits C1/C2/C3 x 1-8), each with its own discard pile. Each player
starts with four completed off-board buildings (1 and 2 floors, round and triangular roofs), 3 round + 3 triangular
roofs in reserve; the common floor supply holds 90 - 6N floors. The board has nine zones, three per colour C1..C3
(shown as the French rulebook's board: C1 blue, C2 pink, C3 mauve; the board's legend gives the other rulebooks'
names), each with 5-7 small spaces, printed fountains and one large space (`board_layout`, default the spec's
provisional layout).

**Round (x4).**
1. *Construction.* From the Consul clockwise, play one card (revealed, then discarded; with `played_card=face_down`
   discarded face down: the others see its type and what its action does), with or without its action, or pass
   (final). Floor card: take min(2, supply) floors, each onto one of your unroofed buildings or starting a
   new one. Roof card: roof one unroofed building (it is complete). Permit card of colour c: move a completed
   building to a zone of colour c with a free small space; the zone's first building has 1 floor and fixes the
   roof type (the three zones of a colour may not all share one type); later ones match the roof type and have
   height H or H+1 (H = the zone's tallest).
2. *Improvement.* Three sealed-bid auctions: fountain, fountain, then an amphitheatre (rounds 1-2) or a temple
   (rounds 3-4). A bid is a set of hand cards (entered card by card, then sealed); all are revealed at once.
   Highest sum wins; ties: highest single card, then seat order from the Consul. The winner discards the bid and
   must place the tile (fountain: any free small space; amphitheatre/temple: any free large space); the others
   take their cards back.
3. *Scoring.* Per zone, most floors is 1st (2 + 1 per fountain), next is 2nd (1 per fountain); a temple doubles the
   zone. Tied floors: the tallest single building is 1st and the others tied are 2nd; still tied: all 1st, no 2nd.
4. *End.* From the Consul, each player draws 6 cards one at a time from the face-up piles (+2/+1 for 1st/2nd in
   each amphitheatre zone). An empty pile is replaced by its discard pile turned over (oldest on top). No hand
   limit. The Consul passes left.

The game ends after round 4's scoring; the highest total wins (ties share the win).

**Variant flags** (default first): `end_draw` draw_six | refill_to_six; `floor_placement` free |
tallest_incomplete_only; `shared_first_blocks_second` true | false; `zero_bid` tie_rule | no_sale;
`fountain_no_space` skip_auction | award_no_place; `amph_bonus_timing` with_own_draw | after_all_draws;
`exhausted_pile` flip_fifo | shuffle; `played_card` revealed | face_down; `floor_shortage` take_remaining;
`final_round_end_phase` skip | play; `final_tiebreak` shared; `board_layout` provisional_54 | nine
`colour:small:printed` entries; `first_consul` -1 (random) or a seat.
"""
)
