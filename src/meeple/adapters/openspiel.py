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

from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import BUILTIN_GAMES, game_class, game_spec, load_game
from meeple.core.rewards import check_reward, check_reward_scale, final_rewards, reward_range, utility
from meeple.core.rng import Rng
from meeple.core.state import SPECTATOR, HiddenAction, State

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
OFF = 0
"""The pyspiel value of ``"off"`` in a parameter whose other choices are numbers (Citadels' ``quick_game``)."""
REWARD_PARAM = "reward"
"""The adapter's own game parameter: the kind of final reward (:mod:`meeple.core.rewards`), default ``"win"``."""
SCALE_PARAM = "reward_scale"
"""The adapter's own game parameter: ``"raw"`` (default) or ``"unit"`` (every reward in [-1, 1])."""
OWN_PARAMS = (REWARD_PARAM, SCALE_PARAM)
"""The parameters of the adapter, not of the meeple game."""
UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
}
"""meeple's utility types (:func:`meeple.core.rewards.utility`) as pyspiel's."""


def _numeric_choices(choices: tuple[Any, ...] | None) -> bool:
    """True for a string parameter whose choices are ``"off"`` and numbers: pyspiel sees it as an int (0 = off)."""
    if not choices or not all(isinstance(c, str) for c in choices):
        return False
    numbers = [c for c in choices if c != "off"]
    return "off" in choices and bool(numbers) and all(c.isdigit() for c in numbers)


def _survives(text: str) -> bool:
    """True if ``text`` written in a game string is read back by pyspiel as this very string."""
    try:
        parsed = pyspiel.game_parameters_from_string(f"g(v={text})")
    except Exception:  # noqa: BLE001 - pyspiel raises its own error types for what it cannot parse
        return False
    return bool(parsed.get("v") == text)


def _to_spiel_string(value: str) -> str:
    """A meeple string as a pyspiel string that a game string gives back unchanged.

    ``,`` and ``=`` become ``;`` and ``:``; a value pyspiel would read as a number, a boolean or a nested game
    (``"7"``, ``"True"``, ``"1.5"``) is quoted, ``'7'``, so that it stays a string.
    """
    text = value.translate(_TO_SPIEL)
    return text if _survives(text) else f"'{text}'"


def _from_spiel_string(value: str) -> str:
    """The meeple string of a pyspiel string (:func:`_to_spiel_string` undone)."""
    if len(value) >= 2 and value[0] == value[-1] == "'":
        value = value[1:-1]
    return value.translate(_FROM_SPIEL)


def _parameter_defaults(name: str) -> dict[str, Any]:
    """The game's parameters as pyspiel defaults (types and values), plus ``reward="win"`` and ``reward_scale="raw"``.

    A game string cannot hold ``,`` or ``=`` inside a value, so a tuple is written with ``;`` (``"4;2;-1;-3"``)
    and a string's ``,`` and ``=`` become ``;`` and ``:`` (``"left:5/1/2;right:5/1/2;top:4/2/0"``). A string
    parameter whose choices are ``"off"`` and numbers is an int (``quick_game=7``; 0 = off); any other string that
    pyspiel would read as a number or a boolean is quoted (:func:`_to_spiel_string`).
    """
    spec: dict[str, Any] = {}
    for p in game_class(name).describe_params():
        default = p.default
        if isinstance(default, tuple):
            default = ",".join(str(v) for v in default)
        if _numeric_choices(p.choices):
            default = OFF if default == "off" else int(default)
        elif isinstance(default, str):
            default = _to_spiel_string(default)
        spec[p.name] = default
    spec[REWARD_PARAM] = "win"
    spec[SCALE_PARAM] = "raw"
    return spec


def _meeple_params(name: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """Pyspiel parameter values -> meeple's (quotes removed, ``;`` and ``:`` back to ``,`` and ``=``, 0 -> off)."""
    numeric = {p.name for p in game_class(name).describe_params() if _numeric_choices(p.choices)}
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key in OWN_PARAMS:
            continue
        if key in numeric and isinstance(value, int) and not isinstance(value, bool):
            out[key] = "off" if value == OFF else str(value)
        else:
            out[key] = _from_spiel_string(value) if isinstance(value, str) else value
    return out


def _spiel_params(name: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter (given or default) in its canonical pyspiel form: what ``str(game)`` then writes."""
    out = dict(values)
    for key, value in out.items():
        if isinstance(value, str) and key not in OWN_PARAMS:
            out[key] = _to_spiel_string(_from_spiel_string(value))
    return out


def min_players(name: str) -> int:
    """The fewest players any parameters of game ``name`` allow (Citadels: 2, with ``variant_2p_ffg``)."""
    cls = game_class(name)
    flags = [p.name for p in cls.describe_params() if p.choices == (False, True)]
    for players in range(1, cls.min_players):
        for flag in flags:
            try:
                load_game(name, players=players, **{flag: True})
            except InvalidParameterError:
                continue
            return players
    return cls.min_players


LENGTH_MARGIN = 2
"""pyspiel's ``max_game_length`` is the measured length times this margin (never above meeple's own bound)."""


def max_game_length(game: Game[Any]) -> int:
    """The ``max_game_length`` pyspiel gets for a meeple game, chance nodes included.

    meeple's ``info.max_game_length`` is a proof-style bound (Citadels: every round to the 100-round safety cap,
    73,000 decisions), far above any real game; pyspiel's is the measured longest game (the game's
    ``GameSpec.longest_game`` for its player count, ``benchmarks/score_bounds.py``) times :data:`LENGTH_MARGIN`, or
    meeple's bound for a configuration not measured.
    """
    measured = game_spec(game.name).longest_game.get(game.num_players)
    bound = game.info.max_game_length
    if measured is not None:
        bound = min(bound, measured * LENGTH_MARGIN)
    return bound + DEAL_DIGITS


def _game_type(name: str, utility_type: Any = pyspiel.GameType.Utility.GENERAL_SUM) -> Any:
    """The pyspiel ``GameType`` of game ``name``; registered as general-sum, each loaded game gets its own utility."""
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"meeple {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility_type,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=min_players(name),
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

    __slots__ = ("digits", "game", "replay", "resampled", "state")

    def __init__(self, game: Game[Any], state: State[Any] | None, digits: tuple[int, ...] = ()) -> None:
        self.game = game
        self.state = state
        self.digits = digits
        self.replay: list[tuple[int, int]] = []
        """Steps being written into pyspiel's history of a resampled state (see ``resample_from_infostate``)."""
        self.resampled = False
        """The state comes from ``resample_from_infostate``: its history cannot be replayed from its seed."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        copy = _Holder(self.game, None if self.state is None else self.state.clone(), self.digits)
        copy.resampled = self.resampled
        return copy

    def __getstate__(self) -> dict[str, Any]:
        snapshot = None if self.state is None else self.state.to_json()
        return {
            "name": self.game.name,
            "params": self.game.params_dict(),
            "state": snapshot,
            "digits": self.digits,
            "resampled": self.resampled,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.replay = []
        self.resampled = bool(data.get("resampled", False))
        self.game = _meeple_game(data["name"], data["params"])
        snapshot = data["state"]
        self.state = None if snapshot is None else self.game.state_from_json(snapshot, check_history=not self.resampled)
        self.digits = tuple(data["digits"])


class MeepleSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One meeple game with fixed parameters, seen by OpenSpiel.

    Game parameters: every variant flag of the game (see :func:`_parameter_defaults` for how values are written in
    a game string), ``reward``, the kind of final returns (``"win"``, ``"rank"``, ``"score"``, ``"score_margin"``;
    :mod:`meeple.core.rewards`), and ``reward_scale`` (``"raw"``, or ``"unit"``: every return in [-1, 1]). They set
    ``min_utility`` and ``max_utility`` (:func:`~meeple.core.rewards.reward_range`: the measured bounds of the game
    and player count) and the utility type (:func:`~meeple.core.rewards.utility`): ``win`` and ``rank`` are
    constant-sum (``utility_sum()`` 1 and players / 2), ``score_margin`` at two players zero-sum, the rest
    general-sum (as is every kind in a solo game).

    Attributes:
        meeple: the meeple :class:`~meeple.core.game.Game` behind it.
        reward: the kind of final returns.
        reward_scale: their scale.

    Raises:
        InvalidParameterError: an unknown value of a flag, of ``reward`` or of ``reward_scale`` (the message lists
            what is allowed).
    """

    meeple_name: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        values = _spiel_params(self.meeple_name, {**_parameter_defaults(self.meeple_name), **dict(params or {})})
        self.reward: str = check_reward(values[REWARD_PARAM])
        self.reward_scale: str = check_reward_scale(values[SCALE_PARAM])
        self.meeple: Game[Any] = _meeple_game(self.meeple_name, _meeple_params(self.meeple_name, values))
        info = self.meeple.info
        low, high = reward_range(self.reward, self.meeple, self.reward_scale)
        kind, total = utility(self.reward, info.num_players)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=DEAL_BASE,
            num_players=info.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=max_game_length(self.meeple),
        )
        super().__init__(_game_type(self.meeple_name, UTILITY[kind]), game_info, values)

    def new_initial_state(self) -> MeepleSpielState:
        """A new game at its first chance node: the deal."""
        return MeepleSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MeepleObserver:
        """The observer OpenSpiel asks for: a seat's, or the public one (``private_info=NONE``); see MeepleObserver."""
        return MeepleObserver(self.meeple, iig_obs_type)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the game string (``pyspiel.load_game(str(game))``), as OpenSpiel's C++ games do."""
        return (_load_spiel_game, (str(self),))


def _load_spiel_game(text: str) -> Any:
    """Rebuild a pickled game (see :meth:`MeepleSpielGame.__reduce__`)."""
    return pyspiel.load_game(text)


def hidden_action(game: Game[Any]) -> int:
    """The code of an unseen step in the ``history()`` of a state from ``resample_from_infostate``.

    It stands for a deal digit or another seat's action the resampling player never saw:
    ``max(num_distinct_actions, DEAL_BASE)``, which no action and no digit has (pyspiel refuses -1,
    ``INVALID_ACTION``, in a history).
    """
    return max(game.num_distinct_actions(), DEAL_BASE)


class MeepleSpielState(pyspiel.State):  # type: ignore[misc]
    """A meeple state seen by OpenSpiel; ``meeple`` is the :class:`~meeple.core.state.State` (None before the deal)."""

    def __init__(self, game: MeepleSpielGame, state: State[Any] | None = None) -> None:
        super().__init__(game)
        self._holder = _Holder(game.meeple, state)
        self._reward: str = game.reward
        self._scale: str = game.reward_scale

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
        holder = self._holder
        if holder.replay:
            return holder.replay[0][0]
        state = holder.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next digit of the deal: ``DEAL_BASE`` equally likely outcomes; none once the deal is made."""
        if self._holder.state is not None:
            return []
        p = 1.0 / DEAL_BASE
        return [(digit, p) for digit in range(DEAL_BASE)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._dealt().legal_action_codes()) if player == self.current_player() else []

    def _apply_action(self, action: int) -> None:
        holder = self._holder
        if holder.replay:
            holder.replay.pop(0)
            return
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
        if action == hidden_action(self._holder.game):
            return "(not seen)"
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal digit {action}"
        state = self._dealt()
        return state.action_to_string(state.game.codec.decode(int(action)))

    def is_terminal(self) -> bool:
        """The game is over."""
        state = self._holder.state
        return state is not None and state.is_terminal()

    def returns(self) -> list[float]:
        """Each seat's return: the game's ``reward`` at its ``reward_scale`` (``meeple.core.rewards.final_rewards``)."""
        if self.is_terminal():
            return final_rewards(self._dealt(), self._reward, self._scale)
        return [0.0] * self._holder.game.num_players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeepleSpielState:
        """A state ``player_id`` cannot tell from this one, re-dealt from a seed the sampler draws (ISMCTS).

        Complete: the same ``move_number()`` and length of ``history()``, where the deal digits and the other seats'
        actions ``player_id`` did not see are :func:`hidden_action`, the same information state for ``player_id``;
        ``str()``, ``clone()``, pickling and playing on work as on any state.
        """
        state = self._holder.state
        if state is None:
            same: MeepleSpielState = self.clone()
            return same
        seed = int(probability_sampler() * (1 << 53))
        world = state.resample_from_infostate(player_id, Rng(seed))
        encode, hidden = world.game.codec.encode, hidden_action(world.game)
        steps = [(int(pyspiel.PlayerId.CHANCE), hidden)] * DEAL_DIGITS
        steps += [
            (actor, hidden if type(action) is HiddenAction else encode(action)) for actor, action in world.history
        ]
        other = MeepleSpielState(self.get_game())
        other._holder.replay = list(steps)
        for _actor, code in steps:
            other.apply_action(code)
        other._holder.state = world
        other._holder.resampled = True
        return other

    def __str__(self) -> str:
        state = self._holder.state
        if state is None:
            return f"deal digits {list(self._holder.digits)}"
        encode, hidden = state.game.codec.encode, hidden_action(state.game)
        codes = [hidden if type(action) is HiddenAction else encode(action) for _actor, action in state.history]
        return f"seed={state.seed} history={codes}"


class MeepleObserver:
    """OpenSpiel's observer of a meeple game: a seat's observation or information state, or the public ones.

    - ``private_info=SINGLE_PLAYER`` (the default): the seat's observation tensor and string (its observation as
      sorted JSON), or with ``perfect_recall`` its information state string (its observation and the history as
      that seat saw it).
    - ``private_info=NONE``: the **public** observation, the same for every seat: the tensor and string of a
      spectator's view (``observation(None)``: no hand, no private choice), with ``perfect_recall`` the public
      history too (the texts a spectator reads: "1:picks a character", never which one).

    Every observer holds the public information (``public_info=True``, OpenSpiel's default). No perfect-recall
    tensor: asking for one raises (docs/research.md says why). ``tests/adapters/test_openspiel.py`` compares every
    combination, tensor and string, across worlds re-dealt by ``resample_from_infostate`` (issue 41, item 20).

    Args:
        game: the meeple game.
        iig_obs_type: pyspiel's ``IIGObservationType`` (None: a seat's observation).

    Raises:
        ValueError: an observation of every seat's private information (no seat may see it), or one without the
            public information (``public_info=False``: a meeple observation cannot leave it out).
    """

    def __init__(self, game: Game[Any], iig_obs_type: Any = None) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("meeple observers show one seat's private information, never every seat's")
        if iig_obs_type is not None and not iig_obs_type.public_info:
            raise ValueError(
                "meeple observers always hold the public information: use public_info=True (private_info=NONE for "
                "the public part alone)"
            )
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.tensor: Any = None if self.perfect_recall else np.zeros(game.observation_tensor_size(), np.float32)
        self.dict = {} if self.perfect_recall else {"observation": self.tensor}

    def _seat(self, player: int) -> int | None:
        return None if self.public else player

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        """Write ``player``'s (or the public) observation tensor of ``state`` into ``self.tensor``.

        Zeros before the deal.

        Raises:
            NotImplementedError: a perfect-recall (information state) tensor, which meeple does not provide.
        """
        if self.tensor is None:
            raise NotImplementedError(
                "meeple games give no information_state_tensor: use information_state_string (perfect recall) or "
                "observation_tensor (docs/research.md)"
            )
        meeple = state.meeple
        if meeple is None:
            self.tensor[:] = 0.0
            return
        seat = self._seat(player)
        if seat is None:
            out = meeple.game.observation_tensor_layout().writer()
            meeple.game._encode_observation(meeple.observation(None), out)
            self.tensor[:] = out.values
        else:
            meeple.write_observation_tensor(seat, self.tensor)

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        """``player``'s (or the public) information state string (perfect recall) or observation as sorted JSON."""
        meeple = state.meeple
        if meeple is None:
            return ""
        seat = self._seat(player)
        observation = json.dumps(meeple.observation(seat), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall:
            return observation
        if seat is not None:
            return meeple.information_state_string(seat)
        seen = "\n".join(f"{p}:{text}" for p, text in meeple.history_texts(SPECTATOR))
        return f"{observation}\n{seen}"


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
    """Make and register the pyspiel game class of ``name``, bound in this module (so that pickle finds it)."""
    cls_name = f"Meeple_{name}"
    cls = type(cls_name, (MeepleSpielGame,), {"meeple_name": name, "__module__": __name__, "__qualname__": cls_name})
    globals()[cls_name] = cls
    pyspiel.register_game(_game_type(name), cls)
    return cls


GAME_CLASSES: dict[str, type[MeepleSpielGame]] = {name: _register(name) for name in sorted(BUILTIN_GAMES)}
"""meeple name -> the registered pyspiel game class."""
