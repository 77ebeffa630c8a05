"""Trained policies as small numpy files: a multi-layer perceptron's weights, played without PyTorch.

A checkpoint (``.npz``, written by ``examples/ppo.py --export``, format ``meeple-policy/1``) holds:

- ``meta``: a JSON text: ``format``, ``game``, ``params`` (every game parameter, ``players`` included),
  ``observation_size`` and ``num_actions`` (the game's ``observation_tensor_size()`` and ``num_distinct_actions()``
  for those parameters), ``activation`` (``"tanh"`` or ``"relu"``), and ``training`` (free-form: the algorithm,
  its budget, opponents, reward, seed, library versions);
- ``w0``, ``b0``, ``w1``, ``b1``, ...: float32 weights ``(inputs, outputs)`` and biases ``(outputs,)`` of each layer,
  the activation between layers and none after the last, whose outputs are one logit per action code.

The policy plays greedily: the legal action (mask 1) of highest logit, the lowest code on a tie, exactly as the
network was evaluated after training (``MaskablePPO.predict(..., deterministic=True)``). It reads the seat's
observation tensor only (``policy(observation, mask)``, :mod:`meeple.bots.policy`), so it sees what the seat sees.
:meth:`CheckpointPolicy.act` takes a batch (``(B, size)`` observations, ``(B, actions)`` masks).

Needs numpy (``pip install 'meeple[rl]'``); never PyTorch. Rules: issue "For researchers, round three" (baselines
with checkpoints loadable without torch); docs/baselines.md.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import load_game
from meeple.i18n.message import M

FORMAT = "meeple-policy/1"
"""The ``format`` of the checkpoints this module reads and writes."""
ACTIVATIONS = ("tanh", "relu")
"""The hidden layers' activations a checkpoint may name."""
MAX_LAYERS = 16
"""The most layers a checkpoint may hold."""


def _numpy() -> Any:
    try:
        import numpy as np
    except ImportError as exc:  # pragma: no cover - numpy is installed with the rl extra and the tests
        raise ImportError("a policy checkpoint needs numpy: pip install 'meeple[rl]'") from exc
    return np


def _refuse(path: str | Path, why: str) -> InvalidParameterError:
    return InvalidParameterError(M("{path} is not a meeple policy checkpoint: {why}", path=str(path), why=why))


class CheckpointPolicy:
    """A greedy policy from a checkpoint's weights (see the module docstring).

    Attributes:
        game: the game's name.
        params: every game parameter the policy was trained with (``players`` included).
        meta: the checkpoint's whole ``meta`` record.
        weights: the layers as ``(w, b)`` float32 pairs.
        name: a label for reports (the file's stem).
    """

    def __init__(self, meta: dict[str, Any], weights: list[tuple[Any, Any]], name: str = "checkpoint") -> None:
        self.meta = meta
        self.game: str = meta["game"]
        self.params: dict[str, Any] = dict(meta["params"])
        self.weights = weights
        self.name = name
        self.__name__ = name  # the label as_bot and reports give a function
        self._activation = meta["activation"]

    def check_game(self, game: Game[Any]) -> None:
        """Refuse a game this policy cannot play: another game, or tensors of other shapes (another player count).

        Raises:
            InvalidParameterError: the message names what the policy was trained for.
        """
        trained = (self.meta["observation_size"], self.meta["num_actions"])
        if game.name != self.game or (game.observation_tensor_size(), game.num_distinct_actions()) != trained:
            raise InvalidParameterError(
                M(
                    "the policy {name} was trained for {game} {params}; it cannot play {other} {other_params}",
                    name=self.name,
                    game=self.game,
                    params=self.params,
                    other=game.name,
                    other_params=game.params_dict(),
                )
            )

    def logits(self, observations: Any) -> Any:
        """The network's outputs: float32 ``(B, num_actions)`` for observations ``(B, observation_size)``."""
        np = _numpy()
        x = np.asarray(observations, np.float32)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            x = x @ w + b
            if i < last:
                x = np.tanh(x) if self._activation == "tanh" else np.maximum(x, 0.0)
        return x

    def act(self, observations: Any, masks: Any) -> Any:
        """The greedy legal codes: int64 ``(B,)`` for observations ``(B, size)`` and int8 masks ``(B, actions)``.

        Raises:
            InvalidParameterError: a row of ``masks`` allows no action.
        """
        np = _numpy()
        legal = np.asarray(masks) != 0
        size, actions = self.meta["observation_size"], self.meta["num_actions"]
        if np.shape(observations)[-1] != size or legal.shape[-1] != actions:
            raise InvalidParameterError(
                M(
                    "the policy {name} reads {size} observation values and {actions} actions, not {got} and {more}",
                    name=self.name,
                    size=size,
                    actions=actions,
                    got=np.shape(observations)[-1],
                    more=legal.shape[-1],
                )
            )
        if not legal.any(axis=1).all():
            raise InvalidParameterError(M("a mask allows no action: the policy has nothing to choose"))
        scores = np.where(legal, self.logits(observations), -np.inf)
        return scores.argmax(axis=1)

    def __call__(self, observation: Any, mask: Any) -> int:
        """The greedy legal code for one seat's observation tensor and mask (``policy(observation, mask)``)."""
        np = _numpy()
        return int(self.act(np.asarray(observation)[None, :], np.asarray(mask)[None, :])[0])


def save_checkpoint(
    path: str | Path,
    game: str,
    params: dict[str, Any],
    weights: list[tuple[Any, Any]],
    activation: str = "tanh",
    training: dict[str, Any] | None = None,
) -> Path:
    """Write a checkpoint (compressed ``.npz``) of a perceptron's ``weights`` for ``game`` with ``params``.

    Raises:
        InvalidParameterError: a bad activation, or layer shapes that do not chain from the game's observation size
            to its number of actions.
    """
    np = _numpy()
    loaded = load_game(game, **params)
    meta = {
        "format": FORMAT,
        "game": loaded.name,
        "params": loaded.params_dict(),
        "observation_size": loaded.observation_tensor_size(),
        "num_actions": loaded.num_distinct_actions(),
        "activation": activation,
        "training": training or {},
    }
    arrays = {
        f"{kind}{i}": np.asarray(a, np.float32) for i, (w, b) in enumerate(weights) for kind, a in (("w", w), ("b", b))
    }
    _check(path, meta, [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(len(weights))])
    target = Path(path)
    with target.open("wb") as out:
        np.savez_compressed(out, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    return target


def _check(path: str | Path, meta: dict[str, Any], weights: list[tuple[Any, Any]]) -> None:
    if meta.get("format") != FORMAT:
        raise _refuse(path, f"its format is {meta.get('format')!r}, not {FORMAT!r}")
    if meta.get("activation") not in ACTIVATIONS:
        raise _refuse(path, f"activation must be one of {', '.join(ACTIVATIONS)}, not {meta.get('activation')!r}")
    if not 1 <= len(weights) <= MAX_LAYERS:
        raise _refuse(path, f"it holds {len(weights)} layers (1 to {MAX_LAYERS} allowed)")
    size = int(meta["observation_size"])
    for i, (w, b) in enumerate(weights):
        if w.ndim != 2 or w.shape[0] != size or b.shape != (w.shape[1],):
            raise _refuse(path, f"layer {i} has weights {w.shape} and biases {b.shape}; its inputs are {size}")
        size = w.shape[1]
    if size != int(meta["num_actions"]):
        raise _refuse(path, f"its last layer gives {size} outputs, not one per action ({meta['num_actions']})")


def load_checkpoint(path: str | Path) -> CheckpointPolicy:
    """Read a checkpoint and return its greedy policy (numpy only).

    The game's parameters are loaded and checked: the game's observation size and number of actions must be the
    checkpoint's (a policy trained for other parameters or another version of the tensors is refused).

    Raises:
        InvalidParameterError: the file is missing or not a checkpoint, its layers do not chain, or the game's
            tensors no longer have the shapes it was trained on (the message says which).
    """
    np = _numpy()
    target = Path(path)
    if not target.is_file():
        raise InvalidParameterError(M("no policy checkpoint at {path}", path=str(path)))
    try:
        with np.load(target, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            count = sum(1 for key in data.files if key.startswith("w"))
            weights = [(data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(count)]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise _refuse(path, str(exc)) from None
    if not isinstance(meta, dict):
        raise _refuse(path, "its meta is not a JSON object")
    _check(path, meta, weights)
    game = load_game(meta["game"], **meta["params"])
    if (game.observation_tensor_size(), game.num_distinct_actions()) != (meta["observation_size"], meta["num_actions"]):
        raise _refuse(
            path,
            f"{game.name} now has {game.observation_tensor_size()} observation values and "
            f"{game.num_distinct_actions()} actions; the policy was trained on {meta['observation_size']} and "
            f"{meta['num_actions']}",
        )
    return CheckpointPolicy(meta, weights, name=target.stem)
