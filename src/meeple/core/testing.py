"""The conformance harness every game must pass: ``check_game(name, seeds=..., player_counts=...)``.

Users can import it to check a game of their own; the test suite runs it over every registered game.
Each failure raises :class:`ConformanceError` naming the game, players, seed, step and check.

Checks (architecture "Tests"): random play to the end within ``max_game_length``; deterministic legal actions;
clone independence; JSON and replay round trips; action codec round trips (JSON, integer code, text);
no leak (the observation, information state, legal actions and ``observation_key`` of the player to move are
unchanged by ``resample_from_infostate``; likewise the observation, information state and ``observation_key`` of
every other seat under its own resample; the same generator re-deals two states the player cannot tell apart into
the same state; a resampled state stays playable); illegal and out-of-turn actions raise and leave the state
unchanged; returns in range; observations are JSON-able for every seat and the spectator.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from meeple.core.errors import IllegalActionError, NotYourTurnError
from meeple.core.records import replay
from meeple.core.registry import game_class, load_game
from meeple.core.rng import Rng
from meeple.core.state import TERMINAL, State


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


class _Checker:
    def __init__(self, name: str, params: Mapping[str, Any], players: int, seed: int, check_every: int) -> None:
        self.name = name
        self.game = load_game(name, players=players, **params)
        self.seed = seed
        self.check_every = max(1, check_every)
        self.rng = Rng(seed * 7919 + players)
        self.step = 0

    def fail(self, what: str) -> None:
        raise ConformanceError(
            f"{self.name} (players={self.game.num_players}, params={dict(self.game.params_dict())}, "
            f"seed={self.seed}) at step {self.step}: {what}"
        )

    def run(self) -> int:
        state = self.game.new_initial_state(self.seed)
        if _dump(state) != _dump(self.game.new_initial_state(self.seed)):
            self.fail("two initial states with the same seed differ")
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

    def check_no_leak(self, state: State[Any], player: int) -> None:
        before = _dump(state)
        obs = state.observation(player)
        info = state.information_state_string(player)
        key = state.observation_key(player)
        legal = state.legal_actions()
        for k in range(2):
            other = state.resample_from_infostate(player, Rng(self.seed * 31 + self.step * 2 + k))
            if _dump(state) != before:
                self.fail("resample_from_infostate modified the original state")
            if other.observation(player) != obs:
                self.fail(f"resample_from_infostate({player}) changed that player's observation")
            if other.information_state_string(player) != info:
                self.fail(f"resample_from_infostate({player}) changed that player's information state")
            if other.legal_actions() != legal:
                self.fail(f"resample_from_infostate({player}) changed that player's legal actions")
            if other.observation_key(player) != key:
                self.fail(f"resample_from_infostate({player}) changed that player's observation_key (it leaks)")
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
