"""Capitol's observation tensor: the nine zones, everyone's buildings and public cards, piles, auction, your hand.

Built from :class:`~meeple.games.capitol.observation.CapitolObservation` only (what the seat may see: a sealed bid
is only "sealed"). Seats are relative to the observer (slot 0 = me); cards are counted by kind (identical cards
are one kind: 39 kinds, ``data.CARD_REP``). Field by field: ``layout(players).describe()``; docs/research.md.

Rules: capitol.md §5 (construction, improvement auctions, scoring; what is public).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.tensor import TensorBuffer, TensorLayout, TensorWriter, relative
from meeple.games.capitol.const import AUCTION, PHASE_NAMES, PUBLIC, seen_by
from meeple.games.capitol.data import CARD_REP, CARD_TYPES, COLOURS, ROOF_NAMES, ROOF_SHORT, TILE_NAMES
from meeple.games.capitol.observation import Auction, CapitolObservation, PlayerInfo, Zone

if TYPE_CHECKING:
    from meeple.games.capitol.state import CapitolState

KINDS = sorted(set(CARD_REP))
KIND_OF = {card: KINDS.index(rep) for card, rep in enumerate(CARD_REP)}
"""Card id (or the representative id actions use) -> kind index 0..38."""
K = len(KINDS)
ZONES = 9
HEIGHTS = 8
"""Building heights 1..8 have their own slot (taller ones count as 8)."""
PENDING = ("floor", "roof", "permit", "tile")
TILES = TILE_NAMES[1:]


def layout(players: int) -> TensorLayout:
    """Return the layout for ``players`` seats (2-4)."""
    n = players
    t = TensorLayout()
    t.add("phase", len(PHASE_NAMES), "phase one-hot: " + ", ".join(PHASE_NAMES))
    t.add("progress", 2, "round / 4, floors left in the common supply / 90")
    t.add("tiles", 2 * len(TILES), "tiles in supply then removed, per " + ", ".join(TILES) + " / 8")
    t.add("current_player", n, "seat to move (relative)")
    t.add("consul", n, "the Consul (relative)")
    t.add("zone_roof", ZONES * len(ROOF_NAMES), "zone x its roof shape: " + ", ".join(ROOF_NAMES))
    t.add("zone_colour", ZONES * len(COLOURS), "zone x its colour group: " + ", ".join(COLOURS))
    t.add("zone_spaces", ZONES * 4, "zone x (small spaces / 7, free / 7, printed fountains / 3, fountain tiles / 3)")
    t.add("zone_large", ZONES * len(TILES), "zone x its large-space tile: " + ", ".join(TILES))
    t.add("zone_floors", ZONES * n, "zone x floors per seat (relative) / 10")
    t.add("zone_buildings", ZONES * n, "zone x buildings per seat (relative) / 5")
    t.add("score", n, "points per seat (relative) / 100")
    t.add("hand_size", n, "cards in hand per seat (relative) / 10")
    t.add("known_cards", n * K, "cards of each seat's hand everyone knows, seat (relative) x kind (count)")
    t.add("offboard", n * HEIGHTS * len(ROOF_SHORT), "buildings beside the board: seat x height 1-8 x roof (-, R, T)")
    t.add("reserve", 2 * n, "roofs in reserve per seat (relative): round / 3, triangular / 3")
    t.add("active", n, "seat (relative) is still building this phase")
    t.add("amph_bonus", n, "extra cards at the end draw per seat (relative) / 3")
    t.add("pile_size", len(CARD_TYPES), "draw pile sizes / 30: " + ", ".join(CARD_TYPES))
    t.add("pile_top", len(CARD_TYPES) * K, "face-up top card of each draw pile, by kind")
    t.add("discard", K, "discarded cards by kind (count; a card another seat played face down is not counted)")
    t.add("lots", 3 * len(TILES), "this round's three lots x tile")
    t.add("lot", 3, "the lot being auctioned")
    t.add("bid_state", n * 3, "each seat's (relative) bid: none, sealed, revealed")
    t.add("bid_cards", n * K, "revealed bids: seat (relative) x kind (count)")
    t.add("my_draft", K, "the bid I am building, by kind (count)")
    t.add("pending", len(PENDING), "pending decision one-hot: " + ", ".join(PENDING))
    t.add("pending_data", 2, "the decision's numbers / 10 (floors left, building height; permit colour)")
    t.add("pending_mine", 1, "the pending decision is mine")
    t.add("hand", K, "my hand by kind (count)")
    return t


def encode(obs: CapitolObservation, out: TensorWriter) -> None:
    """Fill ``out`` (a writer of :func:`layout`) from one seat's observation."""
    n = len(obs["players"])
    me = obs["seat"]
    out.one_hot("phase", PHASE_NAMES.index(obs["phase"]))
    out.put("progress", [obs["round"] / 4, obs["floor_supply"] / 90])
    for i, tile in enumerate(TILES):
        out.set("tiles", obs["tiles_supply"][tile] / 8, i)
        out.set("tiles", obs["tiles_removed"][tile] / 8, len(TILES) + i)
    out.one_hot("current_player", relative(obs["current_player"], me, n))
    out.one_hot("consul", relative(obs["consul"], me, n))
    for z, zone in enumerate(obs["zones"]):
        _zone(z, zone, me, n, out)
    for p in obs["players"]:
        _player(p, me, n, out)
    for t, pile in enumerate(obs["piles"]):
        out.set("pile_size", pile["size"] / 30, t)
        if pile["top"] is not None:
            out.one_hot("pile_top", t * K + KIND_OF[pile["top"]])
        for card in pile["discard"]:
            if card is not None:
                out.add("discard", KIND_OF[card])
    _auction(obs["auction"], me, n, out)
    pending = obs["pending"]
    if pending is not None:
        out.one_hot("pending", PENDING.index(pending["kind"]))
        out.put("pending_data", pending["data"][:2], scale=10)
        out.set("pending_mine", float(pending["player"] == me))
    for card in obs["hand"] or ():
        out.add("hand", KIND_OF[card])


def _zone(z: int, zone: Zone, me: int | None, n: int, out: TensorWriter) -> None:
    out.one_hot("zone_roof", z * len(ROOF_NAMES) + ROOF_NAMES.index(zone["roof"]))
    out.one_hot("zone_colour", z * len(COLOURS) + COLOURS.index(zone["colour"]))
    spaces = [zone["small_spaces"] / 7, zone["free"] / 7, zone["printed_fountains"] / 3, zone["fountain_tiles"] / 3]
    for i, v in enumerate(spaces):
        out.set("zone_spaces", v, z * 4 + i)
    if zone["large"] != "none":
        out.one_hot("zone_large", z * len(TILES) + TILES.index(zone["large"]))
    for seat, floors in enumerate(zone["floors"][:n]):
        out.set("zone_floors", floors / 10, z * n + relative(seat, me, n))
    for owner, _height in zone["buildings"]:
        out.add("zone_buildings", z * n + relative(owner, me, n), 1 / 5)


def _player(p: PlayerInfo, me: int | None, n: int, out: TensorWriter) -> None:
    slot = relative(p["seat"], me, n)
    out.set("score", p["score"] / 100, slot)
    out.set("hand_size", p["hand_size"] / 10, slot)
    for card in p["known_cards"]:
        out.add("known_cards", slot * K + KIND_OF[card])
    for height, roof in p["offboard"]:
        h = min(int(height), HEIGHTS) - 1
        out.add("offboard", (slot * HEIGHTS + max(h, 0)) * len(ROOF_SHORT) + ROOF_SHORT.index(str(roof)))
    out.set("reserve", p["reserve"]["round"] / 3, 2 * slot)
    out.set("reserve", p["reserve"]["triangular"] / 3, 2 * slot + 1)
    out.set("active", float(p["active"]), slot)
    out.set("amph_bonus", p["amph_bonus"] / 3, slot)


def _auction(auction: Auction, me: int | None, n: int, out: TensorWriter) -> None:
    for i, lot in enumerate(auction["lots"]):
        out.one_hot("lots", i * len(TILES) + TILES.index(lot))
    if auction["lot"] is not None:
        out.one_hot("lot", auction["lot"])
    for seat, bid in enumerate(auction["bids"][:n]):
        slot = relative(seat, me, n)
        if bid is None:
            out.one_hot("bid_state", slot * 3)
        elif isinstance(bid, str):
            out.one_hot("bid_state", slot * 3 + 1)
        else:
            out.one_hot("bid_state", slot * 3 + 2)
            for card in bid:
                out.add("bid_cards", slot * K + KIND_OF[card])
    for card in auction["my_draft"] or ():
        out.add("my_draft", KIND_OF[card])


# ---------------------------------------------------------------- the fast path: straight from the state


def values_from_state(state: CapitolState, me: int, layout: TensorLayout) -> list[float]:
    """The tensor of seat ``me`` read straight from the state: equal to :func:`encode` of ``observation(me)``.

    Reads only what ``build_observation(state, me)`` shows that seat: public fields, the cards of each hand that are
    public knowledge (``known``), the discards but those another seat played face down (``discard_seen``), whether
    each seat has sealed a bid (its cards: mine only), my bid in progress, my hand. Identical cards are one kind, as
    in :func:`encode`. ``tests/games/test_tensor_fast_path.py`` and the conformance harness compare the two on
    every decision, for every seat.

    Args:
        state: the position.
        me: a seat (not a spectator: :func:`encode` serves those).
        layout: ``layout(players)``.

    Rules: capitol.md §5.3 (public and private information).
    """
    v = [0.0] * layout.size
    fill_from_state(state, me, layout, v)
    return v


def fill_from_state(state: CapitolState, me: int, layout: TensorLayout, v: TensorBuffer) -> None:
    """Write :func:`values_from_state` into ``v``, ``layout.size`` zeros: a list or a float buffer (item writes)."""
    o = layout.starts
    n = state.game.num_players
    v[o["phase"] + state.phase] = 1.0
    v[o["progress"]], v[o["progress"] + 1] = state.round / 4, state.supply / 90
    t = o["tiles"]
    for i in range(len(TILES)):
        v[t + i] = state.tiles[i + 1] / 8
        v[t + len(TILES) + i] = state.removed[i + 1] / 8
    v[o["current_player"] + (state.current_player() - me) % n] = 1.0
    v[o["consul"] + (state.consul - me) % n] = 1.0
    _state_zones(state, me, n, o, v)
    _state_players(state, me, n, o, v)
    _state_piles(state, me, o, v)
    _state_auction(state, me, n, o, v)
    if state.stack:
        top = state.stack[-1]
        v[o["pending"] + PENDING.index(top.kind)] = 1.0
        for i, number in enumerate(top.data[:2]):
            v[o["pending_data"] + i] = float(number) / 10
        v[o["pending_mine"]] = float(top.player == me)
    hand = o["hand"]
    for card in state.hands[me]:
        v[hand + KIND_OF[card]] += 1.0


def _state_zones(state: CapitolState, me: int, n: int, o: dict[str, int], v: TensorBuffer) -> None:
    roofs, colours, large_o = len(ROOF_NAMES), len(COLOURS), o["zone_large"]
    spaces, floors_o, buildings = o["zone_spaces"], o["zone_floors"], o["zone_buildings"]
    free = state.zone_free()
    for z, zone in enumerate(state.game.zones):
        v[o["zone_roof"] + z * roofs + state.zone_roof[z]] = 1.0
        v[o["zone_colour"] + z * colours + zone.colour] = 1.0
        at = spaces + z * 4
        v[at], v[at + 1] = zone.small_spaces / 7, free[z] / 7
        v[at + 2], v[at + 3] = zone.printed_fountains / 3, state.zone_ftiles[z] / 3
        if state.zone_large[z]:
            v[large_o + z * len(TILES) + state.zone_large[z] - 1] = 1.0
        for seat, floors in enumerate(state.zone_floors[z * n : z * n + n]):
            if floors:  # the buffer holds zeros already
                v[floors_o + z * n + (seat - me) % n] = floors / 10
        if state.zone_bld[z]:
            # Summed in Python floats, as encode() does, then written once: a float32 buffer summing 1/5 seven
            # times would round differently.
            per_seat = [0.0] * n
            for b in state.zone_bld[z]:  # height * 4 + owner
                per_seat[((b & 3) - me) % n] += 1 / 5
            for slot, value in enumerate(per_seat):
                v[buildings + z * n + slot] = value


def _state_players(state: CapitolState, me: int, n: int, o: dict[str, int], v: TensorBuffer) -> None:
    known_o, offboard_o, reserve_o = o["known_cards"], o["offboard"], o["reserve"]
    roofs = len(ROOF_SHORT)
    for s in range(n):
        slot = (s - me) % n
        v[o["score"] + slot] = state.points[s] / 100
        v[o["hand_size"] + slot] = len(state.hands[s]) / 10
        for card in state.known[s]:
            v[known_o + slot * K + KIND_OF[card]] += 1.0
        for code in state.offboard[s]:  # height * 4 + roof
            h = max(min(code >> 2, HEIGHTS) - 1, 0)
            v[offboard_o + (slot * HEIGHTS + h) * roofs + (code & 3)] += 1.0
        v[reserve_o + 2 * slot] = state.reserve[2 * s] / 3
        v[reserve_o + 2 * slot + 1] = state.reserve[2 * s + 1] / 3
        v[o["active"] + slot] = float(state.active[s])
        v[o["amph_bonus"] + slot] = state.bonus[s] / 3


def _state_piles(state: CapitolState, me: int, o: dict[str, int], v: TensorBuffer) -> None:
    """Pile sizes and tops; the discards by kind, but a card another seat played face down (``seen_by``)."""
    discard = o["discard"]
    for t, pile in enumerate(state.piles):
        v[o["pile_size"] + t] = len(pile) / 30
        if pile:
            v[o["pile_top"] + t * K + KIND_OF[pile[-1]]] = 1.0
        for card, code in zip(state.discards[t], state.discard_seen[t], strict=True):
            if code == PUBLIC or seen_by(code) == me:
                v[discard + KIND_OF[card]] += 1.0


def _state_auction(state: CapitolState, me: int, n: int, o: dict[str, int], v: TensorBuffer) -> None:
    """Lots, the lot on sale, who has sealed a bid (the cards of mine only), my bid in progress."""
    for i, tile in enumerate(state.lots()):
        v[o["lots"] + i * len(TILES) + tile - 1] = 1.0
    if state.phase == AUCTION:
        v[o["lot"] + state.lot] = 1.0
    bids = state.bids.values
    bid_state, bid_cards = o["bid_state"], o["bid_cards"]
    for seat in range(n):
        slot = (seat - me) % n
        if seat not in bids:
            v[bid_state + slot * 3] = 1.0
        elif seat != me:
            v[bid_state + slot * 3 + 1] = 1.0
        else:
            v[bid_state + slot * 3 + 2] = 1.0
            for card in bids[seat]:
                v[bid_cards + slot * K + KIND_OF[card]] += 1.0
    if state.phase == AUCTION and not state.stack and state.to_move == me:
        draft = o["my_draft"]
        for card in state.draft:
            v[draft + KIND_OF[card]] += 1.0
