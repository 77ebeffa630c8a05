"""The conformance harness every game must pass: ``check_game(name, seeds=..., player_counts=...)``.

Users can import it to check a game of their own; the test suite runs it over every registered game.
Each failure raises :class:`ConformanceError` naming the game, players, seed, step and check.

Checks (architecture "Tests"): random play to the end within ``max_game_length``; deterministic legal actions;
clone independence; JSON and replay round trips (the final state's too: a finished game restores from its own
snapshot, and tampered copies of it are refused); action codec round trips (JSON, integer code, text);
no leak (the observation, information state, legal actions, ``observation_key`` and ``shown_key`` of the player to
move are unchanged by ``resample_from_infostate``; likewise the observation, information state and
``observation_key`` of every other seat under its own resample; the same generator re-deals two states the player
cannot tell apart into the same state; a resampled state stays playable); illegal and out-of-turn actions raise and
leave the state unchanged; returns in range; observations are JSON-able for every seat and the spectator.

Secrets and bad input (issue "Hidden information and bad input"): a resampled world's seed and generator are not
the real ones, and ``new_initial_state(world.seed)`` does not rebuild the real start; every malformed input to
``apply_action`` (:func:`bad_inputs`: placeholders, other games' actions, wrong JSON types, huge numbers, nested
junk) raises a :class:`~meeple.core.errors.MeepleError` and leaves the state byte-identical; every tampered
snapshot (:func:`tampered_snapshots`: a leaf of the wrong type or value, a duplicated or dropped item, the body of
another step) is refused by ``state_from_json`` with :class:`~meeple.core.errors.InvalidStateError`, or, for a
resampled state whose history cannot be replayed, loads into a position that plays on without crashing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from meeple.core.action import Action, short_repr
from meeple.core.errors import IllegalActionError, InvalidStateError, MeepleError, NotYourTurnError
from meeple.core.game import Game
from meeple.core.records import replay
from meeple.core.registry import game_class, load_game, registered_games
from meeple.core.rng import Rng
from meeple.core.snapshot import first_difference
from meeple.core.state import TERMINAL, HiddenAction, State


class ConformanceError(AssertionError):
    """A game broke the core contract; the message says where and how."""


@dataclass
class ConformanceReport:
    """What :func:`check_game` ran: games played, decisions checked, and the player counts covered."""

    games: int = 0
    decisions: int = 0
    player_counts: tuple[int, ...] = ()


def _dump(state: State[Any]) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _dump_body(state: State[Any]) -> str:
    return json.dumps(state.to_json()["body"], sort_keys=True)


# ---------------------------------------------------------------- bad input: apply_action refuses cleanly
_JUNK: tuple[Any, ...] = (
    None,
    True,
    3.5,
    -1,
    10**30,
    "",
    "not a move",
    "\u00b2",
    "9" * 5000,
    [],
    [0],
    {},
    {"type": []},
    {"type": {"a": 1}},
    {"type": None},
    {"type": "no_such_action"},
    {"kind": 1},
)


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = {"type": value}
    return value


def _field_junk(rng: Rng) -> Any:
    return rng.choice([10**30, -(10**30), -1, 2**63, 1.5, True, None, "x", [1, 2], {"a": 1}, [], "", [[]]])


def bad_inputs(state: State[Any], rng: Rng) -> list[Any]:
    """Return malformed or foreign inputs for ``state.apply_action`` (none of them a legal action).

    The list holds: a :class:`~meeple.core.state.HiddenAction`; an action of every other registered game (and its
    JSON form); non-action values of every JSON type; wrong ``type`` values; codes out of range; a
    deeply nested object; and each legal action's JSON with one field replaced by a value of the wrong type or out
    of range, or with a field missing or added.

    Args:
        state: a non-terminal state (the JSON of its first legal actions is altered into bad inputs).
        rng: the source of the replacement values.
    """
    game = state.game
    out: list[Any] = [*_JUNK, HiddenAction("pick a character"), game.info.num_distinct_actions, _nested(5000)]
    for foreign in _foreign_actions(game.name):
        out += [foreign, foreign.to_json()]
    for action in state.legal_actions()[:4]:
        wire = action.to_json()
        fields = [k for k in wire if k != "type"]
        for key in fields:
            out.append({**wire, key: _field_junk(rng)})
        if fields:
            out.append({k: v for k, v in wire.items() if k != fields[0]})
        out.append({**wire, "extra_field": 1})
    return out


_FOREIGN: dict[str, list[Action]] = {}


def _foreign_actions(name: str) -> list[Action]:
    """Return one action of every other registered game, cached."""
    names = sorted(set(registered_games()) - {name})
    key = ",".join(names)
    if key not in _FOREIGN:
        found: list[Action] = []
        for other in names:
            try:
                found.append(load_game(other).codec.all_actions[-1])
            except MeepleError:
                continue
        _FOREIGN[key] = found
    return _FOREIGN[key]


def refusal_problem(state: State[Any], value: Any, before: str | None = None) -> str | None:
    """Return what is wrong with how ``state.apply_action(value)`` handled a bad input, or None if it was right.

    Right means: a legal action is applied (checked on a clone, the original untouched); anything else raises a
    :class:`~meeple.core.errors.MeepleError` with a non-empty message and leaves the state byte-identical (its
    ``to_json()`` is unchanged) — never ``TypeError``, ``IndexError`` or any other exception.

    Args:
        state: the position (left untouched: the input is tried on a clone).
        value: the input.
        before: ``json.dumps(state.to_json(), sort_keys=True)`` if the caller has it already.
    """
    if before is None:
        before = _dump(state)
    legal = state.legal_actions()
    target = state.clone()
    try:
        target.apply_action(value)
    except MeepleError as exc:
        if not str(exc):
            return f"apply_action({short_repr(value)}) raised {type(exc).__name__} with no message"
        if _dump(target) != before:
            return f"a refused apply_action({short_repr(value)}) changed the state"
        return None
    except Exception as exc:  # noqa: BLE001 - any other exception breaks the contract
        return f"apply_action({short_repr(value)}) raised {type(exc).__name__}: {exc!r}"[:400]
    applied = target.history[-1][1] if target.history else None
    if applied not in legal:
        return f"apply_action({short_repr(value)}) applied an action that is not legal: {applied!r}"
    return None


# ---------------------------------------------------------------- tampered snapshots: restore refuses cleanly
def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Return the paths of every value below ``data`` (containers included, the root excluded)."""
    out: list[tuple[Any, ...]] = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        out.append((*path, key))
        out.extend(_leaves(value, (*path, key)))
    return out


def _replace(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(data))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


def _other_value(value: Any, rng: Rng) -> Any:
    """Return a value that differs from ``value`` in type or in value."""
    if isinstance(value, bool):
        return rng.choice([not value, int(value), str(value).lower()])
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value - 1, 999, 10**12, str(value), float(value), [value], None])
    if isinstance(value, str):
        return rng.choice([value + "x", "", 0, None, [value]])
    if isinstance(value, list):
        if value:
            i = rng.randrange(len(value))
            return rng.choice([[*value, value[i]], value[:i] + value[i + 1 :], {"0": value[0]}, value[::-1] + [0]])
        return rng.choice([[0], [-1], {}, None])
    if isinstance(value, dict):
        if value:
            return {k: v for k, v in list(value.items())[1:]}
        return []
    return 0


def tampered_snapshots(
    data: dict[str, Any], rng: Rng, earlier: Sequence[dict[str, Any]] = (), count: int = 3
) -> list[dict[str, Any]]:
    """Return ``count`` altered copies of the snapshot ``data`` (and one per earlier snapshot).

    Each alteration changes one place: a value of another type or another value, an item duplicated, dropped or
    moved in a list, a key dropped; and, for each snapshot of ``earlier``, ``data`` with that snapshot's body (the
    body of one step with the history of another). An alteration that happens to change nothing is drawn again.
    """
    paths = _leaves(data)
    out: list[dict[str, Any]] = []
    for _ in range(20 * count):
        if len(out) >= count or not paths:
            break
        path = paths[rng.randrange(len(paths))]
        node: Any = data
        for key in path:
            node = node[key]
        changed = _replace(data, path, _other_value(node, rng))
        if changed != data:
            out.append(changed)
    for old in earlier:
        if old["body"] != data["body"]:
            out.append({**json.loads(json.dumps(data)), "body": json.loads(json.dumps(old["body"]))})
    return out


def restore_problem(game: Game[Any], tampered: dict[str, Any], original: dict[str, Any]) -> str | None:
    """Return what is wrong with how ``game.state_from_json`` handled a tampered snapshot, or None if it was right.

    Right means: :class:`~meeple.core.errors.InvalidStateError` (with a message), or — only when the original's
    history holds ``HiddenAction`` placeholders and so cannot be replayed — a state that answers the contract and
    plays a few random steps without any exception other than a :class:`~meeple.core.errors.MeepleError`.
    """
    try:
        state = game.state_from_json(tampered)
    except InvalidStateError as exc:
        return None if str(exc) else "state_from_json raised InvalidStateError with no message"
    except Exception as exc:  # noqa: BLE001 - any other exception breaks the contract
        return f"state_from_json of a tampered snapshot raised {type(exc).__name__}: {exc!r}"[:400]
    replayable = not any(a.get("type") == HiddenAction.type_name for _, a in original["history"])
    if replayable:
        return f"a tampered snapshot was accepted: {short_repr(_diff(tampered, original))}"
    rng = Rng(len(json.dumps(tampered)))
    try:
        for _ in range(5):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            state.observation(None)
    except MeepleError:
        return None
    except Exception as exc:  # noqa: BLE001 - a loaded state must not crash later
        return f"a tampered resampled snapshot loaded and then crashed: {type(exc).__name__}: {exc!r}"[:400]
    return None


def _diff(a: Any, b: Any) -> str:
    return first_difference(a, b) or "(no difference)"


class _Checker:
    def __init__(self, name: str, params: Mapping[str, Any], players: int, seed: int, check_every: int) -> None:
        self.name = name
        self.game = load_game(name, players=players, **params)
        self.seed = seed
        self.check_every = max(1, check_every)
        self.rng = Rng(seed * 7919 + players)
        self.step = 0

    def fail(self, what: str) -> NoReturn:
        raise ConformanceError(
            f"{self.name} (players={self.game.num_players}, params={dict(self.game.params_dict())}, "
            f"seed={self.seed}) at step {self.step}: {what}"
        )

    def run(self) -> int:
        state = self.game.new_initial_state(self.seed)
        if _dump(state) != _dump(self.game.new_initial_state(self.seed)):
            self.fail("two initial states with the same seed differ")
        self.start = _dump_body(state)
        self.start_varies = any(_dump_body(self.game.new_initial_state(self.seed + k)) != self.start for k in (1, 2, 3))
        self.snapshots: list[dict[str, Any]] = []
        limit = self.game.info.max_game_length
        while not state.is_terminal():
            if self.step >= limit:
                self.fail(f"the game did not end within max_game_length={limit} decisions")
            deep = self.step % self.check_every == 0
            self.check_decision(state, deep)
            legal = state.legal_actions()
            state.apply_action(legal[self.rng.randrange(len(legal))])
            self.step += 1
        self.check_terminal(state)
        return self.step

    def check_decision(self, state: State[Any], deep: bool) -> None:
        n = self.game.num_players
        player = state.current_player()
        if not 0 <= player < n:
            self.fail(f"current_player() is {player} in a non-terminal state")
        legal = state.legal_actions()
        if not legal:
            self.fail("no legal action in a non-terminal state")
        if state.legal_actions() != legal:
            self.fail("legal_actions() is not deterministic")
        if len(set(legal)) != len(legal):
            self.fail("legal_actions() has duplicates")
        for seat in range(n):
            if seat != player and state.legal_actions(seat):
                self.fail(f"legal_actions({seat}) is not empty although seat {player} is to move")
        self.check_codecs(state, legal)
        if deep:
            self.check_observations(state)
            self.check_no_leak(state, player)
            self.check_clone(state, legal)
            self.check_json(state, legal)
            self.check_errors(state, legal, player)
            if self.step % (4 * self.check_every) == 0:
                self.check_bad_inputs(state)
                self.check_snapshots(state, player)

    def check_codecs(self, state: State[Any], legal: list[Any]) -> None:
        texts = [state.action_to_string(a) for a in legal]
        if len(set(t.lower() for t in texts)) != len(texts):
            self.fail(f"two legal actions share a text: {texts}")
        for a, text in zip(legal, texts, strict=True):
            wire = json.loads(json.dumps(a.to_json()))
            if self.game.action_from_json(wire) != a:
                self.fail(f"JSON round trip of {a!r} gives {self.game.action_from_json(wire)!r}")
            if self.game.action_from_code(self.game.action_code(a)) != a:
                self.fail(f"integer-code round trip of {a!r} fails")
            if state.string_to_action(text) != a:
                self.fail(f"text round trip of {text!r} fails")

    def check_observations(self, state: State[Any]) -> None:
        for seat in [*range(self.game.num_players), None]:
            obs = state.observation(seat)
            try:
                json.dumps(obs)
            except (TypeError, ValueError) as exc:
                self.fail(f"observation({seat}) is not JSON-able: {exc}")
            if seat is not None and self.tensor_size is not None:
                values = state.observation_tensor_values(seat)
                if len(values) != self.tensor_size:
                    self.fail(f"observation_tensor({seat}) has {len(values)} values, not {self.tensor_size}")
                if not all(math.isfinite(v) for v in values):
                    self.fail(f"observation_tensor({seat}) holds a value that is not finite")
                if values != state.encoded_observation_values(seat):
                    self.fail(f"observation_tensor({seat}) differs from the encoding of observation({seat})")

    @property
    def tensor_size(self) -> int | None:
        """The game's observation tensor length, or None when it has no tensor."""
        try:
            return self.game.observation_tensor_size()
        except NotImplementedError:
            return None

    def check_no_leak(self, state: State[Any], player: int) -> None:
        before = _dump(state)
        obs = state.observation(player)
        info = state.information_state_string(player)
        key = state.observation_key(player)
        shown = state.shown_key(player)
        legal = state.legal_actions()
        for k in range(2):
            other = state.resample_from_infostate(player, Rng(self.seed * 31 + self.step * 2 + k))
            if _dump(state) != before:
                self.fail("resample_from_infostate modified the original state")
            self.check_world_secrets(state, other)
            if other.observation(player) != obs:
                self.fail(f"resample_from_infostate({player}) changed that player's observation")
            if other.information_state_string(player) != info:
                self.fail(f"resample_from_infostate({player}) changed that player's information state")
            if other.legal_actions() != legal:
                self.fail(f"resample_from_infostate({player}) changed that player's legal actions")
            if other.observation_key(player) != key:
                self.fail(f"resample_from_infostate({player}) changed that player's observation_key (it leaks)")
            if other.shown_key(player) != shown:
                self.fail(f"resample_from_infostate({player}) changed that player's shown_key (it leaks)")
            if self.tensor_size is not None and other.observation_tensor_values(
                player
            ) != state.observation_tensor_values(player):
                self.fail(f"resample_from_infostate({player}) changed that player's observation_tensor (it leaks)")
            _dump(other)
            rng_seed = self.seed * 41 + self.step
            if _dump(state.resample_from_infostate(player, Rng(rng_seed))) != _dump(
                other.resample_from_infostate(player, Rng(rng_seed))
            ):
                self.fail(
                    f"resample_from_infostate({player}) with the same generator gives different states from two "
                    "states that player cannot tell apart (it reads hidden parts: shuffle a canonical order)"
                )
            self.play_on(other, steps=3)
            if _dump(state) != before:
                self.fail("playing on a resampled state changed the original (a shared mutable field)")
        for seat in range(self.game.num_players):
            if seat == player:
                continue
            other = state.resample_from_infostate(seat, Rng(self.seed * 37 + self.step * 5 + seat))
            if other.observation(seat) != state.observation(seat):
                self.fail(f"resample_from_infostate({seat}) changed the observation of seat {seat} (not to move)")
            if other.information_state_string(seat) != state.information_state_string(seat):
                self.fail(f"resample_from_infostate({seat}) changed the information state of seat {seat}")
            if other.observation_key(seat) != state.observation_key(seat):
                self.fail(f"resample_from_infostate({seat}) changed the observation_key of seat {seat} (it leaks)")

    def check_world_secrets(self, state: State[Any], world: State[Any]) -> None:
        """A resampled world must not carry the real game's seed or generator, nor rebuild its start."""
        if world.seed == state.seed:
            self.fail("resample_from_infostate kept the real seed: new_initial_state(seed) rebuilds the deal")
        if world.rng.to_json() == state.rng.to_json():
            self.fail("resample_from_infostate kept the real random generator (it predicts the next shuffle)")
        if self.start_varies and _dump_body(self.game.new_initial_state(world.seed)) == self.start:
            self.fail("new_initial_state(world.seed) rebuilds the real game's start from a resampled world")

    def play_on(self, state: State[Any], steps: int) -> None:
        """Play a few random actions on a resampled state: it must be a consistent, playable position."""
        for _ in range(steps):
            if state.is_terminal():
                return
            legal = state.legal_actions()
            if not legal:
                self.fail("a resampled state has no legal action")
            try:
                state.apply_action(legal[self.rng.randrange(len(legal))])
            except Exception as exc:  # noqa: BLE001 - report any crash as a contract failure
                self.fail(f"playing on a resampled state failed: {exc!r}")

    def check_clone(self, state: State[Any], legal: list[Any]) -> None:
        before = _dump(state)
        copy = state.clone()
        if _dump(copy) != before:
            self.fail("clone() differs from the original")
        copy.apply_action(legal[-1])
        if _dump(state) != before:
            self.fail("applying an action to a clone changed the original")
        again = state.clone()
        again.apply_action(legal[-1])
        if _dump(again) != _dump(copy):
            self.fail("two clones given the same action diverge (the RNG is not cloned exactly)")

    def check_json(self, state: State[Any], legal: list[Any]) -> None:
        data = json.loads(json.dumps(state.to_json()))
        restored = self.game.state_from_json(data)
        if _dump(restored) != _dump(state):
            self.fail("state_from_json(to_json()) differs from the original")
        if restored.legal_actions() != legal:
            self.fail("the restored state has other legal actions")
        for seat in [*range(self.game.num_players), None]:
            if restored.observation(seat) != state.observation(seat):
                self.fail(f"the restored state shows seat {seat} another observation")
        copy = state.clone()
        copy.apply_action(legal[0])
        restored.apply_action(legal[0])
        if _dump(restored) != _dump(copy):
            self.fail("the restored state and the original diverge after the same action")

    def check_errors(self, state: State[Any], legal: list[Any], player: int) -> None:
        before = _dump(state)
        legal_set = set(legal)
        illegal = next((a for a in self.game.codec.all_actions if a not in legal_set), None)
        if illegal is not None:
            try:
                state.apply_action(illegal)
            except IllegalActionError:
                pass
            else:
                self.fail(f"the illegal action {illegal!r} was accepted")
            if _dump(state) != before:
                self.fail("a rejected illegal action changed the state")
        if self.game.num_players > 1:
            other = (player + 1) % self.game.num_players
            try:
                state.apply_action(legal[0], player=other)
            except NotYourTurnError:
                pass
            else:
                self.fail(f"seat {other} was allowed to play on seat {player}'s turn")
            if _dump(state) != before:
                self.fail("a rejected out-of-turn action changed the state")

    def check_bad_inputs(self, state: State[Any]) -> None:
        before = _dump(state)
        for value in bad_inputs(state, self.rng):
            problem = refusal_problem(state, value, before)
            if problem is not None:
                self.fail(problem)
        if _dump(state) != before:
            self.fail("trying bad inputs on clones changed the original state")

    def check_snapshots(self, state: State[Any], player: int) -> None:
        """Tampered snapshots of this state, and of a resampled copy of it, are refused or harmless."""
        data = json.loads(json.dumps(state.to_json()))
        world = state.resample_from_infostate(player, Rng(self.seed * 43 + self.step))
        for source, earlier in ((data, self.snapshots), (json.loads(json.dumps(world.to_json())), [])):
            for tampered in tampered_snapshots(source, self.rng, earlier, count=3):
                problem = restore_problem(self.game, tampered, source)
                if problem is not None:
                    self.fail(problem)
        self.snapshots = [*self.snapshots[-2:], data]

    def check_terminal(self, state: State[Any]) -> None:
        n = self.game.num_players
        if state.current_player() != TERMINAL:
            self.fail(f"current_player() is {state.current_player()} at the end, not TERMINAL")
        if state.legal_actions():
            self.fail("legal actions remain after the end")
        returns = state.returns()
        if len(returns) != n or len(state.scores()) != n:
            self.fail("returns() or scores() does not have one entry per seat")
        lo, hi = self.game.info.min_utility, self.game.info.max_utility
        if not all(lo <= r <= hi for r in returns):
            self.fail(f"returns {returns} outside [{lo}, {hi}]")
        try:
            state.apply_action(self.game.codec.all_actions[0])
        except IllegalActionError:
            pass
        else:
            self.fail("an action was accepted after the end")
        self.check_observations(state)
        replayed = replay(self.name, self.game.params_dict(), self.seed, [a.to_json() for _, a in state.history])
        if _dump(replayed) != _dump(state):
            self.fail("replay(name, params, seed, actions) does not rebuild the final state")
        self.check_terminal_json(state)

    def check_terminal_json(self, state: State[Any]) -> None:
        """A finished game's snapshot restores to the same finished game; tampered copies of it are refused."""
        data = json.loads(json.dumps(state.to_json()))
        try:
            restored = self.game.state_from_json(data)
        except InvalidStateError as exc:
            self.fail(f"state_from_json(to_json()) refuses the final state: {exc}")
        if _dump(restored) != _dump(state):
            self.fail("state_from_json(to_json()) of the final state differs from the original")
        if not restored.is_terminal() or restored.legal_actions():
            self.fail("the restored final state is not over")
        if restored.returns() != state.returns() or restored.scores() != state.scores():
            self.fail("the restored final state has other returns or scores")
        for seat in [*range(self.game.num_players), None]:
            if restored.observation(seat) != state.observation(seat):
                self.fail(f"the restored final state shows seat {seat} another observation")
        for tampered in tampered_snapshots(data, self.rng, self.snapshots[-1:], count=3):
            problem = restore_problem(self.game, tampered, data)
            if problem is not None:
                self.fail(f"final state: {problem}")


def random_position(game: Game[Any], seed: int, steps: int) -> State[Any]:
    """Return the state after ``steps`` seeded random decisions from ``game.new_initial_state(seed)`` (or the end).

    The move at each step is drawn by ``Rng(seed)`` among the legal actions: the same arguments give the same state.
    """
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def check_game(
    game_name: str,
    seeds: Iterable[int] = range(3),
    player_counts: Iterable[int] | None = None,
    params: Mapping[str, Any] | None = None,
    check_every: int = 1,
) -> ConformanceReport:
    """Play random games of ``game_name`` and check the core contract at every decision.

    Args:
        game_name: a registered game.
        seeds: the seeds to play (one game per seed and player count).
        player_counts: the player counts (default: every supported count).
        params: extra parameters (variant flags) for every game.
        check_every: run the costly checks (clone, JSON, resample, errors) every this many decisions.

    Returns:
        A :class:`ConformanceReport` of what was run.

    Raises:
        ConformanceError: the first broken rule of the contract, with game, params, seed and step.
    """
    params = dict(params or {})
    params.pop("players", None)
    if player_counts is None:
        cls = game_class(game_name)
        player_counts = range(cls.min_players, cls.max_players + 1)
    counts = tuple(player_counts)
    report = ConformanceReport(player_counts=counts)
    for n in counts:
        for seed in seeds:
            report.decisions += _Checker(game_name, params, n, seed, check_every).run()
            report.games += 1
    return report
