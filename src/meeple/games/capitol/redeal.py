"""The hidden-information re-deal of Capitol (``resample_from_infostate``).

Rules: capitol.md §5.3 (public and private information).
"""

from __future__ import annotations

from meeple.core import Rng
from meeple.games.capitol.data import CARD_TYPE
from meeple.games.capitol.state import AUCTION, PILE_HIDDEN, PILE_PUBLIC, PILE_SHUFFLED, CapitolState


def resample(state: CapitolState, player: int, rng: Rng) -> CapitolState:
    """Re-deal what ``player`` cannot see.

    Unseen cards are, per card type: other seats' hand cards that are not public knowledge (dealt at setup)
    and the cards under the top of a draw pile still in its dealt order; they are shuffled and dealt back
    into the same typed slots. A pile made by shuffling discards is shuffled within itself (its contents are
    public). Other seats' sealed bids and bid in progress are replaced by random subsets of their (re-dealt)
    hands of a random size: how many cards another seat bid is hidden (``State.history_texts`` shows a run of
    hidden bid steps once).

    Args:
        state: the real state (unchanged).
        player: the seat whose knowledge is kept.
        rng: the source of the re-deal (advanced).

    Returns:
        A copy of ``state`` that ``player`` cannot tell apart from it.
    """
    other = state.clone()
    assert isinstance(other, CapitolState)
    n = state.game.num_players
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
            under = sorted(pile[:hidden])
            rng.shuffle(under)
            other.piles[t][:hidden] = under
        elif state.pile_mode[t] == PILE_HIDDEN:
            slots += [(-1, i) for i in range(max(0, hidden))]
            pool += pile[: max(0, hidden)]
        pool.sort()
        rng.shuffle(pool)
        for (s, i), c in zip(slots, pool, strict=True):
            if s < 0:
                other.piles[t][i] = c
            else:
                other.hands[s][i] = c
    for s in range(n):
        if s != player and s in state.bids.values:
            hand = sorted(other.hands[s])
            other.bids.values[s] = tuple(rng.sample(hand, rng.randrange(len(hand) + 1)))
    if state.phase == AUCTION and state.to_move != player and state.draft and not state.stack:
        hand = sorted(other.hands[state.to_move])
        other.draft = rng.sample(hand, 1 + rng.randrange(len(hand))) if hand else []
    return other
