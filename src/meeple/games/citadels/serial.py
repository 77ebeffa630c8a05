"""Copying and JSON (de)serialisation of the Citadels state's fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    other.stack = [d[:] for d in state.stack]
    other.last_killed = state.last_killed[:]
    other.past = state.past[:]


def body_to_json(state: CitadelsState) -> dict[str, Any]:
    """Return the game-specific fields as JSON-able data."""
    body: dict[str, Any] = {name: getattr(state, name) for name in _SCALARS}
    for name in _LISTS:
        body[name] = list(getattr(state, name))
    for name in _NESTED:
        body[name] = [list(x) for x in getattr(state, name)]
    body["seen"] = [[list(t) for t in s] for s in state.seen]
    body["steps"] = [list(t) for t in state.steps]
    body["stack"] = [[d[0], d[1], list(d[2]), d[3]] for d in state.stack]
    body["past"] = [list(t) for t in state.past]
    return body


def restore_body(state: CitadelsState, body: dict[str, Any]) -> None:
    """Set the game-specific fields from :func:`body_to_json` output."""
    for name in _SCALARS:
        setattr(state, name, body[name])
    for name in _LISTS:
        setattr(state, name, [int(x) for x in body[name]])
    state.hands = [list(x) for x in body["hands"]]
    state.cities = [list(x) for x in body["cities"]]
    state.chars = [list(x) for x in body["chars"]]
    state.calls = [list(x) for x in body["calls"]]
    state.events = [(int(a), int(b), int(c)) for a, b, c in body["events"]]
    state.steps = tuple((int(a), int(b)) for a, b in body["steps"])
    state.seen = [[tuple(t) for t in s] for s in body["seen"]]
    state.stack = [[d[0], d[1], tuple(d[2]), d[3]] for d in body["stack"]]
    state.past = [(int(r), int(c), int(s), int(k)) for r, c, s, k in body.get("past", [])]
