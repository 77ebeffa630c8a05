"""The character draft's order of steps, and resampling of what a seat cannot see.

Draft modes (citadels.md §5.2 rules 2–5, §2):

- ``standard`` (3–7 players, 1st edition): from the crown holder leftwards each seat picks one character; the last
  card goes face down. With 7 players the last seat's offer also holds the initial face-down card (``return_step``).
- ``2p`` (``variant_2p_ffg``): A picks 1 of 7; B picks 1 and discards 1 face down; A picks 1 and discards 1;
  B picks 1 of the last 2, the other goes face down.
- ``3p`` (``variant_3p_ffg``): round the table twice, one pick each time; the last card goes face down.

Resampling (:func:`resample`) re-deals, for one observer, every card they cannot see (deck, other hands, cards other
seats are choosing from) and re-plays the draft: the face-down card and the other seats' picks are drawn again, so
that every set of characters the observer was offered stays the same and every character whose place they know
(their own, revealed ones, those called with no answer, the ones they discarded) stays put. A card keeps its
place when the observer knows it (``state.known``: their own hand, cards they put under the deck, public cards such
as destroyed districts, hands they saw through the Magician's swap, followed through public moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core import Decision, Rng
from meeple.games.citadels.const import D_EXCHANGE, D_KEEP

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState

DRAFT_PICK = 0
DRAFT_DISCARD = 1

EV_PICK = 0
EV_DISCARD = 1
EV_INITIAL = 2
EV_LEFTOVER = 3
EV_RETURN = 4

_TRIES = 200

_Sim = tuple[list[int], list[list[int]], list[int], list[int], list[tuple[int, int, int]], list[list[tuple[int, ...]]]]


def draft_steps(mode: str, n: int, crown: int) -> tuple[tuple[int, int], ...]:
    """Return the draft steps ``(seat, DRAFT_PICK | DRAFT_DISCARD)`` of a round, starting with the crown holder.

    Args:
        mode: ``"standard"``, ``"2p"`` or ``"3p"``.
        n: the number of players.
        crown: the seat holding the crown.
    """
    if mode == "2p":
        a, b = crown, 1 - crown
        return ((a, 0), (b, 0), (b, 1), (a, 0), (a, 1), (b, 0))
    rounds = 2 if mode == "3p" else 1
    return tuple(((crown + i) % n, DRAFT_PICK) for i in range(n * rounds))


def resample(state: CitadelsState, player: int, rng: Rng) -> CitadelsState:
    """Return a copy of ``state`` in which everything ``player`` cannot see is drawn again from ``rng``.

    The result depends only on what ``player`` knows (their observation and the redacted history) and on ``rng``.
    """
    other = state.clone()
    assert isinstance(other, type(state))
    if state.phase != 2:
        _resample_characters(state, other, player, rng)
    _resample_cards(state, other, player, rng)
    return other


def _known_places(state: CitadelsState, player: int) -> dict[int, int]:
    """Characters whose place ``player`` knows: a seat, or -1 for face down / unpicked."""
    known: dict[int, int] = {c: player for c in state.chars[player]}
    done = state.phase != 0
    for seat, c, kind in state.events:
        if seat == player and kind == EV_DISCARD:
            known[c] = -1
        elif kind == EV_LEFTOVER and done and state.steps[-1][0] == player:
            known[c] = -1
    for c, status in state.calls:
        if status >= 0:
            known[c] = status
        elif status == -1:
            known[c] = -1
    return known


def _resample_characters(state: CitadelsState, other: CitadelsState, player: int, rng: Rng) -> None:
    g = state.game
    steps = state.steps
    n_done = state.step if state.phase == 0 else len(steps)
    n_begun = n_done + 1 if state.phase == 0 else n_done
    mine = [i for i in range(n_begun) if steps[i][0] == player]
    targets = dict(zip(mine, state.seen[player], strict=True))
    own = [c for s, c, k in state.events if s == player and k in (EV_PICK, EV_DISCARD)]
    known = _known_places(state, player)
    base = sorted(c for c in g.round_characters if c not in state.faceup)
    initial = None  # 7 players: the last seat took the initial face-down card and knows which one it was
    if g.return_step >= 0 and steps[g.return_step][0] == player:
        initial = next((c for _, c, k in state.events if k == EV_RETURN), None)
    for _ in range(_TRIES):
        result = _simulate(state, player, rng, base, n_done, n_begun, targets, own, known, initial)
        if result is not None:
            owner, chars, facedown, pool, events, seen = result
            other.owner = owner
            other.chars = chars
            other.facedown = facedown
            other.pool = pool
            other.events = events
            seen[player] = list(state.seen[player])
            other.seen = seen
            return


def _next_target(targets: dict[int, tuple[int, ...]], after: int) -> tuple[int, tuple[int, ...]] | None:
    later = [i for i in targets if i > after]
    if not later:
        return None
    i = min(later)
    return i, targets[i]


def _simulate(
    state: CitadelsState,
    player: int,
    rng: Rng,
    base: list[int],
    n_done: int,
    n_begun: int,
    targets: dict[int, tuple[int, ...]],
    own: list[int],
    known: dict[int, int],
    initial: int | None = None,
) -> _Sim | None:
    g = state.game
    n = g.num_players
    steps = state.steps
    pool = list(base)
    owner = [-1] * 9
    chars: list[list[int]] = [[] for _ in range(n)]
    seen: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
    facedown: list[int] = []
    events: list[tuple[int, int, int]] = []
    # the initial face-down card
    nxt = _next_target(targets, -1)
    last_seat = steps[g.return_step][0] if g.return_step >= 0 else -1
    cands = [c for c in pool if known.get(c, -1) in (-1, last_seat)]
    if nxt is not None:
        back = nxt[0] == g.return_step and steps[nxt[0]][1] == DRAFT_PICK
        cands = [c for c in cands if (c in nxt[1]) == back]
    if initial is not None:
        cands = [c for c in cands if c == initial]
    if not cands:
        return None
    c = rng.choice(cands)
    pool.remove(c)
    facedown.append(c)
    events.append((-1, c, EV_INITIAL))
    own_iter = iter(own)
    for i in range(n_begun):
        seat, kind = steps[i]
        if i == g.return_step and kind == DRAFT_PICK:
            back_card = facedown.pop()
            events.append((-1, back_card, EV_RETURN))
            pool.append(back_card)
            pool.sort()
        offered = tuple(pool)
        seen[seat].append(offered)
        if seat == player and targets.get(i) != offered:
            return None
        if i >= n_done:
            break
        if seat == player:
            c = next(own_iter)
        else:
            want = seat if kind == DRAFT_PICK else -1
            cands = [x for x in pool if known.get(x, want) == want]
            if kind == DRAFT_PICK:
                due = [x for x in cands if known.get(x) == seat]
                picks_left = sum(1 for j in range(i, n_done) if steps[j] == (seat, DRAFT_PICK))
                if due and len(due) >= picks_left:
                    cands = due
            nxt = _next_target(targets, i)
            if nxt is not None:
                cands = [x for x in cands if x not in nxt[1]]
            if not cands:
                return None
            c = rng.choice(cands)
        pool.remove(c)
        if kind == DRAFT_PICK:
            owner[c] = seat
            chars[seat].append(c)
            chars[seat].sort()
            events.append((seat, c, EV_PICK))
        else:
            facedown.append(c)
            events.append((seat, c, EV_DISCARD))
    if n_done == len(steps):
        for c in pool:
            facedown.append(c)
            events.append((-1, c, EV_LEFTOVER))
        pool = []
    for c, place in known.items():
        if place >= 0 and owner[c] != place:
            return None
        if place == -1 and owner[c] != -1:
            return None
    return owner, chars, facedown, pool, events, seen


def _resample_cards(state: CitadelsState, other: CitadelsState, player: int, rng: Rng) -> None:
    """Re-deal the district cards whose place ``player`` does not know (``state.known`` bit clear)."""
    bit = 1 << player
    known = state.known
    slots: list[tuple[int, int, int]] = []  # (area, index, position): area -1 deck, -2 - i stack entry i, else seat
    unseen: list[int] = []
    for pos, c in enumerate(state.deck):
        if not known[c] & bit:
            slots.append((-1, 0, pos))
            unseen.append(c)
    for s, hand in enumerate(state.hands):
        if s == player:
            continue
        for pos, c in enumerate(hand):
            if not known[c] & bit:
                slots.append((s, 0, pos))
                unseen.append(c)
    for i, d in enumerate(state.stack):
        if d.kind == D_KEEP and d.player != player:
            for pos, c in enumerate(d.data[0]):
                if not known[c] & bit:
                    slots.append((-2, i, pos))
                    unseen.append(c)
    fresh = sorted(unseen)
    rng.shuffle(fresh)
    remap: dict[int, int] = {}
    pending = {i: list(d.data[0]) for i, d in enumerate(other.stack) if d.kind == D_KEEP}
    for (area, i, pos), old, new in zip(slots, unseen, fresh, strict=True):
        remap[old] = new
        other.known[new] = known[old]
        if area == -1:
            other.deck[pos] = new
        elif area == -2:
            pending[i][pos] = new
        else:
            other.hands[area][pos] = new
    for i, cards in pending.items():
        d = other.stack[i]
        other.stack[i] = Decision(d.player, d.kind, (tuple(cards), d.data[1]))
    for i, d in enumerate(other.stack):
        if d.kind == D_EXCHANGE and d.player != player:
            other.stack[i] = Decision(d.player, d.kind, (tuple(remap.get(c, c) for c in d.data[0]),))
