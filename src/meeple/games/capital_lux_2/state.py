"""The state of a Capital Lux 2 game: the core contract on top of the flow in ``flow.py`` and ``solo.py``.

Rules: capital_lux_2.md (all sections); the power tiles live in ``powers/``.
Seats ``0..n-1`` are the players; in solo (``players=1``) index 1 of the participant arrays (City, Bonus pile, gold)
is ROB, who is not a seat and never decides.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from meeple.core.action import Action
from meeple.core.decisions import Decision, SealedCommitments
from meeple.core.rng import Rng
from meeple.core.snapshot import expect, expect_each_once, expect_int, expect_ints
from meeple.core.state import TERMINAL, State
from meeple.games.capital_lux_2 import flow, solo
from meeple.games.capital_lux_2.actions import (
    KeepCard,
    PlayToCapital,
    PlayToCity,
    TakeCard,
)
from meeple.games.capital_lux_2.const import BONUS, PH_DRAFT, PH_END, PH_RESOLVE, ROB_BONUS
from meeple.games.capital_lux_2.data import CARD_COLOUR, COLOUR_NAMES, NUM_CARDS, ROUNDS, card_name
from meeple.games.capital_lux_2.describe import describe
from meeple.games.capital_lux_2.observation import build_observation
from meeple.games.capital_lux_2.powers import POWERS, PowerTile
from meeple.games.capital_lux_2.rules import score, solo_wins, winners
from meeple.games.capital_lux_2.why import why_illegal
from meeple.i18n.message import Message

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.game import CapitalLux2Game
    from meeple.games.capital_lux_2.observation import CapitalLux2Observation


class CapitalLux2State(State["CapitalLux2Game"]):
    """A Capital Lux 2 position.

    Attributes (card piles are lists of card ids; the last card of a pile is the one placed last):
        deck: citizen deck, top = last. discard: discard pile (public).
        capital: the 4 Capital districts. hidden: face-down Capital items ``[district, kind, value, knower]``
            (kind 0 = Agent modifier value, 1 = citizen card id; knower = seat that has seen it or -1).
        city: per participant, 4 districts. hand: per seat, sorted. bonus, gold: per participant.
        mat: power-tile material (lists of ints, owned by the tiles). peek/peek_owner: cards a seat is looking at.
        stack: pending decisions. phase, round (0-2), emperor, turn, ending, last_queue: the flow.
        packs, first, sealed, dstage: the draft. res, res_max, revealed: resolution cursor and revealed items.
        res_log: public record of the last resolution (see ``flow.LOG_*``), kept until the next one.
        rob_hand, rob_reserve, rob_deck, rob_red, rob_blue, rob_last: solo (ROB).
    """

    @classmethod
    def _empty(cls, game: CapitalLux2Game) -> CapitalLux2State:
        """An instance with no field set, for ``clone``/``restore`` (works compiled with mypyc too; core.State)."""
        return cls(game, 0, blank=True)

    def __init__(self, game: CapitalLux2Game, seed: int, setup: bool = True, *, blank: bool = False) -> None:
        if blank:  # clone() and restore() set every field (see _empty)
            return
        super().__init__(game, seed)
        n = game.num_players
        self.n = n
        self.solo = n == 1
        self.np = n + 1 if self.solo else n
        self.tile_ids: list[str] = []
        self.tiles: list[PowerTile] = []
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.capital: list[list[int]] = [[], [], [], []]
        self.hidden: list[list[int]] = []
        self.revealed: list[list[int]] = []
        self.city: list[list[list[int]]] = [[[], [], [], []] for _ in range(self.np)]
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.bonus: list[list[int]] = [[] for _ in range(self.np)]
        self.gold: list[int] = [0] * self.np
        self.mat: dict[str, list[int]] = {}
        self.peek: list[int] = []
        self.peek_owner = -1
        self.stack: list[Decision] = []
        self.extra_play = False
        self.phase = PH_DRAFT
        self.round = 0
        self.emperor = 0
        self.turn = 0
        self.ending = False
        self.last_queue: list[int] = []
        self.packs: list[list[int]] = [[] for _ in range(n)]
        self.first: list[int] = [-1] * n
        self.sealed: SealedCommitments[tuple[int, ...]] = SealedCommitments(range(n))
        self.dstage = 0
        self.res: list[int] = [0, 0, 0]
        self.res_max: list[int] = [0, 0, 0, 0]
        self.res_log: list[list[int]] = []
        self.rob_hand: list[int] = []
        self.rob_reserve: list[int] = []
        self.rob_deck: list[int] = []
        self.rob_red: list[int] = []
        self.rob_blue: list[int] = []
        self.rob_last: list[int] = []
        if setup:
            flow.setup(self)

    def set_tiles(self, tile_ids: list[str]) -> None:
        """Set the four power tiles (blue, pink, yellow, green) by id."""
        self.tile_ids = list(tile_ids)
        self.tiles = [POWERS[t] for t in tile_ids]

    # ================================================================ helpers used by flow and the tiles
    def can_draw(self) -> bool:
        """Return whether a citizen card can be drawn (deck or discards non-empty). Rules: spec §15."""
        return bool(self.deck) or bool(self.discard)

    def draw(self) -> int:
        """Draw the top citizen card, reshuffling the discards into a new deck if needed; -1 if none (§15)."""
        if not self.deck:
            if not self.discard:
                return -1
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def add_to_hand(self, seat: int, card: int) -> None:
        """Add a card to a seat's (sorted) hand; -1 is ignored."""
        if card >= 0:
            insort(self.hand[seat], card)

    def capital_district_of(self, card: int) -> int:
        """Return the Capital district holding ``card``. Raises ``ValueError`` if it is not in the Capital."""
        for d in range(4):
            if card in self.capital[d]:
                return d
        raise ValueError(f"{card_name(card)} is not in the Capital")

    def discard_city_district(self, participant: int, district: int) -> None:
        """Discard a whole City district (spec §10)."""
        self.discard += self.city[participant][district]
        self.city[participant][district] = []

    def play_actions(self, seat: int) -> list[Action]:
        """Return the play actions of a seat: each hand card to its City or to the Capital."""
        table = self.game.t_play
        out: list[Action] = []
        for c in self.hand[seat]:
            out += table[c]
        return out

    def play_card(self, seat: int, card: int, to_capital: bool) -> None:
        """Play a hand card to the matching district of the City or the Capital (its power triggers). Rules: §8."""
        self.hand[seat].remove(card)
        d = CARD_COLOUR[card]
        if not to_capital:
            self.city[seat][d].append(card)
            return
        self.capital[d].append(card)
        tile = self.tiles[d]
        if tile.is_possible(self, seat, card):
            tile.on_capital_play(self, seat, card)

    def total_score(self, participant: int) -> int:
        """Return a participant's score: City + Bonus cards + 2 per gold (+ tile scoring hooks). Rules: §13."""
        base = score(self.city[participant], self.bonus[participant], self.gold[participant])
        return base + sum(t.score_bonus(self, participant) for t in self.tiles)

    # ================================================================ contract
    def current_player(self) -> int:
        """Return the seat to move, or TERMINAL."""
        if self.phase == PH_END:
            return TERMINAL
        if self.stack:
            return self.stack[-1].player
        if self.phase == PH_DRAFT:
            pending = self.sealed.pending_player()
            assert pending is not None
            return pending
        return self.turn

    def is_terminal(self) -> bool:
        """Return True after the third round's bonuses."""
        return self.phase == PH_END

    def _legal_actions(self) -> list[Action]:
        game = self.game
        if self.stack:
            top = self.stack[-1]
            if top.kind == BONUS:
                return [game.t_take[c] for c in flow.bonus_candidates(self, top.data[0])]
            if top.kind == ROB_BONUS:
                return [game.t_take[c] for c in solo.rob_bonus_candidates(self, top.data[0])]
            return POWERS[top.kind].legal(self, top)
        if self.phase == PH_DRAFT:
            t_keep = game.t_keep
            return [t_keep[c] for c in self.packs[self.current_player()]]
        return self.play_actions(self.turn)

    def _apply(self, action: Action) -> None:
        if self.stack:
            top = self.stack.pop()
            if top.kind == BONUS:
                assert isinstance(action, TakeCard)
                flow.take_bonus(self, top.data[1], top.data[0], action.card)
                flow.continue_resolution(self)
            elif top.kind == ROB_BONUS:
                assert isinstance(action, TakeCard)
                solo.take_rob_bonus(self, action.card)
                if solo.finish_rob_turn(self):
                    flow.end_round(self)
            else:
                POWERS[top.kind].apply(self, top, action)
                if not self.stack:
                    if self.phase == PH_RESOLVE:
                        flow.continue_resolution(self)
                    else:
                        flow.end_turn(self)
            return
        match action:
            case KeepCard(card=card):
                flow.keep_card(self, self.current_player(), card)
                return
            case PlayToCity(card=card):
                self.play_card(self.turn, card, to_capital=False)
            case PlayToCapital(card=card):
                self.play_card(self.turn, card, to_capital=True)
            case _:
                raise AssertionError(f"not a Capital Lux 2 play: {action!r}")
        if not self.stack:
            flow.end_turn(self)

    def _why_illegal(self, action: Action) -> Message | None:
        """Why a move is refused (``why.py``; §7 draft, §8 play, §9 powers, §11 bonus cards)."""
        return why_illegal(self, action)

    def scores(self) -> list[float]:
        """Return each seat's score (solo: the player's only; ROB's is in the observation)."""
        return [float(self.total_score(p)) for p in range(self.n)]

    def rob_score(self) -> int:
        """Return ROB's score (solo only)."""
        return self.total_score(1)

    def opponent_score(self) -> float | None:
        """Return ROB's score in solo (the margin of a solo game is the player's score minus it), else None."""
        return float(self.total_score(1)) if self.solo else None

    def returns(self) -> list[float]:
        """Return 1.0 per winner (shared wins included), 0.0 otherwise; solo: [1.0] if the player beats ROB."""
        if self.phase != PH_END:
            return [0.0] * self.n
        if self.solo:
            won = solo_wins(self.total_score(0), self.gold[0], self.total_score(1), self.gold[1])
            return [1.0 if won else 0.0]
        best = winners([self.total_score(p) for p in range(self.n)], self.gold[: self.n])
        return [1.0 if p in best else 0.0 for p in range(self.n)]

    def observation_key(self, player: int) -> Hashable:
        """Return a coarse key of what ``player`` has seen chance deal (closed-loop searches key their tree with it).

        Its parts: ``player``'s pack and hand, the cards it peeks at, the tiles' ``seen_key`` (e.g. a drawn Agent
        modifier it holds), and in solo a summary of ROB's last turn: the ROB card turned, the colour of the citizen
        card it picked, whether that went to the City (0) or the Capital (1), and whether ROB took a bonus card. All of
        them are in ``player``'s observation. The key is kept coarse on purpose: the cards dealt to refill ROB's hand
        and reserve, the exact card ROB played and the items revealed at a resolution are left out, so that a
        closed-loop search's few visits per move are not spread over dozens of subtrees (docs/bots.md, sixth and
        seventh sessions: this key scored better against ROB than the full one).
        """
        key: tuple[Hashable, ...] = (
            tuple(self.packs[player]),
            tuple(self.hand[player]),
            tuple(self.peek) if self.peek_owner == player else (),
            tuple(t.seen_key(self, player) for t in self.tiles),
        )
        if self.solo:
            key += (self._rob_turn_summary(),)
        return key

    def _rob_turn_summary(self) -> tuple[int, ...]:
        """ROB's last turn, coarsely: (ROB card code, citizen card colour or -1, City 0 / Capital 1, bonus taken)."""
        if not self.rob_last:
            return ()
        code, card, dest, bonus = self.rob_last
        return (code, CARD_COLOUR[card] if card >= 0 else -1, dest, int(bonus >= 0))

    def shown_key(self, player: int) -> Hashable:
        """What chance and hidden choices have shown ``player`` (``State.shown_key``; spec §5-§15).

        Its parts: the phase, round and draft stage (a pack passed on shows what the others kept), the deck's and
        the discards' sizes (a card drawn), the other seats' hand and pack sizes (a card of theirs kept, played
        or revealed), the Capital's hidden and revealed items, the resolution's public record, the cards
        ``player`` peeks at, the tiles' ``seen_key`` and ROB's deck and last turn (solo), then the public log.
        """
        others = tuple((len(self.hand[p]), len(self.packs[p])) for p in range(self.n) if p != player)
        return (
            self.phase,
            self.round,
            self.dstage,
            len(self.deck),
            len(self.discard),
            others,
            tuple(len(items) for items in self.hidden),
            tuple(len(items) for items in self.revealed),
            len(self.res_log),
            tuple(self.peek) if self.peek_owner == player else len(self.peek),
            tuple(t.seen_key(self, player) for t in self.tiles),
            len(self.rob_deck),
            tuple(self.rob_last),
            len(self.log_events),
        )

    def observation(self, player: int | None) -> CapitalLux2Observation:
        """Return what ``player`` may know (see ``observation.py``)."""
        return build_observation(self, player)

    # ================================================================ copies, JSON, resampling
    def _copy_fields(self, other: State[CapitalLux2Game]) -> None:
        assert isinstance(other, CapitalLux2State)
        other.n = self.n
        other.solo = self.solo
        other.np = self.np
        other.tile_ids = self.tile_ids
        other.tiles = self.tiles
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.capital = [d[:] for d in self.capital]
        other.hidden = [h[:] for h in self.hidden]
        other.revealed = [h[:] for h in self.revealed]
        other.city = [[d[:] for d in c] for c in self.city]
        other.hand = [h[:] for h in self.hand]
        other.bonus = [b[:] for b in self.bonus]
        other.gold = self.gold[:]
        other.mat = {k: v[:] for k, v in self.mat.items()}
        other.peek = self.peek[:]
        other.peek_owner = self.peek_owner
        other.stack = self.stack[:]
        other.extra_play = self.extra_play
        other.phase = self.phase
        other.round = self.round
        other.emperor = self.emperor
        other.turn = self.turn
        other.ending = self.ending
        other.last_queue = self.last_queue[:]
        other.packs = [p[:] for p in self.packs]
        other.first = self.first[:]
        other.sealed = self.sealed.copy()
        other.dstage = self.dstage
        other.res = self.res[:]
        other.res_max = self.res_max[:]
        other.res_log = [e[:] for e in self.res_log]
        other.rob_hand = self.rob_hand[:]
        other.rob_reserve = self.rob_reserve[:]
        other.rob_deck = self.rob_deck[:]
        other.rob_red = self.rob_red[:]
        other.rob_blue = self.rob_blue[:]
        other.rob_last = self.rob_last[:]

    _LIST_FIELDS = (
        "deck discard capital hidden revealed city hand bonus gold peek last_queue packs first res res_max res_log "
        "rob_hand rob_reserve rob_deck rob_red rob_blue rob_last"
    ).split()
    _INT_FIELDS = "peek_owner phase round emperor turn dstage".split()

    def _body_to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {k: getattr(self, k) for k in self._LIST_FIELDS}
        body = {k: _plain(v) for k, v in body.items()}
        body.update({k: getattr(self, k) for k in self._INT_FIELDS})
        body["tiles"] = list(self.tile_ids)
        body["mat"] = {k: list(v) for k, v in sorted(self.mat.items())}
        body["stack"] = [d.to_json() for d in self.stack]
        body["extra_play"] = self.extra_play
        body["ending"] = self.ending
        body["sealed"] = self.sealed.to_json(list)
        return body

    @classmethod
    def _blank(cls, game: CapitalLux2Game, seed: int) -> CapitalLux2State:
        return cls(game, seed, setup=False)

    def _restore_body(self, body: dict[str, Any]) -> None:
        """Restore the game-specific fields from :meth:`_body_to_json` output."""
        for k in self._LIST_FIELDS:
            setattr(self, k, _ints(body[k]))
        for k in self._INT_FIELDS:
            setattr(self, k, int(body[k]))
        self.set_tiles([str(t) for t in body["tiles"]])
        self.mat = {str(k): [int(x) for x in v] for k, v in body["mat"].items()}
        self.stack = [Decision.from_json(d) for d in body["stack"]]
        self.extra_play = bool(body["extra_play"])
        self.ending = bool(body["ending"])
        self.sealed = SealedCommitments.from_json(body["sealed"], lambda v: tuple(int(c) for c in v))

    def check_consistency(self) -> None:
        """Check a restored position: every citizen card exactly once, the tiles, ranges.

        Raises:
            InvalidStateError: the first broken invariant, naming the body field.

        Rules: capital_lux_2.md "Material" (100 citizen cards, 25 a colour), "Setup" (one power tile a colour).
        """
        n = self.n
        expect_int(self.phase, "body.phase", PH_DRAFT, PH_END)
        if self.phase == PH_END:  # finish_round counts the third round done before it ends the game
            expect(self.round == ROUNDS, "body.round", f"{ROUNDS} once the game is over")
        else:
            expect_int(self.round, "body.round", 0, ROUNDS - 1)
        expect_int(self.emperor, "body.emperor", 0, n - 1)
        expect_int(self.dstage, "body.dstage", 0, flow.SOLO_DRAFT_STAGES)
        expect_int(self.peek_owner, "body.peek_owner", -1, n - 1)
        expect(len(self.tiles) == 4, "body.tiles", "four power tiles")
        for i, tile in enumerate(self.tiles):
            expect(tile.colour == i, f"body.tiles[{i}]", f"a tile of the {COLOUR_NAMES[i]} district")
        for name, size in (("hand", n), ("packs", n), ("first", n), ("city", self.np), ("bonus", self.np)):
            expect(len(getattr(self, name)) == size, f"body.{name}", f"{size} entries")
        expect(len(self.gold) == self.np, "body.gold", f"{self.np} entries")
        expect_ints(self.gold, "body.gold", 0, 10_000)
        expect(len(self.capital) == 4 and all(len(c) == 4 for c in self.city), "body.capital", "four districts")
        zones: dict[str, list[int]] = {"body.deck": self.deck, "body.discard": self.discard}
        for d, cards in enumerate(self.capital):
            zones[f"body.capital[{d}]"] = cards
        for p in range(self.np):
            for d, cards in enumerate(self.city[p]):
                zones[f"body.city[{p}][{d}]"] = cards
            zones[f"body.bonus[{p}]"] = self.bonus[p]
        for s in range(n):
            zones[f"body.hand[{s}]"] = self.hand[s]
            zones[f"body.packs[{s}]"] = self.packs[s]
            zones[f"body.first[{s}]"] = [self.first[s]] if self.first[s] >= 0 else []
        for s, picked in self.sealed.values.items():
            zones[f"body.sealed[{s}]"] = list(picked)
        zones["body.peek"] = self.peek
        zones["body.rob_hand"] = [c for c in self.rob_hand if c >= 0]  # -1: an empty slot
        zones["body.rob_reserve"] = self.rob_reserve
        for i, entry in enumerate(self.hidden):
            expect(len(entry) == 4 and 0 <= entry[0] < 4 and entry[1] in (0, 1), f"body.hidden[{i}]", "an item")
            if entry[1] == 1:
                zones[f"body.hidden[{i}]"] = [entry[2]]
        for tile in self.tiles:
            zones[f"body.mat ({tile.tile_id})"] = tile.held_cards(self)
        expect_each_once(zones, range(NUM_CARDS), "citizen card")

    def _resample(self, player: int, rng: Rng) -> CapitalLux2State:
        other = self.clone()
        assert isinstance(other, CapitalLux2State)
        # During the second draft stage the seat to the left holds exactly what ``player`` passed: those cards are
        # re-dealt among that seat's pack, first pick and sealed pick only.
        passed_to = (player + 1) % self.n if self.phase == PH_DRAFT and self.dstage == 1 and self.n > 1 else -1
        slots: list[list[int]] = [other.deck]
        for s in range(self.n):
            if s != player:
                slots.append(other.hand[s])
                if s != passed_to:
                    slots.append(other.packs[s])
        entries = [h for h in other.hidden if h[1] == 1 and h[3] != player]
        if other.peek_owner not in (-1, player):
            slots.append(other.peek)
        for t in other.tiles:
            slots += t.unseen_card_slots(other, player)
        seats = [s for s in range(self.n) if s not in (player, passed_to)]
        _redeal(other, slots, entries, seats, rng)
        if passed_to >= 0:
            _redeal(other, [other.packs[passed_to]], [], [passed_to], rng)
        for s in range(self.n):
            other.hand[s].sort()
            other.packs[s].sort()
        for t in other.tiles:
            t.resample(other, player, rng)
        if self.solo:  # ROB's unflipped cards: a canonical order, then shuffled (their order is hidden)
            other.rob_deck.sort()
            rng.shuffle(other.rob_deck)
        return other

    # ================================================================ texts
    def _describe(self, action: Action, actor: int, perspective: int | None) -> Message:
        return describe(self.tiles, action, actor, perspective)


def _plain(value: Any) -> Any:
    """Return nested lists (copies) of nested lists/ints."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _ints(value: Any) -> Any:
    """Return nested lists (copies) of nested lists, every leaf converted with ``int`` (restore side)."""
    if isinstance(value, list):
        return [_ints(v) for v in value]
    return int(value)


def _redeal(st: CapitalLux2State, slots: list[list[int]], entries: list[list[int]], seats: list[int], rng: Rng) -> None:
    """Shuffle the cards of ``slots``, hidden-card ``entries`` and ``seats``' draft picks together and deal them back.

    Every slot keeps its size; the pool is collected in sorted order first, so the result depends only on ``rng``
    and on the multiset of cards.
    """
    firsts = [s for s in seats if st.first[s] >= 0]
    sealed = [s for s in seats if s in st.sealed.values]
    pool: list[int] = [c for slot in slots for c in slot]
    pool += [h[2] for h in entries]
    pool += [st.first[s] for s in firsts]
    for s in sealed:
        pool += st.sealed.values[s]
    pool.sort()
    rng.shuffle(pool)
    pos = 0
    for slot in slots:
        k = len(slot)
        slot[:] = pool[pos : pos + k]
        pos += k
    for h in entries:
        h[2] = pool[pos]
        pos += 1
    for s in firsts:
        st.first[s] = pool[pos]
        pos += 1
    for s in sealed:
        k = len(st.sealed.values[s])
        st.sealed.values[s] = tuple(sorted(pool[pos : pos + k]))
        pos += k
