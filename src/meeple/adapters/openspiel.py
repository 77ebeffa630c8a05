"""meeple's games as OpenSpiel Python games: ``pyspiel.load_game("meeple_citadels(players=4)")``.

Importing this module registers ``meeple_citadels``, ``meeple_capitol``, ``meeple_capital_lux_2`` and
``meeple_caprice`` with pyspiel. Every variant flag of a game is a game parameter (a tuple flag such as
``agent_modifiers`` is written ``"4;2;-1;-3"``: a game string holds no ``,`` or ``=`` in a value).

- **Chance: explicit chance nodes, the deal.** A game starts with ``DEAL_DIGITS`` = 3 chance nodes of ``DEAL_BASE`` =
  256 equally likely outcomes each: the digits (base 256) of the seed of meeple's generator, one of 16,777,216 deals;
  every later random event (reshuffles, Capitol's piles, ROB's draws, Caprice's bag) follows from it, as in meeple's
  own records. Three small chance nodes rather than one of 16.7 million outcomes: OpenSpiel lists a chance node's
  outcomes whenever it samples one (65,536 outcomes cost 0.1 s a game in ``rl_environment``). We would have used
  ``SAMPLED_STOCHASTIC`` (no chance node), but OpenSpiel serializes a sampled-stochastic game with its generator
  (``Game::GetRNGState``), which a Python game cannot provide, so such a game cannot pass ``random_sim_test`` with
  serialization; explicit chance nodes keep every OpenSpiel tool working (sampled chance in MCTS, ISMCTS,
  ``evaluate_bots``, ``rl_environment``).
- **Actions** are meeple's stable integer codes (``game.num_distinct_actions()``, docs/research.md); legal actions
  are given in ascending order, as OpenSpiel requires.
- **Observations**: the observation tensor and string of a seat (``observation_tensor``: its float32 fields;
  ``observation_string``: its observation as sorted JSON); the **information state string** is meeple's perfect-
  recall ``information_state_string``; no information state tensor (docs/research.md says why).
- **Serialization** (``pyspiel.serialize_game_and_state``, pickle) stores meeple's exact JSON snapshot of the state.
- ``resample_from_infostate(player, sampler)`` is meeple's, seeded from the sampler: OpenSpiel's ``ISMCTSBot`` runs.

Needs ``pip install 'meeple[openspiel]'``. Rules: issue "For researchers: tensors and action masks, OpenSpiel and
PettingZoo adapters"; OpenSpiel's ``python/games/liars_poker.py`` for the shape of a Python game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from meeple.core.game import Game
from meeple.core.registry import BUILTIN_GAMES, game_class, load_game
from meeple.core.rng import Rng
from meeple.core.state import State

PREFIX = "meeple_"
DEAL_BASE = 256
"""Outcomes of each of the deal's chance nodes."""
DEAL_DIGITS = 3
"""Chance nodes of the deal: the seed is their outcomes read as base-256 digits, most significant first."""
DEALS = DEAL_BASE**DEAL_DIGITS
"""Distinct deals (seeds 0 .. 16,777,215)."""


def deal_digits(seed: int) -> list[int]:
    """The chance outcomes that deal ``seed`` (``0 <= seed < DEALS``), most significant first."""
    return [(seed // DEAL_BASE**k) % DEAL_BASE for k in reversed(range(DEAL_DIGITS))]


def spiel_name(name: str) -> str:
    """The pyspiel short name of the meeple game ``name`` (``"citadels"`` -> ``"meeple_citadels"``)."""
    return PREFIX + name


_TO_SPIEL = str.maketrans({",": ";", "=": ":"})
_FROM_SPIEL = str.maketrans({";": ",", ":": "="})


def _parameter_defaults(name: str) -> dict[str, Any]:
    """The game's parameters as pyspiel defaults.

    A game string cannot hold ``,`` or ``=`` inside a value, so a tuple is written with ``;`` (``"4;2;-1;-3"``)
    and a string's ``,`` and ``=`` become ``;`` and ``:`` (``"left:5/1/2;right:5/1/2;top:4/2/0"``).
    """
    spec: dict[str, Any] = {}
    for p in game_class(name).describe_params():
        default = p.default
        if isinstance(default, tuple):
            default = ",".join(str(v) for v in default)
        spec[p.name] = default.translate(_TO_SPIEL) if isinstance(default, str) else default
    return spec


def _meeple_params(values: Mapping[str, Any]) -> dict[str, Any]:
    """Pyspiel parameter values -> meeple's (``;`` and ``:`` back to ``,`` and ``=``)."""
    return {k: v.translate(_FROM_SPIEL) if isinstance(v, str) else v for k, v in values.items()}


def _game_type(name: str) -> Any:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"meeple {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_defaults(name),
    )


_GAMES: dict[str, Game[Any]] = {}
"""Unpickled states share one meeple game per (name, parameters)."""


def _meeple_game(name: str, params: Mapping[str, Any]) -> Game[Any]:
    key = json.dumps([name, dict(params)], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_game(name, **params)
    return game


class _Holder:
    """The meeple state behind an OpenSpiel state (None before the deal), copied with ``clone`` and pickled as JSON.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by pickling them: this holder
    makes the first meeple's exact ``clone()`` and the second meeple's exact JSON snapshot.
    """

    __slots__ = ("digits", "game", "state")

    def __init__(self, game: Game[Any], state: State[Any] | None, digits: tuple[int, ...] = ()) -> None:
        self.game = game
        self.state = state
        self.digits = digits

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.game, None if self.state is None else self.state.clone(), self.digits)

    def __getstate__(self) -> dict[str, Any]:
        snapshot = None if self.state is None else self.state.to_json()
        return {"name": self.game.name, "params": self.game.params_dict(), "state": snapshot, "digits": self.digits}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.game = _meeple_game(data["name"], data["params"])
        self.state = None if data["state"] is None else self.game.state_from_json(data["state"])
        self.digits = tuple(data["digits"])


class MeepleSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One meeple game with fixed parameters, seen by OpenSpiel.

    Attributes:
        meeple: the meeple :class:`~meeple.core.game.Game` behind it.
    """

    meeple_name: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        values = {**_parameter_defaults(self.meeple_name), **dict(params or {})}
        self.meeple: Game[Any] = _meeple_game(self.meeple_name, _meeple_params(values))
        info = self.meeple.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=DEAL_BASE,
            num_players=info.num_players,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            max_game_length=info.max_game_length + DEAL_DIGITS,
        )
        super().__init__(_game_type(self.meeple_name), game_info, dict(params or {}))

    def new_initial_state(self) -> MeepleSpielState:
        """A new game at its first chance node: the deal."""
        return MeepleSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MeepleObserver:
        """The observer OpenSpiel asks for: a seat's observation, or its perfect-recall information state."""
        return MeepleObserver(self.meeple, iig_obs_type)


class MeepleSpielState(pyspiel.State):  # type: ignore[misc]
    """A meeple state seen by OpenSpiel; ``meeple`` is the :class:`~meeple.core.state.State` (None before the deal)."""

    def __init__(self, game: MeepleSpielGame, state: State[Any] | None = None) -> None:
        super().__init__(game)
        self._holder = _Holder(game.meeple, state)

    @property
    def meeple(self) -> State[Any] | None:
        """The meeple state, None while the deal is pending."""
        return self._holder.state

    def _dealt(self) -> State[Any]:
        state = self._holder.state
        if state is None:
            raise ValueError("the deal (the chance node) has not been made yet")
        return state

    def current_player(self) -> int:
        """The seat to move, ``pyspiel.PlayerId.CHANCE`` before the deal, ``TERMINAL`` at the end."""
        state = self._holder.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next digit of the deal: ``DEAL_BASE`` equally likely outcomes."""
        p = 1.0 / DEAL_BASE
        return [(digit, p) for digit in range(DEAL_BASE)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._dealt().legal_action_codes()) if player == self.current_player() else []

    def _apply_action(self, action: int) -> None:
        holder = self._holder
        if holder.state is not None:
            holder.state.apply_action(int(action))
            return
        holder.digits = (*holder.digits, int(action))
        if len(holder.digits) == DEAL_DIGITS:
            seed = 0
            for digit in holder.digits:
                seed = seed * DEAL_BASE + digit
            holder.state = holder.game.new_initial_state(seed)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal digit {action}"
        state = self._dealt()
        return state.action_to_string(state.game.codec.decode(int(action)))

    def is_terminal(self) -> bool:
        """The game is over."""
        state = self._holder.state
        return state is not None and state.is_terminal()

    def returns(self) -> list[float]:
        """Each seat's return (meeple's ``returns()``; zeros before the end)."""
        if self.is_terminal():
            return list(self._dealt().returns())
        return [0.0] * self._holder.game.num_players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeepleSpielState:
        """A state ``player_id`` cannot tell from this one, re-dealt from a seed the sampler draws (ISMCTS)."""
        state = self._holder.state
        if state is None:
            same: MeepleSpielState = self.clone()
            return same
        seed = int(probability_sampler() * (1 << 53))
        world = state.resample_from_infostate(player_id, Rng(seed))
        return MeepleSpielState(self.get_game(), world)

    def __str__(self) -> str:
        state = self._holder.state
        if state is None:
            return f"deal digits {list(self._holder.digits)}"
        encode = state.game.codec.encode
        codes = [encode(action) for _actor, action in state.history]
        return f"seed={state.seed} history={codes}"


class MeepleObserver:
    """OpenSpiel's observer of a meeple game: a seat's observation tensor and string, or its information state.

    Args:
        game: the meeple game.
        iig_obs_type: pyspiel's ``IIGObservationType``; ``perfect_recall=True`` is the information state (string
            only); otherwise the seat's observation. Only the seat's own private information is supported.

    Raises:
        ValueError: an observation of every seat's private information was asked for (no seat may see it).
    """

    def __init__(self, game: Game[Any], iig_obs_type: Any = None) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("meeple observers show one seat's private information, never every seat's")
        self.tensor: Any = None if self.perfect_recall else np.zeros(game.observation_tensor_size(), np.float32)
        self.dict = {} if self.perfect_recall else {"observation": self.tensor}

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        """Write ``player``'s observation tensor of ``state`` into ``self.tensor`` (zeros before the deal)."""
        if self.tensor is None:
            return
        if state.meeple is None:
            self.tensor[:] = 0.0
        else:
            self.tensor[:] = state.meeple.observation_tensor_values(player)

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        """``player``'s information state string (perfect recall) or observation as sorted JSON."""
        if state.meeple is None:
            return ""
        if self.perfect_recall:
            return state.meeple.information_state_string(player)
        return json.dumps(state.meeple.observation(player), sort_keys=True, separators=(",", ":"))


class FreshSearch(pyspiel.Bot):  # type: ignore[misc]
    """A bot that searches from scratch at every move, usable by ``evaluate_bots``.

    OpenSpiel's Python ``MCTSBot`` and ``ISMCTSBot`` keep no tree between moves but do not implement ``restart_at``,
    which ``evaluate_bots`` calls first: this wrapper adds it (and ``inform_action``) as no-ops.

    Args:
        bot: the wrapped bot; only its ``step(state)`` is called.
    """

    def __init__(self, bot: Any) -> None:
        super().__init__()
        self.bot = bot

    def step(self, state: Any) -> int:
        """The wrapped bot's move."""
        return int(self.bot.step(state))

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: the wrapped bot keeps no tree between moves."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to update (see :meth:`restart_at`)."""


def _register(name: str) -> type[MeepleSpielGame]:
    cls = type(f"Meeple_{name}", (MeepleSpielGame,), {"meeple_name": name})
    pyspiel.register_game(_game_type(name), cls)
    return cls


GAME_CLASSES: dict[str, type[MeepleSpielGame]] = {name: _register(name) for name in sorted(BUILTIN_GAMES)}
"""meeple name -> the registered pyspiel game class."""
