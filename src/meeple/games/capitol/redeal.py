"""The hidden-information re-deal of Capitol (``resample_from_infostate``).

Rules: capitol.md §5.3 (public and private information).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from meeple.core import Rng
from meeple.games.capitol.const import (
    AUCTION,
    PILE_HIDDEN,
    PILE_PUBLIC,
    PILE_SHUFFLED,
    PUBLIC,
    seen_by,
    seen_colour,
)
from meeple.games.capitol.data import CARD_COLOUR, CARD_REP, CARD_TYPE

if TYPE_CHECKING:
    from meeple.games.capitol.state import CapitolState


def resample(state: CapitolState, player: int, rng: Rng) -> CapitolState:
    """Re-deal what ``player`` cannot see.

    Unseen cards are, per card type: other seats' hand cards that are not public knowledge (dealt at setup),
    the cards under the top of a draw pile still in its dealt order, and cards others played face down
    (``played_card=face_down``; a permit played with its action keeps its public colour); they are shuffled and
    dealt back into the same typed slots. A pile made by shuffling discards is shuffled within itself (its contents are
    public). Other seats' sealed bids and bid in progress are replaced by random subsets of their (re-dealt)
    hands of a random size: how many cards another seat bid is hidden (``State.history_texts`` shows a run of
    hidden bid steps once). Other hands are put in a canonical order (public cards first) and identical cards get
    canonical ids outside the player's hand (:func:`_relabel`), so the result depends only on what ``player`` knows.

    Args:
        state: the real state (unchanged).
        player: the seat whose knowledge is kept.
        rng: the source of the re-deal (advanced).

    Returns:
        A copy of ``state`` that ``player`` cannot tell apart from it.
    """
    other = state.clone()
    assert isinstance(other, type(state))
    n = state.game.num_players
    canonical = _canonical_order(state)
    for t in range(3):
        slots: list[tuple[int, int]] = []
        pool: list[int] = []
        for s in range(n):
            if s == player:
                continue
            known = state.known[s]
            for i, c in enumerate(state.hands[s]):
                if CARD_TYPE[c] == t and c not in known:
                    slots.append((s, i))
                    pool.append(c)
        pile = state.piles[t]
        hidden = len(pile) - 1 if state.pile_mode[t] != PILE_PUBLIC else 0
        if state.pile_mode[t] == PILE_HIDDEN:
            slots += [(PILE_SLOT, i) for i in range(max(0, hidden))]
            pool += pile[: max(0, hidden)]
        by_colour = _face_down_slots(state, player, t, slots, pool)
        pool.sort(key=canonical)
        rng.shuffle(pool)
        for colour, where in sorted(by_colour.items()):  # a face-down permit played with its action: its colour
            for slot in where:
                fits = [k for k, c in enumerate(pool) if CARD_COLOUR[c] == colour]
                _put(other, t, slot, pool.pop(fits[rng.randrange(len(fits))]))
        for slot, c in zip(slots, pool, strict=True):
            _put(other, t, slot, c)
        if state.pile_mode[t] == PILE_SHUFFLED and hidden > 1:
            under = sorted(
                zip(other.piles[t][:hidden], other.pile_seen[t][:hidden], strict=True), key=_by_card(canonical)
            )
            rng.shuffle(under)
            other.piles[t][:hidden] = [c for c, _ in under]
            other.pile_seen[t][:hidden] = [code for _, code in under]
    for s in range(n):  # other hands in a canonical order: public cards (in the order they became public), the rest
        if s != player:
            known = other.known[s]
            other.hands[s] = list(known) + sorted(c for c in other.hands[s] if c not in known)
    _relabel(other, player)
    for s in range(n):
        if s != player and s in state.bids.values:
            hand = sorted(other.hands[s])
            other.bids.values[s] = tuple(rng.sample(hand, rng.randrange(len(hand) + 1)))
    if state.phase == AUCTION and state.to_move != player and state.draft and not state.stack:
        hand = sorted(other.hands[state.to_move])
        other.draft = rng.sample(hand, 1 + rng.randrange(len(hand))) if hand else []
    return other


PILE_SLOT = -1
"""A slot's owner for a draw-pile position (seats are 0 and up)."""
DISCARD_SLOT = -2
"""A slot's owner for a discard-pile position."""


def _face_down_slots(
    state: CapitolState, player: int, t: int, slots: list[tuple[int, int]], pool: list[int]
) -> dict[int, list[tuple[int, int]]]:
    """Add the face-down cards of type ``t`` that ``player`` did not see to ``slots`` and ``pool``.

    A permit whose colour everyone knows (played with its action) keeps it: its slot is returned by colour instead
    of added to ``slots`` (its card still joins ``pool``). A draw pile's top card is face up, so never a slot.
    Rules: ``played_card=face_down`` (capitol.md §2 row n, FR reading; docs/decisions.md).
    """
    by_colour: dict[int, list[tuple[int, int]]] = {}
    places = ((DISCARD_SLOT, state.discards[t], state.discard_seen[t]), (PILE_SLOT, state.piles[t], state.pile_seen[t]))
    for where, cards, seen in places:
        if where == PILE_SLOT and state.pile_mode[t] == PILE_HIDDEN:
            continue  # its cards under the top are all slots already
        unseen = [(seen[i], i) for i in range(len(cards) - 1 if where == PILE_SLOT else len(cards))]
        if where == PILE_SLOT and state.pile_mode[t] == PILE_SHUFFLED:  # where they lie is hidden: take them by code
            unseen.sort()
        for code, i in unseen:
            if code == PUBLIC or seen_by(code) == player:
                continue
            pool.append(cards[i])
            colour = seen_colour(code)
            if colour >= 0:
                by_colour.setdefault(colour, []).append((where, i))
            else:
                slots.append((where, i))
    return by_colour


def _put(state: CapitolState, t: int, slot: tuple[int, int], card: int) -> None:
    """Write ``card`` into a re-deal slot: a hand, draw pile ``t`` or discard pile ``t`` position."""
    where, i = slot
    if where == PILE_SLOT:
        state.piles[t][i] = card
    elif where == DISCARD_SLOT:
        state.discards[t][i] = card
    else:
        state.hands[where][i] = card


def _by_card(canonical: Callable[[int], tuple[int, int, int]]) -> Callable[[tuple[int, int]], tuple[object, ...]]:
    """Sort key of ``(card, seen code)`` pairs: kind and mention, the code, then the id.

    The code comes before the id: which of identical cards carries which id is hidden (:func:`_relabel`).
    """

    def key(pair: tuple[int, int]) -> tuple[object, ...]:
        rep, mention, card = canonical(pair[0])
        return rep, mention, pair[1], card

    return key


def _canonical_order(state: CapitolState) -> Callable[[int], tuple[int, int, int]]:
    """Return the sort key of the cards a re-deal shuffles: kind, then first mention in the public auction log.

    Identical cards (same ``CARD_REP``) carry different ids, and which copy lies where is hidden; only the auction
    log ties an id to a public event (a card bid). Sorting by kind, then by that mention, then by id makes the
    shuffled order the same for every state the player cannot tell apart, whichever copies carry which ids.
    """
    mention: dict[int, int] = {}
    for entry in state.auction_log:
        for bid in entry[2] or ():
            for card in bid:
                mention.setdefault(card, len(mention))
    unmentioned = len(mention)

    def key(card: int) -> tuple[int, int, int]:
        return CARD_REP[card], mention.get(card, unmentioned), card

    return key


def _relabel(state: CapitolState, player: int) -> None:
    """Give identical cards canonical ids, in place, everywhere but in ``player``'s hand.

    Which of several identical cards (same ``CARD_REP``) lies where is hidden information (e.g. the copy a seat played
    tells which copies it did not hold), so outside ``player``'s own hand the ids of each kind are reassigned in the
    order of a fixed walk: discard piles, draw piles, then the other hands (already re-dealt and in canonical order).
    """
    own = set(state.hands[player])
    walk = [c for lst in (*state.discards, *state.piles) for c in lst]
    walk += [c for s, hand in enumerate(state.hands) if s != player for c in hand]
    by_kind: dict[int, list[int]] = {}
    for c in walk:
        if c not in own:
            by_kind.setdefault(CARD_REP[c], []).append(c)
    perm: dict[int, int] = {}
    for ids in by_kind.values():
        perm.update(zip(ids, sorted(ids), strict=True))
    if all(a == b for a, b in perm.items()):
        return

    def move(cards: list[int]) -> list[int]:
        return [perm.get(c, c) for c in cards]

    for name in ("hands", "known", "piles", "discards"):
        setattr(state, name, [move(lst) for lst in getattr(state, name)])
    state.auction_log = [
        [e[0], e[1], None if e[2] is None else [move(b) for b in e[2]], e[3]] for e in state.auction_log
    ]
    state.draft = move(state.draft)
    state.bids.values = {s: tuple(move(list(v))) for s, v in state.bids.values.items()}
