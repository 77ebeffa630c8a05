"""The flow of a Capital Lux 2 game: setup, draft, turns, end of round, resolution and bonuses.

Rules: capital_lux_2.md §5-§12 (and §15 deck exhaustion); the solo specifics are in ``solo.py``.
Functions take the state and mutate it; they are called from ``CapitalLux2State._apply``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.decisions import Decision, SealedCommitments
from meeple.games.capital_lux_2 import solo
from meeple.games.capital_lux_2.const import PH_DRAFT, PH_END, PH_PLAY, PH_RESOLVE
from meeple.games.capital_lux_2.data import (
    CARD_COLOUR,
    CARD_VALUE,
    HAND_SIZE,
    ROUNDS,
    STARTING_CAPITAL,
    STARTING_CAPITAL_SOLO,
)
from meeple.games.capital_lux_2.rules import bonus_outcome, highest_cards, total

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

DRAFT_PICKS = 2
LOG_MAX = 0
"""``res_log`` entry ``[LOG_MAX, round, max_blue, max_pink, max_yellow, max_green]`` (first entry)."""
LOG_BUST = 1
"""``[LOG_BUST, participant, district, city_total, limit]``: a City district over its MAX (spec §10)."""
LOG_BONUS = 2
"""``[LOG_BONUS, participant, district, card]``: a bonus card taken (spec §11)."""
LOG_TIE = 3
"""``[LOG_TIE, district, discarded_card_or_-1, *tied_participants]``: 1 gold each, highest card discarded (§11)."""
LOG_REVEAL = 4
"""``[LOG_REVEAL, district, kind, value]``: a face-down item revealed (kind 0 modifier value, 1 card id)."""
SOLO_DRAFT_DRAW = 3
SOLO_DRAFT_STAGES = 3


def setup(st: CapitalLux2State) -> None:
    """Set up a new game (spec §5-§6, solo setup) and start the first round's draft."""
    st.deck = list(range(100))
    st.rng.shuffle(st.deck)
    for _ in range(STARTING_CAPITAL_SOLO if st.solo else STARTING_CAPITAL):
        card = st.draw()
        st.capital[CARD_COLOUR[card]].append(card)
    st.set_tiles(list(st.game.choose_tiles(st.rng)))
    st.emperor = 0 if st.solo else st.rng.randrange(st.n)
    for tile in st.tiles:
        tile.setup(st)
    if st.solo:
        solo.setup(st)
    start_round(st)


def start_round(st: CapitalLux2State) -> None:
    """Start a round: deal the draft (6 each; solo: ROB's reserve and 3 cards to keep 2 from). Rules: §7."""
    st.phase = PH_DRAFT
    st.dstage = 0
    st.first = [-1] * st.n
    st.revealed = []
    if st.solo:
        solo.start_round(st)
        st.packs[0] = sorted(_draw_up_to(st, SOLO_DRAFT_DRAW))
        st.sealed = SealedCommitments([0])
    else:
        packs: list[list[int]] = [[] for _ in range(st.n)]
        for _ in range(HAND_SIZE):
            for s in range(st.n):
                card = st.draw()
                if card >= 0:
                    packs[s].append(card)
        st.packs = [sorted(p) for p in packs]
        st.sealed = SealedCommitments([(st.emperor + k) % st.n for k in range(st.n)])
    _skip_empty_packs(st)


def _draw_up_to(st: CapitalLux2State, k: int) -> list[int]:
    out = []
    for _ in range(k):
        card = st.draw()
        if card >= 0:
            out.append(card)
    return out


def _skip_empty_packs(st: CapitalLux2State) -> None:
    """Commit nothing for seats with an empty pack (deck exhaustion, §15); reveal when all are in."""
    while True:
        seat = st.sealed.pending_player()
        if seat is None:
            reveal_picks(st)
            return
        if st.packs[seat] or st.first[seat] >= 0:
            return
        st.sealed.commit(seat, ())


def keep_card(st: CapitalLux2State, seat: int, card: int) -> None:
    """Keep one draft card; the second kept card (or the last available) seals the seat's pick. Rules: §7."""
    st.packs[seat].remove(card)
    if st.first[seat] < 0 and st.packs[seat]:
        st.first[seat] = card
        return
    picks = (card,) if st.first[seat] < 0 else (st.first[seat], card)
    st.first[seat] = -1
    st.sealed.commit(seat, picks)
    _skip_empty_packs(st)


def reveal_picks(st: CapitalLux2State) -> None:
    """All picks are in: add them to the hands, pass the packs left (seat s -> s+1) or end the draft. Rules: §7."""
    for seat, picks in st.sealed.reveal().items():
        st.hand[seat] += picks
        st.hand[seat].sort()
    st.dstage += 1
    if st.solo:
        st.discard += st.packs[0]
        st.packs[0] = []
        if st.dstage < SOLO_DRAFT_STAGES:
            st.packs[0] = sorted(_draw_up_to(st, SOLO_DRAFT_DRAW))
            st.sealed = SealedCommitments([0])
            _skip_empty_packs(st)
            return
    else:
        n = st.n
        passed = [st.packs[(s - 1) % n] for s in range(n)]
        if st.dstage == 1:
            st.packs = passed
            st.sealed = SealedCommitments(st.sealed.order)
            _skip_empty_packs(st)
            return
        for s in range(n):
            st.hand[s] += passed[s]
            st.hand[s].sort()
        st.packs = [[] for _ in range(n)]
    st.sealed = SealedCommitments(st.sealed.order)
    start_play(st)


def start_play(st: CapitalLux2State) -> None:
    """Start playing cards: the Emperor first (solo: ROB first). Rules: §8, solo."""
    st.phase = PH_PLAY
    st.ending = False
    st.last_queue = []
    if st.solo:
        if solo.rob_turn(st):
            end_round(st)
        return
    st.turn = st.emperor
    if not st.hand[st.turn]:
        _begin_ending(st, st.turn)


def _begin_ending(st: CapitalLux2State, seat: int) -> None:
    """``seat`` has no card: every other seat takes one last turn (those with cards). Rules: §9."""
    st.ending = True
    st.last_queue = [(seat + k) % st.n for k in range(1, st.n)]
    _next_last_turn(st)


def _next_last_turn(st: CapitalLux2State) -> None:
    while st.last_queue:
        seat = st.last_queue.pop(0)
        if st.hand[seat]:
            st.turn = seat
            return
    end_round(st)


def end_turn(st: CapitalLux2State) -> None:
    """Finish the current turn and pass to the next seat (or to the last turns / end of round). Rules: §8-§9."""
    if st.solo:
        if solo.after_player_turn(st):
            end_round(st)
        return
    cur = st.turn
    if st.ending:
        _next_last_turn(st)
    elif not st.hand[cur]:
        _begin_ending(st, cur)
    else:
        nxt = (cur + 1) % st.n
        if st.hand[nxt]:
            st.turn = nxt
        else:
            _begin_ending(st, nxt)


def end_round(st: CapitalLux2State) -> None:
    """Deposit the remaining hands, reveal the face-down items and run the resolution. Rules: §9-§10."""
    st.phase = PH_RESOLVE
    st.ending = False
    st.last_queue = []
    for s in range(st.n):
        for card in st.hand[s]:
            st.city[s][CARD_COLOUR[card]].append(card)
        st.hand[s] = []
    if st.solo:
        solo.place_reserve(st)
    for tile in st.tiles:
        tile.before_resolution(st)
    st.res_max = [total(d) for d in st.capital]
    for item in st.hidden:
        st.res_max[item[0]] += item[2] if item[1] == 0 else CARD_VALUE[item[2]]
        if item[1] == 1:
            st.discard.append(item[2])
    st.revealed = st.hidden
    st.hidden = []
    st.res = [0, 0, 0]
    st.res_log = [[LOG_MAX, st.round, *st.res_max]] + [[LOG_REVEAL, h[0], h[1], h[2]] for h in st.revealed]
    continue_resolution(st)


def resolution_order(st: CapitalLux2State) -> list[int]:
    """Participants in resolution order: clockwise from the Emperor, then ROB in solo."""
    return [0, 1] if st.solo else [(st.emperor + k) % st.n for k in range(st.n)]


def city_limit(st: CapitalLux2State, participant: int, district: int) -> int:
    """Return a participant's MAX in a district at resolution (revealed MAX plus tile bonuses, e.g. Aristocrate)."""
    limit = st.res_max[district]
    for t in st.tiles:
        if t.has_max_bonus:
            limit += t.max_bonus(st, participant, district)
    return limit


def continue_resolution(st: CapitalLux2State) -> None:
    """Run (or resume) discards then bonuses, district by district; pause on a pending decision. Rules: §10-§12."""
    order = resolution_order(st)
    stage, d0, i0 = st.res
    if stage == 0:
        for d in range(d0, 4):
            for i in range(i0 if d == d0 else 0, len(order)):
                p = order[i]
                cards = st.city[p][d]
                if not cards:
                    continue
                limit = city_limit(st, p, d)
                excess = total(cards) - limit
                if excess <= 0:
                    continue
                st.res_log.append([LOG_BUST, p, d, total(cards), limit])
                st.res = [0, d, i + 1]
                if not any(t.on_bust(st, p, d, excess) for t in st.tiles):
                    st.discard_city_district(p, d)
                if st.stack:
                    return
        stage, d0 = 1, 0
    for d in range(d0, 4):
        winner, tied = bonus_outcome([total(st.city[p][d]) for p in range(st.np)])
        st.res = [1, d + 1, 0]
        if winner >= 0:
            cands = bonus_candidates(st, d)
            if len(cands) == 1:
                take_bonus(st, winner, d, cands[0])
            elif cands:
                # ROB never decides: in solo the player chooses ROB's card (as for ROB's bonus symbol).
                st.stack.append(Decision(0 if winner >= st.n else winner, "bonus", (d, winner)))
                return
        for p in tied:
            st.gold[p] += 1
        if tied:
            card = highest_cards(st.capital[d])[-1] if st.capital[d] else -1
            if card >= 0:
                st.capital[d].remove(card)
                st.discard.append(card)
            st.res_log.append([LOG_TIE, d, card, *tied])
    finish_round(st)


def bonus_candidates(st: CapitalLux2State, district: int) -> list[int]:
    """The highest cards of a Capital district (the bonus taker chooses among them). Rules: §11."""
    return highest_cards(st.capital[district])


def take_bonus(st: CapitalLux2State, participant: int, district: int, card: int) -> None:
    """Move a Capital card face down to a Bonus pile. Rules: §11."""
    st.capital[district].remove(card)
    st.bonus[participant].append(card)
    st.res_log.append([LOG_BONUS, participant, district, card])


def finish_round(st: CapitalLux2State) -> None:
    """After the bonuses: tile clean-up, the Emperor passes left, next round or the end. Rules: §12."""
    for tile in st.tiles:
        tile.after_resolution(st)
    st.round += 1
    if st.round >= ROUNDS:
        st.phase = PH_END
        return
    if not st.solo:
        st.emperor = (st.emperor + 1) % st.n
    start_round(st)
