"""Validation of a state snapshot before it is trusted: the server's defence against a corrupted or forged row.

``Game.state_from_json`` accepts exactly the snapshots that ``State.to_json`` produces. A snapshot passes, in order:

1. **Form**: JSON data (no NaN, no object that JSON cannot hold), the common fields well typed: ``seed`` a
   non-negative integer, ``rng`` a generator state, ``history`` a list of ``[seat, action]`` with every seat in
   range and every action one of the game's (or a ``HiddenAction`` placeholder of a resampled state), ``log_events``
   a list of ``[after, seat, message]`` in history order.
2. **Types**: the game restores its body, and serializing the restored state gives back the snapshot exactly,
   types included (``"3"``, ``3.0`` and ``true`` are not ``3``): a value of the wrong type or shape is named.
3. **Ranges and conservation**: the game's :meth:`State.check_consistency` (every card, piece and token exactly
   once across its zones, counters within their supply).
4. **Soundness**: the position answers the contract (seat to move, legal actions, every observation, scores)
   without an error.
5. **History**: where the history is complete (no ``HiddenAction``), replaying it from the seed must give the
   snapshot exactly, body and generator; the first field that differs is named. A resampled state cannot be
   replayed (its history holds placeholders), so steps 1–4 are its whole check.

Every failure raises :class:`~meeple.core.errors.InvalidStateError` with the path of the field (``body.gold[2]``).

Rules: issue "Hidden information and bad input" (restore validation); architecture "Playing online" (snapshots
are validated when read).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meeple.core.action import short_repr
from meeple.core.errors import InvalidStateError, MeepleError
from meeple.core.rng import Rng
from meeple.i18n.message import Message

if TYPE_CHECKING:
    from meeple.core.game import Game
    from meeple.core.state import State

HIDDEN_TYPE = "hidden_action"
"""The JSON ``type`` of a :class:`~meeple.core.state.HiddenAction` placeholder (a string here: this module is
imported by ``Game.state_from_json``, below ``state``; a test checks it equals ``HiddenAction.type_name``)."""


def as_json_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """Return a plain JSON copy of ``data`` (tuples become lists).

    Raises:
        InvalidStateError: ``data`` holds something JSON cannot (a set, NaN, an object) or is nested too deeply.
    """
    try:
        wire = json.loads(json.dumps(data, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidStateError(f"a snapshot is JSON data: {short_repr(exc)}") from None
    assert isinstance(wire, dict)
    return wire


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Return the path of the first place where ``a`` and ``b`` differ in value or JSON type, or None.

    ``True`` differs from ``1`` and ``1.0`` from ``1`` (a plain ``==`` would call them equal).
    """
    if type(a) is not type(b):
        return path or "(root)"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}" if path else str(key)
            found = first_difference(a[key], b[key], f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{path} (length {len(a)}, expected {len(b)})"
    if isinstance(a, float) and math.isnan(a):
        return path
    return None if a == b else path


def value_at(data: Any, path: str) -> Any:
    """Return the value of ``data`` at a path given by :func:`first_difference` (best effort, for messages)."""
    value = data
    for part in path.replace("[", ".[").split("."):
        if not part or part == "(root)":
            continue
        try:
            value = value[int(part[1:-1])] if part.startswith("[") else value[part]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return value


def check_common(game: Game[Any], data: Mapping[str, Any]) -> None:
    """Check the fields every snapshot shares: ``seed``, ``rng``, ``history`` and ``body`` (step 1).

    Raises:
        InvalidStateError: the first malformed field, named.
    """
    for key in ("seed", "rng", "history", "log_events", "body"):
        if key not in data:
            raise InvalidStateError(f"the snapshot has no {key!r} field")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidStateError(f"seed: a non-negative integer, not {short_repr(seed)}")
    try:
        Rng.from_json(data["rng"])
    except (ValueError, TypeError, OverflowError) as exc:
        raise InvalidStateError(f"rng: {short_repr(exc)}") from None
    if not isinstance(data["body"], dict):
        raise InvalidStateError(f"body: a JSON object, not {short_repr(data['body'])}")
    history = data["history"]
    if not isinstance(history, list):
        raise InvalidStateError(f"history: a list of [seat, action], not {short_repr(history)}")
    n = game.num_players
    for i, entry in enumerate(history):
        if not isinstance(entry, list) or len(entry) != 2:
            raise InvalidStateError(f"history[{i}]: a pair [seat, action], not {short_repr(entry)}")
        seat, action = entry
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidStateError(f"history[{i}]: the seat is an integer from 0 to {n - 1}, not {short_repr(seat)}")
        if isinstance(action, dict) and action.get("type") == HIDDEN_TYPE:
            message = action.get("message")
            valid = set(action) <= {"type", "text", "message"} and isinstance(action.get("text"), str)
            if valid and message is not None:
                try:
                    valid = str(Message.from_json(message)) == action["text"]
                except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                    valid = False
            if not valid:
                raise InvalidStateError(
                    f"history[{i}]: a hidden action is {{'type', 'text', 'message'?}} (the message reading as the "
                    f"text), not {short_repr(action)}"
                )
            continue
        try:
            game.action_from_json(action)
        except MeepleError as exc:
            raise InvalidStateError(f"history[{i}]: {exc}") from None
    check_events(data["log_events"], len(history), n)


def check_events(events: Any, moves: int, players: int) -> None:
    """Check the ``log_events`` field: ``[after, seat, message]`` lists, ``after`` non-decreasing within the history.

    Raises:
        InvalidStateError: the first malformed event, named.
    """
    if not isinstance(events, list):
        raise InvalidStateError(f"log_events: a list of [after, seat, message], not {short_repr(events)}")
    last = 0
    for i, event in enumerate(events):
        valid = isinstance(event, list) and len(event) == 3
        if valid:
            after, seat, message = event
            valid = all(isinstance(v, int) and not isinstance(v, bool) for v in (after, seat))
            valid = valid and last <= after <= moves and 0 <= seat < players
            if valid:
                try:
                    Message.from_json(message)
                except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                    valid = False
        if not valid:
            raise InvalidStateError(
                f"log_events[{i}]: [after, seat, message] with 0 <= after <= {moves} (in order), a seat from 0 to "
                f"{players - 1} and a message, not {short_repr(event)}"
            )
        last = after


def check_round_trip(wire: Mapping[str, Any], state: State[Any]) -> None:
    """Check that ``state`` serializes back to ``wire`` exactly, types included (step 2).

    Raises:
        InvalidStateError: the path of the first value whose type or shape the game does not accept.
    """
    again = as_json_data(state.to_json())
    path = None if _same(wire, again) else first_difference(dict(wire), again)
    if path is not None:
        raise InvalidStateError(
            f"{path}: {short_repr(value_at(wire, path))} is not a valid value there (wrong type, shape or range)"
        )


def check_sound(state: State[Any]) -> None:
    """Ask the position what every caller asks (step 4); any failure means its fields do not fit together.

    Raises:
        InvalidStateError: the question that failed and the error it raised.
    """
    n = state.game.num_players
    questions: list[tuple[str, Any]] = [
        ("is_terminal()", state.is_terminal),
        ("current_player()", state.current_player),
        ("legal_actions()", state.legal_actions),
        ("scores()", state.scores),
        ("returns()", state.returns),
    ]
    questions += [(f"observation({s})", lambda s=s: state.observation(s)) for s in [*range(n), None]]
    for name, ask in questions:
        try:
            ask()
        except Exception as exc:  # noqa: BLE001 - any crash here is a corrupted snapshot, reported as such
            raise InvalidStateError(f"the position is inconsistent: {name} fails with {short_repr(exc)}") from None
    player = state.current_player()
    if not state.is_terminal() and not (0 <= player < n and state.legal_actions()):
        raise InvalidStateError(f"the position is inconsistent: seat {player} is to move with no legal action")


def check_history(game: Game[Any], wire: Mapping[str, Any]) -> None:
    """Replay the history from the seed and compare the result with the snapshot (step 5).

    Does nothing when the history holds ``HiddenAction`` placeholders (a resampled state).

    Raises:
        InvalidStateError: an action of the history is not legal where it stands, or the replayed state differs;
            the message names the action's index or the first differing field.
    """
    history = wire["history"]
    if any(isinstance(a, dict) and a.get("type") == HIDDEN_TYPE for _, a in history):
        return
    state = game.new_initial_state(wire["seed"])
    for i, (seat, action) in enumerate(history):
        try:
            state.apply_action(action, player=seat)
        except MeepleError as exc:
            raise InvalidStateError(f"history[{i}] cannot be replayed from the seed: {exc}") from None
    replayed = as_json_data(state.to_json())
    path = None if _same(wire, replayed) else first_difference(dict(wire), replayed)
    if path is not None:
        raise InvalidStateError(f"{path} does not match the position the history reaches from the seed")


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Return whether two JSON documents are equal, types included (JSON text tells ``true`` from ``1``)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# ---------------------------------------------------------------- helpers for State.check_consistency
def expect(condition: bool, field: str, what: str) -> None:
    """Raise :class:`InvalidStateError` ``"<field>: <what>"`` unless ``condition`` holds."""
    if not condition:
        raise InvalidStateError(f"{field}: {what}")


def expect_int(value: Any, field: str, lo: int, hi: int) -> None:
    """Check that ``value`` is an integer (not a bool) in ``[lo, hi]``; raise :class:`InvalidStateError` if not."""
    ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    expect(ok, field, f"an integer from {lo} to {hi}, not {short_repr(value)}")


def expect_ints(values: Any, field: str, lo: int, hi: int) -> None:
    """Check that every item of ``values`` is an integer in ``[lo, hi]`` (see :func:`expect_int`)."""
    for i, value in enumerate(values):
        expect_int(value, f"{field}[{i}]", lo, hi)


def expect_each_once(zones: Mapping[str, Any], universe: Any, what: str) -> None:
    """Check that the items of ``zones`` (zone name -> items) hold every item of ``universe`` exactly once.

    Args:
        zones: each zone's items (a hand, a deck, a city...), named as in the body.
        universe: every item of the game (card ids, piece ids), each once.
        what: the items' name for the message ("district card").

    Raises:
        InvalidStateError: an item that is in two zones or twice in one, an unknown item, or a missing one.
    """
    expected = set(universe)
    where: dict[Any, str] = {}
    for zone, items in zones.items():
        for item in items:
            if item not in expected:
                raise InvalidStateError(f"{zone}: {short_repr(item)} is not a {what} of this game")
            if item in where:
                raise InvalidStateError(f"{zone}: {what} {item} is also in {where[item]}")
            where[item] = zone
    missing = sorted(expected - set(where), key=str)
    expect(not missing, "body", f"the {what}s {short_repr(missing)} are in no zone (every {what} is somewhere)")
