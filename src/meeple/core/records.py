"""Game records and replay: a game is ``(game, params, seed, actions)``.

A record file is JSON Lines, one :class:`GameRecord` per line, so a long simulation can append as it goes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.core.action import Action
from meeple.core.errors import InvalidStateError, MeepleError
from meeple.core.registry import load_game
from meeple.core.state import State

RECORD_FORMAT = "meeple-record/1"


def replay(
    name: str,
    params: Mapping[str, Any],
    seed: int,
    actions: Iterable[Action | int | Mapping[str, Any]],
) -> State[Any]:
    """Rebuild the exact state reached by playing ``actions`` from the initial state of ``(name, params, seed)``.

    Args:
        name: registered game name.
        params: the game's parameters (as ``game.params_dict()`` gives them).
        seed: the seed of the initial state.
        actions: actions as :class:`Action` objects, integer codes or JSON dicts.

    Returns:
        The state after the last action.

    Raises:
        InvalidParameterError: unknown game or parameters.
        InvalidStateError: an action of the list cannot be decoded or is not legal; the message gives its index.
    """
    game = load_game(name, **params)
    state = game.new_initial_state(seed)
    for i, action in enumerate(actions):
        try:
            state.apply_action(action)
        except MeepleError as exc:
            raise InvalidStateError(f"replay of {name} failed at action {i}: {exc}") from exc
    return state


@dataclass
class GameRecord:
    """One game: what is needed to replay it, and its result.

    Attributes:
        game: registered game name.
        params: full parameters (``game.params_dict()``).
        seed: initial-state seed.
        actions: the actions in JSON form, in order.
        players: a label per seat (``"human"``, ``"heuristic"``...), or empty.
        returns: ``state.returns()`` at the end (empty if unfinished).
        scores: ``state.scores()`` at the end (empty if unfinished).
        meta: free JSON-able data (dates, tournament ids...).
    """

    game: str
    params: dict[str, Any]
    seed: int
    actions: list[dict[str, Any]]
    players: list[str] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State[Any], players: Sequence[str] = (), **meta: Any) -> GameRecord:
        """Return the record of a game played from its initial state (results filled in if it is over)."""
        done = state.is_terminal()
        return cls(
            game=state.game.name,
            params=state.game.params_dict(),
            seed=state.seed,
            actions=[a.to_json() for _, a in state.history],
            players=list(players),
            returns=list(state.returns()) if done else [],
            scores=list(state.scores()) if done else [],
            meta=dict(meta),
        )

    def replay(self, upto: int | None = None) -> State[Any]:
        """Return the state after the first ``upto`` actions (all by default). Raises like :func:`replay`."""
        return replay(self.game, self.params, self.seed, self.actions[:upto])

    def to_json(self) -> dict[str, Any]:
        """Return the record as a JSON-able dict."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "params": self.params,
            "seed": self.seed,
            "actions": self.actions,
            "players": self.players,
            "returns": self.returns,
            "scores": self.scores,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """Rebuild a record. Raises :class:`InvalidStateError` if ``data`` is not a meeple record."""
        if not isinstance(data, Mapping) or data.get("format") != RECORD_FORMAT:
            raise InvalidStateError(f"not a meeple game record (expected format {RECORD_FORMAT!r})")
        try:
            return cls(
                game=str(data["game"]),
                params=dict(data["params"]),
                seed=int(data["seed"]),
                actions=list(data["actions"]),
                players=list(data.get("players", [])),
                returns=list(data.get("returns", [])),
                scores=list(data.get("scores", [])),
                meta=dict(data.get("meta", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidStateError(f"malformed game record: {exc!r}") from exc


def write_records(path: str | Path, records: Iterable[GameRecord], append: bool = False) -> int:
    """Write records to a JSON Lines file; return how many were written."""
    n = 0
    with open(path, "a" if append else "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
            n += 1
    return n


def read_records(path: str | Path) -> Iterator[GameRecord]:
    """Yield the records of a JSON Lines file.

    Raises:
        FileNotFoundError: no such file.
        OSError: the path cannot be read (a directory, no permission).
        InvalidStateError: the file is not text, or a line is not a record (bad JSON, nested too deeply, not a
            record); the message gives the line number.
    """
    with open(path, encoding="utf-8") as f:
        lineno = 0
        try:
            for line in f:
                lineno += 1
                if not line.strip():
                    continue
                yield GameRecord.from_json(json.loads(line))
        except UnicodeDecodeError:
            raise InvalidStateError(f"{path}:{lineno + 1}: not a text file of game records (not UTF-8)") from None
        except RecursionError:
            raise InvalidStateError(f"{path}:{lineno}: not a game record (JSON nested too deeply)") from None
        except (json.JSONDecodeError, InvalidStateError) as exc:
            raise InvalidStateError(f"{path}:{lineno}: {exc}") from exc
