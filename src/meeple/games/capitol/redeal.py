"""The hidden-information re-deal of Capitol (``resample_from_infostate``).

Rules: capitol.md §5.3 (public and private information).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from meeple.core import Rng
from meeple.games.capitol.const import AUCTION, PILE_HIDDEN, PILE_PUBLIC, PILE_SHUFFLED
from meeple.games.capitol.data import CARD_REP, CARD_TYPE

if TYPE_CHECKING:
    from meeple.games.capitol.state import CapitolState


def resample(state: CapitolState, player: int, rng: Rng) -> CapitolState:
    """Re-deal what ``player`` cannot see.

    Unseen cards are, per card type: other seats' hand cards that are not public knowledge (dealt at setup)
    and the cards under the top of a draw pile still in its dealt order; they are shuffled and dealt back
    into the same typed slots. A pile made by shuffling discards is shuffled within itself (its contents are
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
        if state.pile_mode[t] == PILE_SHUFFLED and hidden > 1:
            under = sorted(pile[:hidden], key=canonical)
            rng.shuffle(under)
            other.piles[t][:hidden] = under
        elif state.pile_mode[t] == PILE_HIDDEN:
            slots += [(-1, i) for i in range(max(0, hidden))]
            pool += pile[: max(0, hidden)]
        pool.sort(key=canonical)
        rng.shuffle(pool)
        for (s, i), c in zip(slots, pool, strict=True):
            if s < 0:
                other.piles[t][i] = c
            else:
                other.hands[s][i] = c
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
