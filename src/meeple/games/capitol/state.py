"""The Capitol game state: setup, the four phases of a round, and the hidden-information re-deal.

Rules: capitol.md §5.1 (setup), §5.2 (Construction, Improvement, Scoring, End), §5.3 (end of game, information).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from meeple.core import TERMINAL, Action, Decision, Rng, SealedCommitments, State
from meeple.core.errors import InvalidStateError
from meeple.core.snapshot import expect, expect_each_once, expect_int, expect_ints
from meeple.games.capitol import rules
from meeple.games.capitol.actions import (
    AddToBid,
    DrawCard,
    Pass,
    PlaceBuilding,
    PlaceFloor,
    PlaceRoof,
    PlaceTile,
    PlayCard,
    SealBid,
)
from meeple.games.capitol.const import (
    AUCTION,
    CONSTRUCTION,
    END,
    OVER,
    PILE_HIDDEN,
    PILE_PUBLIC,
    PILE_SHUFFLED,
    PUBLIC,
    face_down,
)
from meeple.games.capitol.data import (
    AMPHITHEATRE,
    CARD_COLOUR,
    CARD_REP,
    CARD_TYPE,
    DEAL,
    DECKS,
    FLOOR,
    FOUNTAIN,
    LOTS_EARLY,
    LOTS_LATE,
    PERMIT,
    ROOF,
    ROOFS_PER_TYPE,
    ROUNDS,
    STARTING_BUILDINGS,
    TEMPLE,
    TILE_NAMES,
    TOTAL_FLOORS,
)
from meeple.games.capitol.describe import describe
from meeple.games.capitol.observation import build_observation
from meeple.games.capitol.redeal import resample
from meeple.games.capitol.vocabulary import CARD
from meeple.games.capitol.why import why_illegal
from meeple.i18n.message import VERBATIM, M, Message, plural

if TYPE_CHECKING:
    from meeple.games.capitol.game import Capitol
    from meeple.games.capitol.observation import CapitolObservation


class CapitolState(State["Capitol"]):
    """A position of Capitol.

    Off-board buildings are codes ``height * 4 + roof`` (roof 0 = incomplete); a zone's buildings are codes
    ``height * 4 + owner`` in placement order; per-zone per-seat floors and tallest buildings are flat lists
    indexed ``zone * players + seat``. Draw piles keep their top card last.
    """

    @classmethod
    def _empty(cls, game: Capitol) -> CapitolState:
        """An instance with no field set, for ``clone``/``restore`` (works compiled with mypyc too; core.State)."""
        return cls(game, 0, blank=True)

    def __init__(self, game: Capitol, seed: int, *, blank: bool = False) -> None:
        if blank:  # clone() and restore() set every field (see _empty)
            return
        super().__init__(game, seed)
        n = game.num_players
        first = game.params.first_consul
        self.consul: int = first if first >= 0 else self.rng.randrange(n)
        self.round = 1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.piles: list[list[int]] = []
        for t in range(3):
            deck = list(DECKS[t])
            self.rng.shuffle(deck)
            for p in range(n):
                for _ in range(DEAL[t]):
                    self.hands[p].append(deck.pop())
            self.piles.append(deck)
        for hand in self.hands:
            hand.sort()
        self.discards: list[list[int]] = [[], [], []]
        self.discard_seen: list[list[int]] = [[], [], []]
        """Per discard card: ``PUBLIC`` or who saw it face down and what the others know (:func:`face_down`)."""
        self.pile_seen: list[list[int]] = [[PUBLIC] * len(pile) for pile in self.piles]
        """Per draw-pile card, the same once a discard pile is turned over (a dealt pile: all ``PUBLIC``)."""
        self.pile_mode = [PILE_HIDDEN] * 3
        self.offboard: list[list[int]] = [sorted(h * 4 + r for h, r in STARTING_BUILDINGS) for _ in range(n)]
        used = sum(r == 1 for _, r in STARTING_BUILDINGS), sum(r == 2 for _, r in STARTING_BUILDINGS)
        self.reserve: list[int] = [ROOFS_PER_TYPE - used[i % 2] for i in range(2 * n)]
        self.supply = TOTAL_FLOORS - n * sum(h for h, _ in STARTING_BUILDINGS)
        nz = len(game.zones)
        self.zone_bld: list[list[int]] = [[] for _ in range(nz)]
        self.zone_floors = [0] * (nz * n)
        self.zone_tall = [0] * (nz * n)
        self.zone_top = [0] * nz
        self.zone_roof = [0] * nz
        self.zone_ftiles = [0] * nz
        self.zone_large = [0] * nz
        self.tiles = [0, 2, 2, 8]
        """Tiles in the supply, indexed by tile kind (1 amphitheatre, 2 temple, 3 fountain)."""
        self.removed = [0, 0, 0, 0]
        """Tiles set aside unplaced (unsold or no room), by tile kind."""
        self.points = [0] * n
        self.phase = CONSTRUCTION
        self.active = [True] * n
        self.to_move = self.consul
        self.stack: list[Decision] = []
        self.lot = 0
        self.bids: SealedCommitments[tuple[int, ...]] = SealedCommitments(())
        self.draft: list[int] = []
        self.auction_log: list[list[Any]] = []
        """This round's auctions: ``[kind, winner (-1 none), bids per seat (None = not revealed), zone]``."""
        self.draw_queue: list[tuple[int, int]] = []
        self.bonus = [0] * n
        self.scorings: list[list[int]] = []
        """Each scoring so far (one per round): the points of every zone and seat, ``[z * n + seat]`` (public)."""
        self._start_construction()

    # ================================================================ contract
    def current_player(self) -> int:
        """Return the seat to move, or TERMINAL."""
        return TERMINAL if self.phase == OVER else self.to_move

    def is_terminal(self) -> bool:
        """Return True after round 4 (Scoring, and the End phase if played)."""
        return self.phase == OVER

    def scores(self) -> list[float]:
        """Return each seat's public score so far."""
        return [float(s) for s in self.points]

    def projected_scores(self) -> list[float]:
        """Return each seat's points plus the board's current zone scoring for every scoring still to come.

        An estimate for searches cut short (see ``State.projected_scores``): the zone majorities of the position
        are assumed to hold until the end (capitol.md §5.2 Phase 3).
        """
        scorings = ROUNDS - self.round + (0 if self.phase in (END, OVER) else 1)
        if scorings <= 0:
            return [float(s) for s in self.points]
        return [s + b * scorings for s, b in zip(self.points, self.board_points(), strict=True)]

    def returns(self) -> list[float]:
        """Return 1.0 for every seat with the highest final total (``final_tiebreak="shared"``), else 0.0."""
        if self.phase != OVER:
            return [0.0] * self.game.num_players
        best = max(self.points)
        return [1.0 if s == best else 0.0 for s in self.points]

    def shown_key(self, player: int) -> Hashable:
        """What chance and hidden choices have shown ``player`` (``State.shown_key``; capitol.md §5.2).

        Its parts: the round, phase and lot, the auctions opened (each shows every sealed bid), the draw piles'
        sizes (a card drawn or a pile turned over), the other seats' hand sizes (a card of theirs played or bid,
        which shows it) and the public log (face-up draws, scorings).
        """
        others = tuple(len(hand) for seat, hand in enumerate(self.hands) if seat != player)
        piles = tuple(len(pile) for pile in self.piles)
        return (self.round, self.phase, self.lot, len(self.auction_log), piles, others, len(self.log_events))

    def observation(self, player: int | None) -> CapitolObservation:
        """Return what ``player`` may see (None = spectator); see :mod:`meeple.games.capitol.observation`."""
        return build_observation(self, player)

    def _why_illegal(self, action: Action) -> Message | None:
        """Why a move is refused: see :mod:`meeple.games.capitol.why`."""
        return why_illegal(self, action)

    def _describe(self, action: Action, actor: int, perspective: int | None) -> Message:
        return describe(self.game, action, actor, perspective)

    # ================================================================ legal actions
    def _legal_actions(self) -> list[Action]:
        tab = self.game.tables
        p = self.to_move
        if self.stack:
            top = self.stack[-1]
            if top.kind == "floor":
                return self._floor_actions(p, top.data[1])
            if top.kind == "roof":
                return self._roof_actions(p)
            if top.kind == "permit":
                return self._permit_actions(p, top.data[0])
            return self._tile_actions(top.data[0])
        if self.phase == CONSTRUCTION:
            return self._construction_actions(p)
        if self.phase == AUCTION:
            out: list[Action] = [tab.seal]
            left: dict[int, int] = {}
            for c in self.hands[p]:
                left[CARD_REP[c]] = left.get(CARD_REP[c], 0) + 1
            for c in self.draft:
                left[CARD_REP[c]] -= 1
            out += [tab.add_bid[rep] for rep in sorted(left) if left[rep] > 0]
            return out
        return [tab.draw[t] for t in range(3) if self.piles[t]]

    def _construction_actions(self, p: int) -> list[Action]:
        tab = self.game.tables
        out: list[Action] = [tab.pass_]
        can_floor = self.supply > 0
        can_roof = (self.reserve[2 * p] + self.reserve[2 * p + 1] > 0) and any(c & 3 == 0 for c in self.offboard[p])
        permit_ok: dict[int, bool] = {}
        seen: set[int] = set()
        for c in sorted(self.hands[p]):
            rep = CARD_REP[c]
            if rep in seen:
                continue
            seen.add(rep)  # card actions name the kind (its lowest id); _apply picks the copy (_copy_in_hand)
            t = CARD_TYPE[c]
            if t == FLOOR:
                ok = can_floor
            elif t == ROOF:
                ok = can_roof
            else:
                colour = CARD_COLOUR[c]
                if colour not in permit_ok:
                    permit_ok[colour] = bool(self._permit_actions(p, colour, True))
                ok = permit_ok[colour]
            if ok:
                out.append(tab.play[rep][1])
            out.append(tab.play[rep][0])
        return out

    def _floor_actions(self, p: int, last: int) -> list[Action]:
        """Return where the next floor may go: a new building or onto an unroofed building (by height).

        ``last`` is the height of the building the previous floor of this action went on (0 = first floor). With
        ``floor_placement="tallest_incomplete_only"`` only the tallest unroofed building, or the one the first floor
        started or extended, may be built on. Rules: capitol.md §5.2 Floor action.
        """
        tab = self.game.tables
        heights = sorted({c >> 2 for c in self.offboard[p] if c & 3 == 0})
        if heights and self.game.params.floor_placement == "tallest_incomplete_only":
            heights = sorted({heights[-1], last} - {0})
        return [tab.floor[0]] + [tab.floor[h] for h in heights]

    def _roof_actions(self, p: int) -> list[Action]:
        tab = self.game.tables
        out: list[Action] = []
        for h in sorted({c >> 2 for c in self.offboard[p] if c & 3 == 0}):
            for roof in (1, 2):
                if self.reserve[2 * p + roof - 1] > 0:
                    out.append(tab.roof[h][roof - 1])
        return out

    def zone_free(self) -> list[int]:
        """Return the free small spaces per zone (buildings and fountain tiles use them)."""
        zones, bld, tiles = self.game.zones, self.zone_bld, self.zone_ftiles
        return [zones[z].small_spaces - len(bld[z]) - tiles[z] for z in range(len(zones))]

    def _permit_actions(self, p: int, colour: int, first_only: bool = False) -> list[Action]:
        """Return the legal placements of ``p``'s completed buildings in zones of ``colour``.

        The hot-path twin of :func:`rules.permit_allows` (a test checks they agree); ``first_only`` stops at the
        first placement found. Rules: capitol.md §5.2 Permit action.
        """
        game = self.game
        bld, tiles, roofs, top = self.zone_bld, self.zone_ftiles, self.zone_roof, self.zone_top
        small = game.small_spaces
        open_zones = [z for z in game.zones_of_colour[colour] if small[z] - len(bld[z]) - tiles[z] > 0]
        out: list[Action] = []
        if not open_zones:
            return out
        table = game.tables.building
        for code in sorted(set(self.offboard[p])):
            roof = code & 3
            h = code >> 2
            if roof == 0 or h > game.max_height:
                continue
            for z in open_zones:
                zone_roof = roofs[z]
                if zone_roof == 0:
                    if h != 1:
                        continue
                    a, b = game.sibling_zones[z]
                    if roofs[a] == roof and roofs[b] == roof:
                        continue
                elif zone_roof != roof or (h != top[z] and h != top[z] + 1):
                    continue
                out.append(table[h][roof - 1][z])
                if first_only:
                    return out
        return out

    def _tile_actions(self, kind: int) -> list[Action]:
        tab = self.game.tables
        if kind == FOUNTAIN:
            return [tab.tile[z] for z, f in enumerate(self.zone_free()) if f > 0]
        return [tab.tile[z] for z, t in enumerate(self.zone_large) if t == 0]

    # ================================================================ apply
    def _apply(self, action: Action) -> None:
        p = self.to_move
        match action:
            case PlayCard(card=card, act=act):
                self._play_card(p, self._copy_in_hand(p, card), act)
            case PlaceFloor(onto=onto):
                self._place_floor(p, onto)
            case PlaceRoof(height=height, roof=roof):
                self.offboard[p].remove(height * 4)
                self.offboard[p].append(height * 4 + roof)
                self.offboard[p].sort()
                self.reserve[2 * p + roof - 1] -= 1
                self.stack.pop()
                self._next_builder(p)
            case PlaceBuilding(height=height, roof=roof, zone=zone):
                self._place_building(p, height, roof, zone)
                self.stack.pop()
                self._next_builder(p)
            case AddToBid(card=card):
                self.draft.append(self._copy_in_hand(p, card, self.draft))
            case PlaceTile(zone=zone):
                self._place_tile(zone)
            case DrawCard(pile=pile):
                self._draw(p, pile)
            case SealBid():
                self.bids.commit(p, tuple(self.draft))
                self.draft = []
                self._continue_bidding()
            case Pass():
                self.active[p] = False
                self._next_builder(p)
            case _:
                raise AssertionError(f"not a Capitol action: {action!r}")

    # ---------------------------------------------------------------- construction
    def _start_construction(self) -> None:
        self.phase = CONSTRUCTION
        self.active = [True] * self.game.num_players
        self._next_builder(self.consul - 1)

    def _next_builder(self, last: int) -> None:
        """Give the turn to the next active seat clockwise after ``last`` (empty hands pass automatically)."""
        n = self.game.num_players
        for i in range(1, n + 1):
            s = (last + i) % n
            if self.active[s]:
                if self.hands[s]:
                    self.to_move = s
                    return
                self.active[s] = False
        self._start_auctions()

    def _copy_in_hand(self, p: int, kind: int, taken: list[int] | None = None) -> int:
        """Return the copy of card kind ``kind`` (a ``CARD_REP`` id) that ``p`` plays or bids.

        Card actions name a kind, never a copy: which of several identical cards a hand holds is hidden, and the
        action is in the public history. A public copy is used first, then the lowest id (not in ``taken``).
        """
        copies = [c for c in self.hands[p] if CARD_REP[c] == kind and (taken is None or c not in taken)]
        public = [c for c in copies if c in self.known[p]]
        return min(public or copies)

    def _take_from_hand(self, p: int, card: int) -> None:
        """Remove ``card`` from ``p``'s hand; one public copy of its kind (if any) stops being public.

        Identical cards are interchangeable and the other seats see only the kind played, so when a hidden copy
        leaves the hand while a public one stays, what the others know is one public copy fewer (capitol.md §5.3).
        """
        self.hands[p].remove(card)
        known = self.known[p]
        if card in known:
            known.remove(card)
            return
        rep = CARD_REP[card]
        for c in known:
            if CARD_REP[c] == rep:
                known.remove(c)
                return

    def _make_public(self, p: int, shown: tuple[int, ...]) -> None:
        """Record that ``p``'s hand holds the cards of a revealed bid: per kind, at least as many public copies."""
        known = self.known[p]
        for c in shown:
            if c in known:
                continue
            rep = CARD_REP[c]
            if sum(CARD_REP[k] == rep for k in known) < sum(CARD_REP[b] == rep for b in shown):
                known.append(c)

    def _take_face_down(self, p: int, card: int, colour: int) -> None:
        """Remove ``card``, played face down, from ``p``'s hand: the others know only its type (and ``colour``).

        They cannot tell which public copy left, so one public copy of each kind it could be stops being public
        (the card itself first, when it was public). Rules: capitol.md §2 row n (FR reading), docs/decisions.md.
        """
        self.hands[p].remove(card)
        known = self.known[p]
        t = CARD_TYPE[card]
        gone = {CARD_REP[card]} if card in known else set()
        if gone:
            known.remove(card)
        for c in list(known):
            rep = CARD_REP[c]
            if CARD_TYPE[c] == t and colour in (-1, CARD_COLOUR[c]) and rep not in gone:
                gone.add(rep)
                known.remove(c)

    def _play_card(self, p: int, card: int, act: bool) -> None:
        t = CARD_TYPE[card]
        seen = PUBLIC
        if self.game.params.played_card == "face_down":
            colour = CARD_COLOUR[card] if act and t == PERMIT else -1  # the building's zone shows it
            self._take_face_down(p, card, colour)
            seen = face_down(p, colour)
        else:
            self._take_from_hand(p, card)
        self.discards[t].append(card)
        self.discard_seen[t].append(seen)
        if not act:
            self._next_builder(p)
        elif t == FLOOR:
            self.stack.append(Decision(p, "floor", (min(2, self.supply), 0)))
        elif t == ROOF:
            self.stack.append(Decision(p, "roof"))
        else:
            self.stack.append(Decision(p, "permit", (CARD_COLOUR[card],)))

    def _place_floor(self, p: int, onto: int) -> None:
        bld = self.offboard[p]
        if onto:
            bld.remove(onto * 4)
        bld.append((onto + 1) * 4)
        bld.sort()
        self.supply -= 1
        left = self.stack.pop().data[0] - 1
        if left > 0:
            self.stack.append(Decision(p, "floor", (left, onto + 1)))
        else:
            self._next_builder(p)

    def _place_building(self, p: int, height: int, roof: int, zone: int) -> None:
        n = self.game.num_players
        self.offboard[p].remove(height * 4 + roof)
        self.zone_bld[zone].append(height * 4 + p)
        self.zone_roof[zone] = roof
        i = zone * n + p
        self.zone_floors[i] += height
        if height > self.zone_tall[i]:
            self.zone_tall[i] = height
        if height > self.zone_top[zone]:
            self.zone_top[zone] = height

    # ---------------------------------------------------------------- improvement
    def lots(self) -> tuple[int, int, int]:
        """Return the three tiles auctioned this round (capitol.md §5.2 Phase 2)."""
        return LOTS_EARLY if self.round <= 2 else LOTS_LATE

    def _start_auctions(self) -> None:
        self.phase = AUCTION
        self.lot = 0
        self.auction_log = []
        self._open_lot()

    def _open_lot(self) -> None:
        n = self.game.num_players
        while self.lot < 3:
            kind = self.lots()[self.lot]
            if kind == FOUNTAIN and self.game.params.fountain_no_space == "skip_auction" and max(self.zone_free()) <= 0:
                self._set_aside(kind)
                self.auction_log.append([kind, -1, None, -1])
                self.lot += 1
                continue
            self.bids = SealedCommitments([(self.consul + i) % n for i in range(n)])
            self.draft = []
            self._continue_bidding()
            return
        self._score_round()

    def _continue_bidding(self) -> None:
        """Seal empty bids for seats with no cards, then ask the next seat or resolve the lot."""
        while True:
            seat = self.bids.pending_player()
            if seat is None:
                self._resolve_lot()
                return
            if self.hands[seat]:
                self.to_move = seat
                return
            self.bids.commit(seat, ())

    def _set_aside(self, kind: int) -> None:
        self.tiles[kind] -= 1
        self.removed[kind] += 1

    def _resolve_lot(self) -> None:
        n = self.game.num_players
        revealed = self.bids.reveal()
        self.bids = SealedCommitments(())  # revealed: from now on public in the auction log
        bids = [revealed[s] for s in range(n)]
        kind = self.lots()[self.lot]
        shown = [list(b) for b in bids]
        if self.game.params.zero_bid == "no_sale" and not any(bids):
            self._set_aside(kind)
            self.auction_log.append([kind, -1, shown, -1])
            self._next_lot()
            return
        winner = rules.auction_winner(bids, self.consul)
        for c in bids[winner]:
            self._take_from_hand(winner, c)
            self.discards[CARD_TYPE[c]].append(c)
            self.discard_seen[CARD_TYPE[c]].append(PUBLIC)
        for s in range(n):
            if s != winner:
                self._make_public(s, bids[s])
        self.auction_log.append([kind, winner, shown, -1])
        if kind == FOUNTAIN and max(self.zone_free()) <= 0:  # award_no_place
            self._set_aside(kind)
            self._next_lot()
            return
        self.stack.append(Decision(winner, "tile", (kind,)))
        self.to_move = winner

    def _place_tile(self, zone: int) -> None:
        kind = self.stack.pop().data[0]
        if kind == FOUNTAIN:
            self.zone_ftiles[zone] += 1
        else:
            self.zone_large[zone] = kind
        self.tiles[kind] -= 1
        entry = self.auction_log[-1]
        self.auction_log[-1] = [entry[0], entry[1], entry[2], zone]
        self._next_lot()

    def _next_lot(self) -> None:
        self.lot += 1
        self._open_lot()

    # ---------------------------------------------------------------- scoring and end phase
    def zone_placings(self, zone: int) -> tuple[list[int], list[int]]:
        """Return ``(firsts, seconds)`` in ``zone`` (capitol.md §5.2 Phase 3)."""
        n = self.game.num_players
        sl = slice(zone * n, zone * n + n)
        return rules.zone_placings(
            self.zone_floors[sl], self.zone_tall[sl], self.game.params.shared_first_blocks_second
        )

    def zone_points(self) -> list[list[int]]:
        """Return, per zone, what each seat would score if the board were scored now (capitol.md §5.2 Phase 3)."""
        n = self.game.num_players
        flag = self.game.params.shared_first_blocks_second
        out = []
        for z, zone in enumerate(self.game.zones):
            sl = slice(z * n, z * n + n)
            fountains = zone.printed_fountains + self.zone_ftiles[z]
            temple = self.zone_large[z] == TEMPLE
            out.append(rules.score_zone(self.zone_floors[sl], self.zone_tall[sl], fountains, temple, flag))
        return out

    def board_points(self) -> list[int]:
        """Return what each seat would score if the board were scored now (capitol.md §5.2 Phase 3)."""
        return [sum(column) for column in zip(*self.zone_points(), strict=True)]

    def _score_round(self) -> None:
        per_zone = self.zone_points()
        self.scorings.append([p for zone in per_zone for p in zone])
        gained = [sum(column) for column in zip(*per_zone, strict=True)]
        zones = self.game.zones
        for seat, total in enumerate(gained):  # the breakdown in the log too (the observation keeps every round's)
            parts = [f"{zones[z].name} {points[seat]}" for z, points in enumerate(per_zone) if points[seat]]
            breakdown = Message(", ".join(parts) or "-", None, VERBATIM)
            self._event(
                seat,
                plural(
                    "scores {n} point in round {round} ({zones})",
                    "scores {n} points in round {round} ({zones})",
                    total,
                    round=self.round,
                    zones=breakdown,
                ),
            )
        self.points = [s + b for s, b in zip(self.points, gained, strict=True)]
        if self.round == ROUNDS and self.game.params.final_round_end_phase == "skip":
            self.phase = OVER
            return
        self._start_end_phase()

    def _start_end_phase(self) -> None:
        n = self.game.num_players
        params = self.game.params
        self.phase = END
        bonus = [0] * n
        for z in range(len(self.game.zones)):
            if self.zone_large[z] == AMPHITHEATRE:
                sl = slice(z * n, z * n + n)
                flag = params.shared_first_blocks_second
                extra = rules.amphitheatre_bonus(self.zone_floors[sl], self.zone_tall[sl], flag)
                bonus = [a + b for a, b in zip(bonus, extra, strict=True)]
        self.bonus = bonus
        order = [(self.consul + i) % n for i in range(n)]
        with_own = params.amph_bonus_timing == "with_own_draw"
        queue = []
        for s in order:
            base = 6 if params.end_draw == "draw_six" else max(0, 6 - len(self.hands[s]))
            queue.append((s, base + (bonus[s] if with_own else 0)))
        if not with_own:
            queue += [(s, bonus[s]) for s in order]
        self.draw_queue = queue
        for t in range(3):
            self._refill(t)
        self._next_draw()

    def _refill(self, t: int) -> None:
        """Turn discard pile ``t`` over onto its empty draw pile (oldest discard on top), or shuffle it."""
        if self.piles[t] or not self.discards[t]:
            return
        cards, seen = self.discards[t], self.discard_seen[t]
        self.discards[t], self.discard_seen[t] = [], []
        order = list(range(len(cards)))
        if self.game.params.exhausted_pile == "shuffle":
            self.rng.shuffle(order)
            self.pile_mode[t] = PILE_SHUFFLED
        else:
            order.reverse()
            self.pile_mode[t] = PILE_PUBLIC
        self.piles[t] = [cards[i] for i in order]
        self.pile_seen[t] = [seen[i] for i in order]

    def _draw(self, p: int, t: int) -> None:
        card = self.piles[t].pop()
        self.pile_seen[t].pop()
        self.hands[p].append(card)
        self.known[p].append(card)  # drawn face up: everyone saw it
        self._event(p, M("draws {card}, face up", card=CARD[card]))
        self._refill(t)
        seat, left = self.draw_queue[0]
        self.draw_queue[0] = (seat, left - 1)
        self._next_draw()

    def _next_draw(self) -> None:
        queue = self.draw_queue
        while queue and queue[0][1] <= 0:
            queue.pop(0)
        if queue and (self.piles[0] or self.piles[1] or self.piles[2]):
            self.to_move = queue[0][0]
            return
        self.draw_queue = []
        if self.round == ROUNDS:
            self.phase = OVER
            return
        self.consul = (self.consul + 1) % self.game.num_players
        self.round += 1
        self._start_construction()

    # ================================================================ copies, JSON, re-deal
    def edited(self) -> None:
        """As :meth:`State.edited`; a draw or discard pile set by hand without its seen codes is all public."""
        super().edited()
        for seen, cards in ((self.pile_seen, self.piles), (self.discard_seen, self.discards)):
            for t in range(3):
                if len(seen[t]) != len(cards[t]):
                    seen[t] = [PUBLIC] * len(cards[t])

    def _copy_fields(self, other: State[Capitol]) -> None:
        # One statement per field (the names of _SCALARS, _FLAT_LISTS, _NESTED_LISTS and _SEEN_LISTS; a test checks
        # that they match): a quarter faster than getattr/setattr by name, in the pure-Python and compiled builds.
        assert isinstance(other, CapitolState)
        other.consul = self.consul
        other.round = self.round
        other.supply = self.supply
        other.phase = self.phase
        other.to_move = self.to_move
        other.lot = self.lot
        other.pile_mode = list(self.pile_mode)
        other.reserve = list(self.reserve)
        other.zone_floors = list(self.zone_floors)
        other.zone_tall = list(self.zone_tall)
        other.zone_top = list(self.zone_top)
        other.zone_roof = list(self.zone_roof)
        other.zone_ftiles = list(self.zone_ftiles)
        other.zone_large = list(self.zone_large)
        other.tiles = list(self.tiles)
        other.removed = list(self.removed)
        other.points = list(self.points)
        other.active = list(self.active)
        other.draft = list(self.draft)
        other.auction_log = list(self.auction_log)
        other.draw_queue = list(self.draw_queue)
        other.bonus = list(self.bonus)
        other.hands = [list(x) for x in self.hands]
        other.known = [list(x) for x in self.known]
        other.piles = [list(x) for x in self.piles]
        other.discards = [list(x) for x in self.discards]
        other.offboard = [list(x) for x in self.offboard]
        other.zone_bld = [list(x) for x in self.zone_bld]
        other.scorings = [list(x) for x in self.scorings]
        other.discard_seen = [list(x) for x in self.discard_seen]
        other.pile_seen = [list(x) for x in self.pile_seen]
        other.stack = list(self.stack)
        other.bids = self.bids.copy()

    def _body_to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {name: getattr(self, name) for name in _SCALARS}
        for name in _FLAT_LISTS:
            body[name] = [list(x) if isinstance(x, tuple) else x for x in getattr(self, name)]
        body["stack"] = [d.to_json() for d in self.stack]
        for name in _NESTED_LISTS:
            body[name] = [list(x) for x in getattr(self, name)]
        body["bids"] = self.bids.to_json(list)
        for name in _SEEN_LISTS:  # written only when a card went face down (played_card=face_down)
            if any(x != PUBLIC for lst in getattr(self, name) for x in lst):
                body[name] = [list(x) for x in getattr(self, name)]
        return body

    def _restore_body(self, body: dict[str, Any]) -> None:
        """Set every game field from :meth:`_body_to_json` output, each value converted to its type.

        A wrong type changes the value, so the snapshot check that follows (``to_json`` gives the snapshot back)
        names it.
        """
        for name in _SCALARS:
            setattr(self, name, int(body[name]))
        for name in _FLAT_LISTS:
            if name == "active":
                self.active = [bool(x) for x in body[name]]
            elif name not in ("auction_log", "draw_queue"):
                setattr(self, name, [int(x) for x in body[name]])
        self.auction_log = [
            [int(k), int(w), None if shown is None else [[int(c) for c in b] for b in shown], int(z)]
            for k, w, shown, z in body["auction_log"]
        ]
        self.stack = [Decision.from_json(d) for d in body["stack"]]
        self.draw_queue = [(int(s), int(c)) for s, c in body["draw_queue"]]
        for name in _NESTED_LISTS:
            setattr(self, name, [[int(c) for c in x] for x in body[name]])
        for name, cards in (("discard_seen", self.discards), ("pile_seen", self.piles)):
            default = [[PUBLIC] * len(x) for x in cards]
            setattr(self, name, [[int(c) for c in x] for x in body.get(name, default)])
        self.bids = SealedCommitments.from_json(body["bids"], lambda v: tuple(int(c) for c in v))

    def check_consistency(self) -> None:
        """Check a restored position: every card, floor, roof and tile exactly once, derived zone totals, ranges.

        Raises:
            InvalidStateError: the first broken invariant, naming the body field.

        Rules: capitol.md §5.1 (the three decks, 90 floors, 5 roofs of each type a player, 2 amphitheatres,
        2 temples and 8 fountain tiles), §5.2 (zone majorities count floors and the tallest building).
        """
        n = self.game.num_players
        nz = len(self.game.zones)
        expect_int(self.consul, "body.consul", 0, n - 1)
        expect_int(self.round, "body.round", 1, ROUNDS)
        expect_int(self.phase, "body.phase", CONSTRUCTION, OVER)
        expect_int(self.to_move, "body.to_move", 0, n - 1)
        expect_int(self.lot, "body.lot", 0, 3)
        expect_int(self.supply, "body.supply", 0, TOTAL_FLOORS)
        for name, size in (("hands", n), ("known", n), ("offboard", n), ("piles", 3), ("discards", 3)):
            expect(len(getattr(self, name)) == size, f"body.{name}", f"{size} entries")
        for name, size in (("points", n), ("active", n), ("bonus", n), ("reserve", 2 * n), ("zone_bld", nz)):
            expect(len(getattr(self, name)) == size, f"body.{name}", f"{size} entries")
        expect_ints(self.points, "body.points", 0, 10_000)
        if len(self.scorings) > self.round or any(len(r) != nz * n for r in self.scorings):
            raise InvalidStateError(f"body.scorings: at most one scoring per round played, {nz} x {n} points each")
        for i, scoring in enumerate(self.scorings):
            expect_ints(scoring, f"body.scorings[{i}]", 0, 1_000)
        gained = [sum(r[z * n + p] for r in self.scorings for z in range(nz)) for p in range(n)]
        if gained != list(self.points):
            raise InvalidStateError(f"body.points {self.points} are not the sum of body.scorings {gained}")
        self._check_cards()
        self._check_buildings()
        for k, total in ((AMPHITHEATRE, 2), (TEMPLE, 2), (FOUNTAIN, 8)):
            placed = sum(self.zone_ftiles) if k == FOUNTAIN else sum(t == k for t in self.zone_large)
            expect(
                self.tiles[k] >= 0 and self.removed[k] >= 0 and self.tiles[k] + self.removed[k] + placed == total,
                f"body.tiles[{k}]",
                f"with the tiles set aside and placed: {total} {TILE_NAMES[k]} tiles",
            )
        for d in self.stack:
            expect(d.kind in ("floor", "roof", "permit", "tile") and 0 <= d.player < n, "body.stack", "a decision")
            expect(all(type(x) is int for x in d.data), "body.stack", "decision data are integers")

    def _check_cards(self) -> None:
        zones: dict[str, list[int]] = {}
        for s, hand in enumerate(self.hands):
            zones[f"body.hands[{s}]"] = hand
            expect(set(self.known[s]) <= set(hand), f"body.known[{s}]", "cards of that hand")
        n = len(self.hands)
        for t in range(3):
            zones[f"body.piles[{t}]"] = self.piles[t]
            zones[f"body.discards[{t}]"] = self.discards[t]
            for name, cards in (("pile_seen", self.piles[t]), ("discard_seen", self.discards[t])):
                seen = getattr(self, name)
                expect(len(seen) == 3 and len(seen[t]) == len(cards), f"body.{name}[{t}]", "one entry per card")
                expect_ints(seen[t], f"body.{name}[{t}]", PUBLIC, 4 * n - 1)
        expect_each_once(zones, [c for deck in DECKS for c in deck], "card")
        expect(set(self.draft) <= set(self.hands[self.to_move]), "body.draft", "cards of the bidder's hand")
        for s, bid in self.bids.values.items():
            expect(0 <= s < len(self.hands) and set(bid) <= set(self.hands[s]), "body.bids", "cards of that hand")
        expect_ints(list(self.bids.order), "body.bids.order", 0, n - 1)
        pending = self.bids.pending_player()
        if self.phase == AUCTION and not self.stack and pending is not None:
            expect(pending == self.to_move, "body.bids.order", "the seat to move as the next bidder")

    def _check_buildings(self) -> None:
        n = self.game.num_players
        floors = self.supply
        roofs = [0] * (2 * n)
        for p, bld in enumerate(self.offboard):
            for code in bld:
                expect_int(code, f"body.offboard[{p}]", 4, 4 * TOTAL_FLOORS + 2)
                floors += code >> 2
                if code & 3:
                    roofs[2 * p + (code & 3) - 1] += 1
        zone_floors, zone_tall, zone_top = [0] * len(self.zone_floors), [0] * len(self.zone_tall), []
        for z, bld in enumerate(self.zone_bld):
            top = 0
            for code in bld:
                h, p = code >> 2, code & 3
                expect(1 <= h and p < n and self.zone_roof[z] in (1, 2), f"body.zone_bld[{z}]", "roofed buildings")
                floors += h
                roofs[2 * p + self.zone_roof[z] - 1] += 1
                zone_floors[z * n + p] += h
                zone_tall[z * n + p] = max(zone_tall[z * n + p], h)
                top = max(top, h)
            zone_top.append(top)
        expect(floors == TOTAL_FLOORS, "body.supply", f"with the floors built: {TOTAL_FLOORS} floors")
        for i, used in enumerate(roofs):
            expect(self.reserve[i] >= 0 and self.reserve[i] + used == ROOFS_PER_TYPE, f"body.reserve[{i}]", "5 roofs")
        expect(self.zone_floors == zone_floors, "body.zone_floors", "the floors of each seat's buildings a zone")
        expect(self.zone_tall == zone_tall, "body.zone_tall", "each seat's tallest building a zone")
        expect(self.zone_top == zone_top, "body.zone_top", "each zone's tallest building")

    def _resample(self, player: int, rng: Rng) -> CapitolState:
        """Re-deal what ``player`` cannot see (see :func:`meeple.games.capitol.redeal.resample`)."""
        return resample(self, player, rng)


_SCALARS = ("consul", "round", "supply", "phase", "to_move", "lot")
_FLAT_LISTS = (
    "pile_mode",
    "reserve",
    "zone_floors",
    "zone_tall",
    "zone_top",
    "zone_roof",
    "zone_ftiles",
    "zone_large",
    "tiles",
    "removed",
    "points",
    "active",
    "draft",
    "auction_log",
    "draw_queue",
    "bonus",
)
_NESTED_LISTS = ("hands", "known", "piles", "discards", "offboard", "zone_bld", "scorings")
_SEEN_LISTS = ("discard_seen", "pile_seen")
"""Nested lists written to JSON only when they hold a face-down card (older snapshots have none)."""
