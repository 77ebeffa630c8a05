"""Copying, JSON (de)serialisation and the restore-time consistency check of the Citadels state's fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core import Decision
from meeple.core.snapshot import expect, expect_each_once, expect_int, expect_ints
from meeple.games.citadels.const import (
    D_DESTROY,
    D_EXCHANGE,
    D_GRAVEYARD,
    D_KEEP,
    DECISION_NAMES,
    DRAFT,
    OVER,
    TURNS,
)

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState

_SCALARS = (
    "crown",
    "round",
    "phase",
    "step",
    "calling",
    "turn_seat",
    "killed",
    "robbed",
    "flags",
    "builds",
    "first_complete",
    "ending",
    "cur",
)
_LISTS = ("deck", "masks", "gold", "built_round", "known", "faceup", "facedown", "pool", "owner", "last_killed")
_NESTED = ("hands", "cities", "chars", "calls", "events")


def copy_fields(state: CitadelsState, other: CitadelsState) -> None:
    """Copy every game-specific field of ``state`` into ``other`` (lists are copied, tuples shared)."""
    for name in _SCALARS:
        setattr(other, name, getattr(state, name))
    other.steps = state.steps
    other.deck = state.deck[:]
    other.hands = [h[:] for h in state.hands]
    other.cities = [c[:] for c in state.cities]
    other.masks = state.masks[:]
    other.gold = state.gold[:]
    other.built_round = state.built_round[:]
    other.known = state.known[:]
    other.faceup = state.faceup[:]
    other.facedown = state.facedown[:]
    other.pool = state.pool[:]
    other.events = state.events[:]
    other.seen = [s[:] for s in state.seen]
    other.owner = state.owner[:]
    other.chars = [c[:] for c in state.chars]
    other.calls = [c[:] for c in state.calls]
    other.stack = state.stack[:]
    other.last_killed = state.last_killed[:]
    other.past = state.past[:]
    other.exchanges = state.exchanges[:]


def body_to_json(state: CitadelsState) -> dict[str, Any]:
    """Return the game-specific fields as JSON-able data."""
    body: dict[str, Any] = {name: getattr(state, name) for name in _SCALARS}
    for name in _LISTS:
        body[name] = list(getattr(state, name))
    for name in _NESTED:
        body[name] = [list(x) for x in getattr(state, name)]
    body["seen"] = [[list(t) for t in s] for s in state.seen]
    body["steps"] = [list(t) for t in state.steps]
    body["stack"] = [d.to_json() for d in state.stack]
    body["past"] = [list(t) for t in state.past]
    body["exchanges"] = [list(t) for t in state.exchanges]
    return body


def _ints(values: Any) -> list[int]:
    return [int(x) for x in values]


def _decision(d: Any) -> Decision:
    """Rebuild a pending decision from its JSON form ``[player, kind, data]``, each value through its type."""
    player, kind, data = int(d[0]), str(d[1]), d[2]
    if kind == D_KEEP:
        return Decision(player, kind, (tuple(_ints(data[0])), int(data[1])))
    if kind == D_EXCHANGE:
        return Decision(player, kind, (tuple(_ints(data[0])),))
    if kind == D_GRAVEYARD:
        return Decision(player, kind, (int(data[0]),))
    expect(kind == D_DESTROY and not data, "body.stack", f"a decision of a kind in {DECISION_NAMES} with its data")
    return Decision(player, kind)


def restore_body(state: CitadelsState, body: dict[str, Any]) -> None:
    """Set the game-specific fields from :func:`body_to_json` output.

    Every value is converted to its type (``int``, ``bool``): a wrong type changes it, and the snapshot check that
    follows (``to_json`` must give the snapshot back) names it.
    """
    for name in _SCALARS:
        if name == "ending":  # two statements: compiled (mypyc), one conditional expression would make it an int
            state.ending = bool(body[name])
        else:
            setattr(state, name, int(body[name]))
    for name in _LISTS:
        setattr(state, name, _ints(body[name]))
    state.hands = [_ints(x) for x in body["hands"]]
    state.cities = [_ints(x) for x in body["cities"]]
    state.chars = [_ints(x) for x in body["chars"]]
    state.calls = [_ints(x) for x in body["calls"]]
    state.events = [(int(a), int(b), int(c)) for a, b, c in body["events"]]
    state.steps = tuple((int(a), int(b)) for a, b in body["steps"])
    state.seen = [[tuple(_ints(t)) for t in s] for s in body["seen"]]
    state.stack = [_decision(d) for d in body["stack"]]
    state.past = [(int(r), int(c), int(s), int(k)) for r, c, s, k in body["past"]]
    state.exchanges = [(int(r), int(s), int(k)) for r, s, k in body["exchanges"]]


def check_consistency(state: CitadelsState) -> None:
    """Check a restored position: ranges, every district card and character exactly once, derived fields.

    Raises:
        InvalidStateError: the first broken invariant, naming the body field.

    Rules: citadels.md §5.2 r1 (65/66 district cards, 2 gold each at the start, an unlimited bank), r2–r3 (the
    characters of a round: face down, face up, offered, chosen).
    """
    g = state.game
    n = g.num_players
    cards = len(g.card_kind)
    for name in ("hands", "cities", "masks", "gold", "chars", "seen"):
        expect(len(getattr(state, name)) == n, f"body.{name}", f"one entry per seat ({n})")
    for name in ("built_round", "known"):
        expect(len(getattr(state, name)) == cards, f"body.{name}", f"one entry per district card ({cards})")
    expect(len(state.owner) == 9, "body.owner", "one entry per character slot 0..8")
    expect_int(state.phase, "body.phase", DRAFT, OVER)
    expect_int(state.crown, "body.crown", 0, n - 1)
    expect_int(state.round, "body.round", 1, g.params.max_rounds)
    expect_ints(state.gold, "body.gold", 0, 10 * g.info.max_game_length)
    expect_int(state.calling, "body.calling", 0, 9)
    expect_int(state.turn_seat, "body.turn_seat", -1, n - 1)
    expect_int(state.killed, "body.killed", 0, 8)
    expect_int(state.robbed, "body.robbed", 0, 8)
    expect_int(state.flags, "body.flags", 0, 63)
    expect_int(state.builds, "body.builds", 0, 3)
    expect_int(state.first_complete, "body.first_complete", -1, n - 1)
    expect_ints(state.built_round, "body.built_round", -1, state.round)
    for r, seat, count in state.exchanges:
        expect(1 <= r <= state.round and 0 <= seat < n and 1 <= count <= cards, "body.exchanges", "(round, seat, k)")
    _check_cards(state)
    _check_characters(state)
    _check_turn(state)


def _check_cards(state: CitadelsState) -> None:
    kinds = state.game.card_kind
    zones: dict[str, list[int]] = {"body.deck": state.deck}
    for s, hand in enumerate(state.hands):
        zones[f"body.hands[{s}]"] = hand
    for s, city in enumerate(state.cities):
        zones[f"body.cities[{s}]"] = city
        expect(len({kinds[c] for c in city}) == len(city), f"body.cities[{s}]", "a city holds one district a kind")
        mask = 0
        for c in city:
            mask |= 1 << kinds[c]
        expect(
            state.masks[s] == mask, f"body.masks[{s}]", f"the kinds built in city {s} ({mask}), not {state.masks[s]}"
        )
    for i, d in enumerate(state.stack):
        expect(0 <= d.player < len(state.hands), f"body.stack[{i}]", "a decision of a seat")
        if d.kind == D_KEEP:
            zones[f"body.stack[{i}]"] = list(d.data[0])
            expect(0 < d.data[1] < len(d.data[0]), f"body.stack[{i}]", "fewer cards to keep than drawn, at least one")
        elif d.kind == D_GRAVEYARD:
            zones[f"body.stack[{i}]"] = [d.data[0]]
        elif d.kind == D_EXCHANGE:
            expect(set(d.data[0]) <= set(state.hands[d.player]), f"body.stack[{i}]", "the Magician's own cards")
    expect_each_once(zones, range(len(kinds)), "district card")


def _check_characters(state: CitadelsState) -> None:
    zones: dict[str, list[int]] = {
        "body.faceup": state.faceup,
        "body.facedown": state.facedown,
        "body.pool": state.pool,
    }
    for s, chars in enumerate(state.chars):
        zones[f"body.chars[{s}]"] = chars
        for c in chars:
            expect(0 <= c <= 8 and state.owner[c] == s, f"body.owner[{c}]", f"seat {s}, who holds the character")
    expect_each_once(zones, state.game.round_characters, "character of this round")
    held = sum(len(c) for c in state.chars)
    expect(sum(1 for o in state.owner if o >= 0) == held, "body.owner", "only the chosen characters have a holder")


def _check_turn(state: CitadelsState) -> None:
    n = state.game.num_players
    for i, (seat, kind) in enumerate(state.steps):
        expect(0 <= seat < n and kind in (0, 1), f"body.steps[{i}]", "[seat, 0 pick | 1 discard]")
    if state.phase == DRAFT:
        expect_int(state.step, "body.step", 0, len(state.steps) - 1)
    if state.stack:
        expected = state.stack[-1].player
    elif state.phase == DRAFT:
        expected = state.steps[state.step][0]
    elif state.phase == TURNS:
        expected = state.turn_seat
        expect(0 <= state.calling <= 8 and state.owner[state.calling] == expected, "body.turn_seat", "the caller")
    else:
        expected = -4
    expect(state.cur == expected, "body.cur", f"the seat to move ({expected}), not {state.cur}")
