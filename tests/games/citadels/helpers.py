"""Build explicit Citadels positions for scenario tests."""

from __future__ import annotations

from typing import Any

from meeple import load_game
from meeple.core import Action
from meeple.games.citadels.data import KIND_INDEX
from meeple.games.citadels.state import TURNS, CitadelsState


def kind(key: str) -> int:
    return KIND_INDEX[key]


def take(state: CitadelsState, key: str) -> int:
    """Remove and return a card of kind ``key`` from the deck."""
    k = kind(key)
    card = next(c for c in state.deck if state.game.card_kind[c] == k)
    state.deck.remove(card)
    return card


def position(
    players: int = 4,
    chars: dict[int, list[int]] | None = None,
    hands: dict[int, list[str]] | None = None,
    cities: dict[int, list[str]] | None = None,
    gold: dict[int, int] | None = None,
    start: int = 1,
    killed: int = 0,
    robbed: int = 0,
    crown: int = 0,
    seed: int = 0,
    **params: Any,
) -> CitadelsState:
    """A state in the calls phase: seat -> characters; the first character >= ``start`` held by a seat is called."""
    game = load_game("citadels", players=players, **params)
    s = game.new_initial_state(seed)
    assert isinstance(s, CitadelsState)
    n = players
    s.deck = list(range(len(game.card_kind)))
    s.hands = [[] for _ in range(n)]
    s.cities = [[] for _ in range(n)]
    s.masks = [0] * n
    s.gold = [0] * n
    s.stack = []
    s.known = [0] * len(game.card_kind)
    s.steps = ()
    s.seen = [[] for _ in range(n)]
    s.events = []
    for seat, keys in (hands or {}).items():
        s.hands[seat] = [take(s, k) for k in keys]
        for c in s.hands[seat]:
            s.known[c] = 1 << seat
    for seat, keys in (cities or {}).items():
        for k in keys:
            c = take(s, k)
            s.cities[seat].append(c)
            s.masks[seat] |= 1 << kind(k)
            s.built_round[c] = 0
            s.known[c] = -1
    for seat, g in (gold or {}).items():
        s.gold[seat] = g
    chars = chars if chars is not None else {i: [i + 1] for i in range(n)}
    s.owner = [-1] * 9
    s.chars = [[] for _ in range(n)]
    for seat, cs in chars.items():
        s.chars[seat] = sorted(cs)
        for c in cs:
            s.owner[c] = seat
    s.faceup = []
    s.facedown = [c for c in game.round_characters if s.owner[c] < 0]
    s.pool = []
    s.phase = TURNS
    s.crown = crown
    s.calls = []
    s.killed = killed
    s.robbed = robbed
    s.calling = start - 1
    s.first_complete = -1
    s.ending = False
    s._next_call()
    s._update_cur()
    s.edited()
    return s


def texts(state: CitadelsState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: CitadelsState, *moves: str) -> None:
    """Apply actions given by their full texts."""
    for m in moves:
        state.apply_action(state.string_to_action(m))


def act(state: CitadelsState, action: Action) -> None:
    state.apply_action(action)


def card_total(state: CitadelsState) -> int:
    pending = len(state.pending_cards())
    return len(state.deck) + sum(map(len, state.hands)) + sum(map(len, state.cities)) + pending
