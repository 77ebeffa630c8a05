"""The Citadels state: the draft, the calls, each character's turn as a small decision stack, and scoring.

Representation (all plain lists/ints, copied with slicing by :meth:`CitadelsState._copy_fields`):

- cards are ids ``0..N-1`` (``game.card_kind[id]`` is the kind); ``deck[-1]`` is the top, ``deck[0]`` the bottom;
- ``hands[s]``, ``cities[s]`` (card ids, build order), ``masks[s]`` (bit ``k`` set if kind ``k`` is in the city);
- the draft: ``pool`` (characters offered to the seat at ``steps[step]``), ``facedown``, ``faceup``, ``events``
  (the draft log used by resampling) and ``seen[s]`` (the sets offered to seat ``s`` this round);
- the calls: ``calling`` (the character whose turn it is), ``calls`` (``[character, seat | -1 absent | -2 silent]``),
  ``killed``/``robbed`` (0 = none), ``flags`` (what the current character did this turn), ``builds``;
- ``past``: the calls of the finished rounds, public once the round is over: ``(round, character, seat | -1,
  killed 0/1)`` (a killed character's holder is revealed at the end of the round);
- ``exchanges``: the Magician's exchanges with the deck, public: ``(round, seat, count)``;
- ``stack``: pending decisions, core :class:`~meeple.core.Decision` records whose kinds and data are listed in
  ``const.py`` (keep a drawn card, the Magician's exchange, the Warlord's destruction, the Graveyard).

Rules: citadels.md §5.2 (every numbered rule) and §2 (rulings).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from meeple.core import TERMINAL, Action, Decision, Rng, State
from meeple.games.citadels import rules
from meeple.games.citadels.actions import (
    Assassinate,
    BuildDistrict,
    CancelExchange,
    ConfirmExchange,
    DeclineDestroy,
    DeclineRecover,
    DestroyDistrict,
    DiscardCharacter,
    DiscardForGold,
    DrawCards,
    EndTurn,
    ExchangeCards,
    KeepCard,
    PickCharacter,
    RecoverDistrict,
    Rob,
    SelectCard,
    SwapHands,
    TakeGold,
    TakeIncome,
    UseSmithy,
)
from meeple.games.citadels.data import (
    ARCHITECT,
    BISHOP,
    CHARACTER_COLOUR,
    GRAVEYARD,
    HAUNTED_CITY,
    KEEP,
    KIND_COST,
    KING,
    MERCHANT,
    THIEF,
    WARLORD,
)
from meeple.games.citadels.describe import describe
from meeple.games.citadels.draft import (
    DRAFT_PICK,
    EV_DISCARD,
    EV_INITIAL,
    EV_LEFTOVER,
    EV_PICK,
    EV_RETURN,
    draft_steps,
)
from meeple.games.citadels.vocabulary import THE_CHARACTER
from meeple.games.citadels.why import why_illegal
from meeple.i18n.message import M, Message, plural

if TYPE_CHECKING:
    from meeple.games.citadels.game import Citadels
    from meeple.games.citadels.observation import CitadelsObservation

from meeple.games.citadels.const import COLOUR_MASKS as _COLOUR_MASKS
from meeple.games.citadels.const import (
    D_DESTROY,
    D_EXCHANGE,
    D_GRAVEYARD,
    D_KEEP,
    DRAFT,
    F_ACTION,
    F_CANCELLED,
    F_INCOME,
    F_LAB,
    F_POWER,
    F_SMITHY,
    OVER,
    TURNS,
)
from meeple.games.citadels.const import GRAVE_BIT as _GRAVE_BIT
from meeple.games.citadels.const import LIB_BIT as _LIB_BIT
from meeple.games.citadels.const import OBS_BIT as _OBS_BIT
from meeple.games.citadels.const import SCHOOL_BIT as _SCHOOL_BIT
from meeple.games.citadels.const import WALL_BIT as _WALL_BIT
from meeple.games.citadels.draft import resample
from meeple.games.citadels.legal import decision_actions, turn_actions
from meeple.games.citadels.observation import build_observation
from meeple.games.citadels.serial import body_to_json, check_consistency, copy_fields, restore_body


class CitadelsState(State["Citadels"]):
    """A Citadels position. See the module docstring for the fields."""

    @classmethod
    def _empty(cls, game: Citadels) -> CitadelsState:
        """An instance with no field set, for ``clone``/``restore`` (works compiled with mypyc too; core.State)."""
        return cls(game, 0, blank=True)

    def __init__(self, game: Citadels, seed: int, setup: bool = True, *, blank: bool = False) -> None:
        if blank:  # clone() and restore() set every field (see _empty)
            return
        super().__init__(game, seed)
        n = game.num_players
        self.deck: list[int] = list(range(len(game.card_kind)))
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.cities: list[list[int]] = [[] for _ in range(n)]
        self.masks: list[int] = [0] * n
        self.gold: list[int] = [2] * n
        self.built_round: list[int] = [-1] * len(game.card_kind)
        self.known: list[int] = [0] * len(game.card_kind)
        self.crown = 0
        self.round = 1
        self.phase = DRAFT
        self.faceup: list[int] = []
        self.facedown: list[int] = []
        self.pool: list[int] = []
        self.step = 0
        self.steps: tuple[tuple[int, int], ...] = ()
        self.events: list[tuple[int, int, int]] = []
        self.seen: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        self.owner: list[int] = [-1] * 9
        self.chars: list[list[int]] = [[] for _ in range(n)]
        self.calling = 0
        self.turn_seat = -1
        self.calls: list[list[int]] = []
        self.killed = 0
        self.robbed = 0
        self.flags = 0
        self.builds = 0
        self.stack: list[Decision] = []
        self.first_complete = -1
        self.ending = False
        self.last_killed: list[int] = []
        self.past: list[tuple[int, int, int, int]] = []
        self.exchanges: list[tuple[int, int, int]] = []
        self.cur = 0
        if setup:
            self.rng.shuffle(self.deck)
            for s in range(n):
                for _ in range(4):
                    card = self.deck.pop()
                    self.hands[s].append(card)
                    self.known[card] = 1 << s
            self.crown = self.rng.randrange(n)
            self._start_round()
            self._update_cur()

    # ================================================================ contract
    def current_player(self) -> int:
        """Return the seat to move, or TERMINAL."""
        return self.cur

    def is_terminal(self) -> bool:
        """Return True once the game is over."""
        return self.phase == OVER

    def _legal_actions(self) -> list[Action]:
        g = self.game
        if self.stack:
            return decision_actions(self, self.stack[-1])
        if self.phase == DRAFT:
            table = g.a_discard_char if self.steps[self.step][1] else g.a_pick
            return [table[c] for c in self.pool]
        return turn_actions(self)

    def _apply(self, action: Action) -> None:
        match action:  # the most frequent first
            case PickCharacter() | DiscardCharacter():
                self._pick(action)
            case EndTurn():
                self._end_turn()
            case BuildDistrict():
                self._build(action)
            case TakeGold():
                self._take_gold()
            case DrawCards():
                self._draw()
            case KeepCard():
                self._keep(action)
            case TakeIncome():
                self._take_income()
            case Assassinate():
                self._assassinate(action)
            case Rob():
                self._rob(action)
            case SwapHands():
                self._swap(action)
            case ExchangeCards():
                self._exchange()
            case SelectCard():
                self._select(action)
            case ConfirmExchange():
                self._confirm()
            case CancelExchange():
                self.stack.pop()  # nothing was moved: the selection only lived in the decision
                self.flags = (self.flags & ~F_POWER) | F_CANCELLED
            case DiscardForGold():
                self._lab(action)
            case UseSmithy():
                self._smithy()
            case DestroyDistrict():
                self._destroy(action)
            case DeclineDestroy():
                self._decline_destroy()
            case RecoverDistrict():
                self._recover()
            case DeclineRecover():
                self._decline_recover()
            case _:
                raise AssertionError(f"not a Citadels action: {action!r}")
        self._update_cur()

    def _update_cur(self) -> None:
        if self.stack:
            self.cur = self.stack[-1].player
        elif self.phase == DRAFT:
            self.cur = self.steps[self.step][0]
        elif self.phase == TURNS:
            self.cur = self.turn_seat
        else:
            self.cur = TERMINAL

    # ================================================================ draft
    def _start_round(self) -> None:
        """Shuffle the characters, remove the face-down and face-up cards, and start the draft. Rules: §5.2 r2–3."""
        g = self.game
        n = g.num_players
        self.phase = DRAFT
        self.owner = [-1] * 9
        self.chars = [[] for _ in range(n)]
        self.seen = [[] for _ in range(n)]
        self.calls = []
        self.killed = 0
        self.robbed = 0
        self.calling = 0
        self.turn_seat = -1
        chars = list(g.round_characters)
        self.rng.shuffle(chars)
        down = chars.pop()
        self.facedown = [down]
        self.events = [(-1, down, EV_INITIAL)]
        faceup: list[int] = []
        while len(faceup) < g.faceup_count:
            c = chars.pop()
            if c == KING:  # the King is never face up: replace him at once (he goes back among the others)
                chars.insert(0, c)
                continue
            faceup.append(c)
        self.faceup = sorted(faceup)
        self.pool = sorted(chars)
        self.steps = draft_steps(g.mode, n, self.crown)
        self.step = 0
        self._begin_step()

    def _begin_step(self) -> None:
        g = self.game
        seat, kind = self.steps[self.step]
        if self.step == g.return_step and kind == DRAFT_PICK:
            returned = self.facedown.pop()
            self.events.append((-1, returned, EV_RETURN))
            self.pool = sorted([*self.pool, returned])
        self.seen[seat].append(tuple(self.pool))

    def _pick(self, action: PickCharacter | DiscardCharacter) -> None:
        seat = self.cur
        c = action.character
        self.pool.remove(c)
        if isinstance(action, PickCharacter):
            self.owner[c] = seat
            self.chars[seat].append(c)
            self.chars[seat].sort()
            self.events.append((seat, c, EV_PICK))
        else:
            self.facedown.append(c)
            self.events.append((seat, c, EV_DISCARD))
        self.step += 1
        if self.step < len(self.steps):
            self._begin_step()
            return
        for c in self.pool:
            self.facedown.append(c)
            self.events.append((-1, c, EV_LEFTOVER))
        self.pool = []
        self.phase = TURNS
        self._next_call()

    # ================================================================ calls
    def _next_call(self) -> None:
        """Call the next character: skip absent ones, stay silent for the killed one. Rules: §5.2 r6, r10, r13, r15."""
        g = self.game
        in_round = g.in_round
        c = self.calling + 1
        while c <= 8:
            if not in_round[c] or c in self.faceup:
                c += 1
                continue
            seat = self.owner[c]
            if c == self.killed:  # nobody answers, held or not: the holder is revealed at the end of the round
                self.calls.append([c, -2])
            elif seat < 0:
                self.calls.append([c, -1])
            else:
                self.calls.append([c, seat])
                self._event(seat, M("reveals {character}", character=THE_CHARACTER[c]))
                self.calling = c
                self.turn_seat = seat
                self._start_turn(seat, c)
                return
            c += 1
        self.calling = 9
        self._end_round()

    def _start_turn(self, seat: int, c: int) -> None:
        if c == self.robbed:
            thief = self.owner[THIEF]
            stolen = self.gold[seat]
            self.gold[seat] = 0
            self.gold[thief] += stolen
            self._event(
                thief,
                plural(
                    "the Thief takes {n} gold from seat {seat}",
                    "the Thief takes {n} gold from seat {seat}",
                    stolen,
                    seat=seat,
                ),
            )
        if c == KING:
            self.crown = seat
        self.flags = 0
        self.builds = 3 if c == ARCHITECT else 1
        if c == MERCHANT:
            self.gold[seat] += 1
        elif c == ARCHITECT:
            self._draw_into(seat, 2)

    def _draw_into(self, seat: int, k: int) -> None:
        deck = self.deck
        hand = self.hands[seat]
        known = self.known
        bit = 1 << seat
        for _ in range(min(k, len(deck))):
            card = deck.pop()
            hand.append(card)
            known[card] |= bit

    def _end_round(self) -> None:
        """Reveal the killed character, move the crown (variant), and end the game or start the next round."""
        g = self.game
        killed_seat = self.owner[self.killed] if self.killed else -1
        self.last_killed = [self.killed, killed_seat] if self.killed else []
        if killed_seat >= 0:  # the killed character's holder shows the card at the end of the round (§5.2 r6)
            self._event(killed_seat, M("was {character}, killed this round", character=THE_CHARACTER[self.killed]))
        owner = self.owner
        rnd = self.round
        self.past.extend((rnd, c, owner[c], 1) if status == -2 else (rnd, c, status, 0) for c, status in self.calls)
        if self.killed == KING and killed_seat >= 0 and g.params.killed_king_takes_crown:
            self.crown = killed_seat
        if self.ending or self.round >= g.params.max_rounds:
            self.phase = OVER
            self.stack = []
            return
        self.round += 1
        self._start_round()

    # ================================================================ turn actions
    def income(self, seat: int, char: int) -> int:
        """Return the colour income ``char`` would give ``seat`` now (School of Magic included). Rules: §5.2 r9."""
        mask = self.masks[seat]
        return (mask & _COLOUR_MASKS[CHARACTER_COLOUR[char]]).bit_count() + (1 if mask & _SCHOOL_BIT else 0)

    def _take_gold(self) -> None:
        self.gold[self.turn_seat] += 2
        self.flags |= F_ACTION

    def _draw(self) -> None:
        seat = self.turn_seat
        mask = self.masks[seat]
        self.flags |= F_ACTION
        n = 3 if mask & _OBS_BIT else 2
        keep = 2 if mask & _LIB_BIT else 1
        deck = self.deck
        drawn = [deck.pop() for _ in range(min(n, len(deck)))]
        known = self.known
        if len(drawn) <= keep:
            for c in drawn:
                known[c] |= 1 << seat
            self.hands[seat].extend(drawn)
        else:
            for c in drawn:  # the others cannot tell which card is kept
                known[c] = 1 << seat
            self.stack.append(Decision(seat, D_KEEP, (tuple(drawn), keep)))

    def _keep(self, action: KeepCard) -> None:
        top = self.stack.pop()
        seat = top.player
        kinds = self.game.card_kind
        drawn = list(top.data[0])
        card = min(c for c in drawn if kinds[c] == action.kind)
        drawn.remove(card)
        self.hands[seat].append(card)
        keep = top.data[1] - 1
        if keep > 0 and len(drawn) > keep:
            self.stack.append(Decision(seat, D_KEEP, (tuple(drawn), keep)))
        elif keep > 0:
            self.hands[seat].extend(drawn)
        else:
            for c in drawn:
                self.deck.insert(0, c)

    def _build(self, action: BuildDistrict) -> None:
        seat = self.turn_seat
        k = action.kind
        kinds = self.game.card_kind
        hand = self.hands[seat]
        card = min(c for c in hand if kinds[c] == k)
        hand.remove(card)
        self.gold[seat] -= KIND_COST[k]
        self.cities[seat].append(card)
        self.known[card] = -1
        self.masks[seat] |= 1 << k
        self.built_round[card] = self.round
        self.builds -= 1
        if len(self.cities[seat]) >= self.game.threshold:
            self.ending = True
            if self.first_complete < 0:
                self.first_complete = seat

    def _take_income(self) -> None:
        seat = self.turn_seat
        self.gold[seat] += self.income(seat, self.calling)
        self.flags |= F_INCOME

    def _assassinate(self, action: Assassinate) -> None:
        self.killed = action.character
        self.flags |= F_POWER

    def _rob(self, action: Rob) -> None:
        self.robbed = action.character
        self.flags |= F_POWER

    def _swap(self, action: SwapHands) -> None:
        seat = self.turn_seat
        hands = self.hands
        hands[seat], hands[action.seat] = hands[action.seat], hands[seat]
        known = self.known
        for c in hands[seat]:
            known[c] |= 1 << seat
        for c in hands[action.seat]:
            known[c] |= 1 << action.seat
        self.flags |= F_POWER

    def _exchange(self) -> None:
        self.flags |= F_POWER
        self.stack.append(Decision(self.turn_seat, D_EXCHANGE, ((),)))

    def _select(self, action: SelectCard) -> None:
        top = self.stack[-1]
        kinds = self.game.card_kind
        selected = top.data[0]
        card = min(c for c in self.hands[top.player] if kinds[c] == action.kind and c not in selected)
        self.stack[-1] = Decision(top.player, D_EXCHANGE, ((*selected, card),))

    def _confirm(self) -> None:
        top = self.stack.pop()
        seat = top.player
        selected = top.data[0]
        hand = self.hands[seat]
        for c in selected:
            hand.remove(c)
            self.deck.insert(0, c)
            self.known[c] = 1 << seat
        self.exchanges.append((self.round, seat, len(selected)))
        self._draw_into(seat, len(selected))

    def _lab(self, action: DiscardForGold) -> None:
        seat = self.turn_seat
        kinds = self.game.card_kind
        hand = self.hands[seat]
        card = min(c for c in hand if kinds[c] == action.kind)
        hand.remove(card)
        self.deck.insert(0, card)
        self.known[card] = 1 << seat
        self.gold[seat] += 1
        self.flags |= F_LAB

    def _smithy(self) -> None:
        seat = self.turn_seat
        self.gold[seat] -= 3
        self._draw_into(seat, 3)
        self.flags |= F_SMITHY

    def _end_turn(self) -> None:
        if self.calling == WARLORD and self.destroy_targets():
            self.stack.append(Decision(self.turn_seat, D_DESTROY))
            return
        self._next_call()

    def pending_cards(self) -> list[int]:
        """Return the district card ids held by pending decisions, outside deck, hands and cities.

        These are the cards drawn and not yet kept (§5.2 rule 8) and a destroyed district offered to the Graveyard
        (§5.2 rule 19).
        """
        out: list[int] = []
        for d in self.stack:
            if d.kind == D_KEEP:
                out.extend(d.data[0])
            elif d.kind == D_GRAVEYARD:
                out.append(d.data[0])
        return out

    # ================================================================ the Warlord and the Graveyard
    def bishop_seat(self) -> int:
        """Return the seat protected by a live, revealed Bishop this round, or -1. Rules: §5.2 rule 16."""
        seat = self.owner[BISHOP]
        if seat < 0 or self.killed == BISHOP or self.calling < BISHOP:
            return -1
        return seat

    def destroy_targets(self) -> list[tuple[int, int]]:
        """Return the ``(seat, kind)`` districts the Warlord can destroy and pay for now. Rules: §5.2 rule 17."""
        warlord = self.turn_seat
        gold = self.gold[warlord]
        protected = self.bishop_seat()
        threshold = self.game.threshold
        kinds = self.game.card_kind
        out: list[tuple[int, int]] = []
        for s in range(self.game.num_players):
            city = self.cities[s]
            if s == protected or len(city) >= threshold:
                continue
            wall = bool(self.masks[s] & _WALL_BIT)
            for k in sorted(kinds[c] for c in city):
                if k != KEEP and rules.destroy_price(k, wall) <= gold:
                    out.append((s, k))
        return out

    def _why_illegal(self, action: Action) -> Message | None:
        """Why a move is refused, in words the player may read (``why.py``; §5.2 rules 3, 6-19)."""
        return why_illegal(self, action)

    def _offer_note(self, action: Action) -> Message | None:
        """The Warlord's price to destroy a district (its cost minus one, plus one for the Great Wall's city)."""
        if isinstance(action, DestroyDistrict):
            price = rules.destroy_price(action.kind, bool(self.masks[action.seat] & _WALL_BIT))
            return plural("pay {n} gold", "pay {n} gold", price)
        return None

    def _destroy(self, action: DestroyDistrict) -> None:
        self.stack.pop()
        warlord = self.turn_seat
        s, k = action.seat, action.kind
        kinds = self.game.card_kind
        city = self.cities[s]
        card = next(c for c in city if kinds[c] == k)
        self.gold[warlord] -= rules.destroy_price(k, bool(self.masks[s] & _WALL_BIT))
        city.remove(card)
        self.masks[s] &= ~(1 << k)
        self.built_round[card] = -1
        if k != GRAVEYARD:
            for g in range(self.game.num_players):
                if g != warlord and self.masks[g] & _GRAVE_BIT and self.gold[g] >= 1:
                    self.stack.append(Decision(g, D_GRAVEYARD, (card,)))
                    return
        self.deck.insert(0, card)
        self._next_call()

    def _decline_destroy(self) -> None:
        self.stack.pop()
        self._next_call()

    def _recover(self) -> None:
        top = self.stack.pop()
        seat = top.player
        self.gold[seat] -= 1
        self.hands[seat].append(top.data[0])
        self._next_call()

    def _decline_recover(self) -> None:
        top = self.stack.pop()
        self.deck.insert(0, top.data[0])
        self._next_call()

    # ================================================================ scoring
    def score_breakdowns(self) -> list[rules.ScoreBreakdown]:
        """Return every seat's score as it stands (final once the game is over). Rules: §5.2 rules 20–21."""
        kinds = self.game.card_kind
        out = []
        for s in range(self.game.num_players):
            city = self.cities[s]
            haunted = all(self.built_round[c] < self.round for c in city if kinds[c] == HAUNTED_CITY)
            out.append(
                rules.score_city(
                    [kinds[c] for c in city],
                    first=s == self.first_complete,
                    threshold=self.game.threshold,
                    haunted_city_counts=haunted,
                )
            )
        return out

    def scores(self) -> list[float]:
        """Return each seat's points (provisional before the end)."""
        return [float(b.total) for b in self.score_breakdowns()]

    def winners(self) -> list[int]:
        """Return the seats with the best (points, district values, gold). Rules: §5.2 rule 22."""
        b = self.score_breakdowns()
        return rules.winners([x.total for x in b], [x.districts for x in b], self.gold)

    def returns(self) -> list[float]:
        """Return 1.0 for each winner (shared wins included) at the end, else 0.0."""
        n = self.game.num_players
        if self.phase != OVER:
            return [0.0] * n
        best = set(self.winners())
        return [1.0 if s in best else 0.0 for s in range(n)]

    # ================================================================ views, copies, JSON
    def shown_key(self, player: int) -> Hashable:
        """What chance and hidden choices have shown ``player`` (``State.shown_key``; Citadels §5.1-§5.2).

        Its parts: the round (the characters set aside face up are drawn at its start), the calls made (each
        call shows who holds the character, or that nobody does), the draft sets offered to ``player`` (they show
        what the others took), the cards ``player`` knows (drawn, swapped, built by anyone) and the deck's size
        (a card drawn by anyone), then the public log.
        """
        bit = 1 << player
        known = sum(1 for k in self.known if k & bit)
        return (self.round, len(self.calls), len(self.seen[player]), known, len(self.deck), len(self.log_events))

    def observation(self, player: int | None) -> CitadelsObservation:
        """Return what ``player`` may know; see :mod:`meeple.games.citadels.observation` for the schema."""
        return build_observation(self, player)

    def _copy_fields(self, other: State[Citadels]) -> None:
        assert isinstance(other, CitadelsState)
        copy_fields(self, other)

    def _body_to_json(self) -> dict[str, Any]:
        return body_to_json(self)

    @classmethod
    def _blank(cls, game: Citadels, seed: int) -> CitadelsState:
        return cls(game, seed, setup=False)

    def _restore_body(self, body: dict[str, Any]) -> None:
        """Set the game-specific fields from :meth:`_body_to_json` output."""
        restore_body(self, body)

    def check_consistency(self) -> None:
        """Check ranges and conservation (see :func:`meeple.games.citadels.serial.check_consistency`)."""
        check_consistency(self)

    def _resample(self, player: int, rng: Rng) -> CitadelsState:
        return resample(self, player, rng)

    def _describe(self, action: Action, actor: int, perspective: int | None) -> Message:
        return describe(action, actor, perspective)
