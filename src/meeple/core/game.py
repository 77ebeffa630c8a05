"""The Game half of the core contract: parameters, static information, and state construction.

Rules: architecture "The core contract" (``load_game``, ``game.info``, ``new_initial_state``, ``state_from_json``).
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from meeple.core.action import Action, ActionCodec, short_repr
from meeple.core.errors import InvalidActionError, InvalidParameterError, InvalidStateError
from meeple.core.params import ParamSpec, build_params, describe_params, params_to_json
from meeple.core.tensor import DirectTensor, TensorLayout, TensorWriter, float_buffer, zeroed_buffer
from meeple.i18n.message import VERBATIM, M, Message

if TYPE_CHECKING:
    from meeple.core.state import State

P = TypeVar("P")

STATE_FORMAT = "meeple-state/1"


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game with its parameters.

    Attributes:
        name: registry name, e.g. ``"citadels"``.
        title: display title.
        min_players: smallest supported player count.
        max_players: largest supported player count.
        num_players: the player count of this parameterisation.
        max_game_length: an upper bound on the number of decisions in one game.
        num_distinct_actions: size of the integer action-code space.
        min_utility: lowest possible entry of ``returns()``.
        max_utility: highest possible entry of ``returns()``.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    num_players: int
    max_game_length: int
    num_distinct_actions: int
    min_utility: float
    max_utility: float


class Game(ABC, Generic[P]):
    """A game with fixed parameters: a factory of states.

    Subclasses set the class attributes, implement :meth:`_make_codec`, :meth:`_max_game_length`,
    :meth:`_new_state` and :meth:`_state_from_body`, and register with :func:`meeple.core.registry.register_game`.

    Args:
        **params: parameter values (variant flags); see :meth:`describe_params`. ``players`` is the player count.

    Raises:
        InvalidParameterError: an unknown parameter or a value outside its allowed set or range (every parameter's
            range is checked before anything is built from it: :func:`meeple.core.params.build_params`).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    params_type: ClassVar[type[Any]]
    min_utility: ClassVar[float] = 0.0
    max_utility: ClassVar[float] = 1.0
    direct_tensor: ClassVar[DirectTensor[Any] | None] = None
    """The game's direct tensor encoder, if it has one: its ``tensor`` module, a :class:`DirectTensor` of the game's
    state class, which reads a seat's tensor straight from the state with the same values as encoding its observation
    (:meth:`_observation_values`, :meth:`_write_observation`, :meth:`write_observations`)."""

    def __init__(self, **params: Any) -> None:
        self.params: P = build_params(self.params_type, params, self.name)
        players = int(self.params.players)
        if not self.min_players <= players <= self.max_players:
            raise InvalidParameterError(
                M(
                    "{game} is played by {low} to {high} players, not {players}",
                    game=self.name,
                    low=self.min_players,
                    high=self.max_players,
                    players=players,
                )
            )
        self._check_params()
        self.codec: ActionCodec = self._make_codec()
        self.texts: dict[tuple[int, int, int | None], tuple[Message, Action, Action]] = {}
        """Cache of ``State._text_entry``: ``(id(action), actor, perspective) -> (message, redacted, action)``.

        A text depends only on the action, its actor and the perspective (never on the state), so it is computed once
        per game object; resampling and information states then cost a lookup per past action."""
        self.info = GameInfo(
            name=self.name,
            title=self.title,
            min_players=self.min_players,
            max_players=self.max_players,
            num_players=players,
            max_game_length=self._max_game_length(),
            num_distinct_actions=self.codec.num_distinct_actions,
            min_utility=self.min_utility,
            max_utility=self.max_utility,
        )

    # ----------------------------------------------------------------- to implement
    def _check_params(self) -> None:
        """Check combinations of parameters; raise :class:`InvalidParameterError` if they conflict."""

    @abstractmethod
    def _make_codec(self) -> ActionCodec:
        """Return the codec listing every distinct action of the game."""

    @abstractmethod
    def _max_game_length(self) -> int:
        """Return an upper bound on the number of decisions in one game."""

    @abstractmethod
    def _new_state(self, seed: int) -> State[Any]:
        """Return the initial state for ``seed`` (deterministic)."""

    @abstractmethod
    def _state_from_body(self, data: Mapping[str, Any]) -> State[Any]:
        """Rebuild a state from the full JSON form (see :meth:`State.to_json`)."""

    # ----------------------------------------------------------------- public API
    @property
    def num_players(self) -> int:
        """The player count of this game."""
        return self.info.num_players

    def num_distinct_actions(self) -> int:
        """Return the size of the fixed action space: every action has a code from 0 to this size minus one.

        Codes are stable across versions for the same parameters (``tests/conformance/test_action_codes.py`` pins
        them); ``state.legal_actions_mask(player)`` marks the legal ones.
        """
        return self.info.num_distinct_actions

    def observation_tensor_layout(self) -> TensorLayout:
        """The fields of ``state.observation_tensor(player)`` for these parameters (offsets, sizes, meanings).

        Raises:
            NotImplementedError: the game defines no tensor (every built-in game does).
        """
        layout = self.__dict__.get("_tensor_layout")
        if layout is None:
            layout = self._observation_layout()
            self.__dict__["_tensor_layout"] = layout
        return layout

    def observation_tensor_shape(self) -> list[int]:
        """``[length]`` of the flat observation tensor (OpenSpiel's ``observation_tensor_shape``)."""
        return [self.observation_tensor_layout().size]

    def observation_tensor_size(self) -> int:
        """The length of the flat observation tensor."""
        return self.observation_tensor_layout().size

    def _observation_layout(self) -> TensorLayout:
        """Return the observation tensor's layout; games with a tensor override it and :meth:`_encode_observation`."""
        raise NotImplementedError(f"{self.name} has no observation tensor")

    def _encode_observation(self, observation: Mapping[str, Any], out: TensorWriter) -> None:
        """Fill ``out`` from ``observation`` (the typed observation of one seat): only what that seat may see."""
        raise NotImplementedError(f"{self.name} has no observation tensor")

    def _observation_values(self, state: State[Any], player: int) -> list[float]:
        """The values of ``player``'s observation tensor of ``state`` (what ``observation_tensor`` returns).

        The default encodes ``state.observation(player)`` (:meth:`_encode_observation`). A game with a
        :attr:`direct_tensor` reads a seat's values straight from its state instead, for speed; they are always
        equal to the default's (``tests/games/test_tensor_fast_path.py`` compares them on every decision of many
        games, for every seat).
        """
        direct = self.direct_tensor
        if direct is None or player is None or not 0 <= player < self.num_players:
            return state.encoded_observation_values(player)
        return direct.values_from_state(state, player, self.observation_tensor_layout())

    def _write_observation(self, state: State[Any], player: int, out: Any) -> None:
        """Write :meth:`_observation_values` into ``out``, a float numpy vector of the tensor's size.

        A :attr:`direct_tensor` writes a seat's values straight into ``out`` when it is a writable contiguous float
        vector (:func:`meeple.core.tensor.zeroed_buffer`: no Python list converted); otherwise the values are copied,
        and numpy raises its own error for a wrong size (``out`` unchanged).
        """
        direct = self.direct_tensor
        if direct is not None and player is not None and 0 <= player < self.num_players:
            layout = self.observation_tensor_layout()
            view = zeroed_buffer(out, layout.size)
            if view is not None:
                direct.fill_from_state(state, player, layout, view)
                return
        out[:] = self._observation_values(state, player)

    def write_observations(self, states: Sequence[State[Any]], players: Sequence[int], out: Any) -> None:
        """Write the observation tensor of ``players[i]`` in ``states[i]`` into row ``i`` of ``out``, for every ``i``.

        The batched form of ``state.write_observation_tensor`` (the vector environments): the rows are zeroed in one
        numpy call and written through :meth:`row_writer`. Each row holds what its seat may see, nothing more (the
        same values as :meth:`State.observation_tensor`).

        Args:
            states: the states, one per row.
            players: the seat whose tensor each row gets (a spectator, ``None``, gets the public tensor).
            out: a float numpy array of at least ``len(states)`` rows of ``observation_tensor_size()``: its first
                ``len(states)`` rows are written, the others left as they are.

        Raises:
            ValueError: ``players`` and ``states`` differ in length, or ``out`` has too few rows or the wrong width
                (nothing written).
        """
        rows = len(states)
        if len(players) != rows:
            raise ValueError(f"one player per state: {rows} states, {len(players)} players")
        write = self.row_writer(out)
        if out.shape[0] < rows:
            raise ValueError(f"out has {out.shape[0]} rows, fewer than the {rows} states")
        out[:rows] = 0.0
        for i, (state, player) in enumerate(zip(states, players, strict=True)):
            write(state, player, i)

    def row_writer(self, out: Any) -> Callable[[State[Any], int, int], None]:
        """Return ``write(state, player, row)``, which writes ``player``'s observation tensor into ``out[row]``.

        For batched environments that keep one 2-D buffer: the caller zeroes the rows to write (one numpy call for
        all), then writes each row as soon as its game has moved, while the game's state is still in the CPU's cache.
        A :attr:`direct_tensor` writes through per-row ``memoryview`` slices of ``out``, each made once (no per-row
        check, no buffer set-up); without one, or for a buffer that is not a contiguous float array, each row is
        written by :meth:`_write_observation` (zeroed rows are then not needed).

        Args:
            out: a 2-D float numpy array of ``observation_tensor_size()`` columns, reused across calls.

        Raises:
            ValueError: ``out`` is not 2-D or has the wrong width.
        """
        size = self.observation_tensor_size()
        if getattr(out, "ndim", None) != 2 or out.shape[1] != size:
            raise ValueError(f"out must be a 2-D array of {size} columns, not shape {getattr(out, 'shape', None)}")
        direct, n = self.direct_tensor, self.num_players
        flat = float_buffer(out.reshape(-1), out.shape[0] * size) if out.flags.c_contiguous else None
        if direct is None or flat is None:

            def write_any(state: State[Any], player: int, row: int) -> None:
                self._write_observation(state, player, out[row])

            return write_any
        layout, fill = self.observation_tensor_layout(), direct.fill_from_state
        views: list[memoryview[float] | None] = [None] * out.shape[0]  # each row's slice, made when first written

        def write(state: State[Any], player: int, row: int) -> None:
            if player is not None and 0 <= player < n:
                view = views[row]
                if view is None:
                    view = views[row] = flat[row * size : (row + 1) * size]
                fill(state, player, layout, view)
            else:
                out[row] = self._observation_values(state, player)

        return write

    def params_dict(self) -> dict[str, Any]:
        """Return every parameter (given or default) as a JSON-able dict; ``load_game(name, **d)`` rebuilds it."""
        return params_to_json(self.params)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the text cache (a bot worker or a Ray task rebuilds what it needs)."""
        state = self.__dict__.copy()
        state["texts"] = {}
        return state

    @classmethod
    def describe_params(cls) -> list[ParamSpec]:
        """List the parameters (variant flags) with types, defaults, choices and descriptions."""
        return describe_params(cls.params_type)

    @classmethod
    def rules_summary(cls) -> str:
        """Return a short summary of the rules in English (Markdown): ``str`` of :meth:`rules_summary_message`."""
        return str(cls.rules_summary_message())

    @classmethod
    def rules_summary_message(cls) -> Message:
        """Return the summary of the rules as a message (Markdown), for the edges to show in any language.

        Games override it; the default is the title.
        """
        return Message(cls.title, None, VERBATIM)

    def new_initial_state(self, seed: int | None = None) -> State[Any]:
        """Return the initial state; the same ``(params, seed)`` always gives the same game.

        Args:
            seed: a non-negative integer; ``None`` draws a fresh random seed (kept in ``state.seed``).

        Raises:
            InvalidParameterError: a negative or non-integer seed.
        """
        if seed is None:
            seed = secrets.randbits(63)  # 63 bits: too many to search for the seed of a deal seen
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidParameterError(M("a seed is a non-negative integer, not {seed}", seed=repr(seed)))
        return self._new_state(seed)

    def state_from_json(self, data: Mapping[str, Any], *, check_history: bool = True) -> State[Any]:
        """Rebuild the exact state serialized by :meth:`State.to_json`, after validating it.

        Accepts exactly what ``to_json`` produces (see :mod:`meeple.core.snapshot` for the five checks): well-formed
        common fields, every value of the right type, the game's conservation invariants, a sound position and,
        where the history is complete, the position the history reaches from the seed.

        Args:
            data: the snapshot (JSON data).
            check_history: replay a complete history and compare (default). Pass False only for a position you
                built yourself (a test's explicit position), whose body no history produces.

        Raises:
            InvalidStateError: the data is not a valid state of this game with these parameters; the message names
                the field (``body.gold[2]``, ``history[14]``...).
        """
        from meeple.core import snapshot

        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise InvalidStateError(f"not a serialized meeple state (expected format {STATE_FORMAT!r})")
        if data.get("game") != self.name:
            raise InvalidStateError(f"this is a state of {short_repr(data.get('game'))}, not of {self.name!r}")
        if data.get("params") != self.params_dict():
            raise InvalidStateError(
                f"the state's parameters {short_repr(data.get('params'))} differ from this game's {self.params_dict()}"
            )
        wire = snapshot.as_json_data(data)
        snapshot.check_common(self, wire)
        try:
            state = self._state_from_body(wire)
            snapshot.check_round_trip(wire, state)  # types first: the consistency check reads typed fields
            state.check_consistency()
        except InvalidStateError:
            raise
        except Exception as exc:  # noqa: BLE001 - a body that cannot be restored or checked is malformed
            raise InvalidStateError(f"malformed {self.name} state: {short_repr(exc)}") from None
        snapshot.check_sound(state)
        if check_history:
            snapshot.check_history(self, wire)
        return state

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        """Decode an action from its JSON form. Raises :class:`InvalidActionError` on malformed input."""
        return self.codec.from_json(data)

    def action_from_code(self, code: int) -> Action:
        """Decode an action from its integer code. Raises :class:`InvalidActionError` when out of range."""
        return self.codec.decode(code)

    def action_code(self, action: Action) -> int:
        """Return the stable integer code of an action. Raises :class:`InvalidActionError` if unknown."""
        return self.codec.encode(action)

    def to_action(self, action: Action | int | Mapping[str, Any]) -> Action:
        """Coerce an :class:`Action`, an integer code or a JSON dict to this game's canonical action.

        Raises:
            InvalidActionError: the input is none of those, or cannot be decoded.
        """
        if isinstance(action, Action):
            return self.codec.intern(action)
        if isinstance(action, int) and not isinstance(action, bool):
            return self.codec.decode(action)
        if isinstance(action, Mapping):
            return self.codec.from_json(action)
        raise InvalidActionError(
            M("an action is an Action, an integer code or a JSON object, not {value}", value=short_repr(action))
        )

    def __repr__(self) -> str:
        return f"load_game({self.name!r}, **{self.params_dict()!r})"
