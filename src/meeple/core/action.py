"""Actions: frozen, hashable dataclasses with a JSON form and a stable integer code.

Rules: architecture "The core contract" — actions are imperative verbs (``TakeGold``, ``BuildDistrict``) with a
JSON form ``{"type": "build_district", ...}`` and, for reinforcement learning, a stable integer code per game.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from meeple.core.errors import InvalidActionError
from meeple.i18n.message import M

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


class Action:
    """Base class of every action. Subclasses are ``@dataclass(frozen=True, slots=True)``.

    Field values must be JSON-able scalars (``int``, ``str``, ``bool``, ``None``) or tuples of them.
    """

    __slots__ = ()
    type_name: ClassVar[str] = "action"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "type_name" not in cls.__dict__:
            cls.type_name = _CAMEL.sub("_", cls.__name__).lower()

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form ``{"type": <snake_case name>, <field>: <value>, ...}`` (tuples become lists)."""
        out: dict[str, Any] = {"type": self.type_name}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


_SHORT = 120


def short_repr(value: Any) -> str:
    """Return ``repr(value)`` cut to a readable length (error messages never echo a huge input whole)."""
    try:
        text = repr(value)
    except RecursionError:
        return "<a deeply nested value>"
    return text if len(text) <= _SHORT else text[: _SHORT - 3] + "..."


_FIELD_TYPES: dict[type[Action], dict[str, Any]] = {}


def _field_types(cls: type[Action]) -> dict[str, Any]:
    cached = _FIELD_TYPES.get(cls)
    if cached is None:
        hints = typing.get_type_hints(cls)
        cached = {f.name: hints[f.name] for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        _FIELD_TYPES[cls] = cached
    return cached


def _check_value(value: Any, hint: Any) -> Any:
    """Convert a JSON value to ``hint`` (lists to tuples) or raise ``TypeError``."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _check_value(value, option)
            except TypeError:
                continue
        raise TypeError(f"{short_repr(value)} is not a {hint}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{short_repr(value)} is not a list")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_check_value(v, args[0]) for v in value)
        if len(args) != len(value):
            raise TypeError(f"{short_repr(value)} does not have {len(args)} items")
        return tuple(_check_value(v, a) for v, a in zip(value, args, strict=True))
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            raise TypeError(f"{short_repr(value)} is not one of {typing.get_args(hint)}")
        return value
    if hint is type(None):
        if value is not None:
            raise TypeError(f"{short_repr(value)} is not null")
        return None
    if hint is bool:
        if not isinstance(value, bool):
            raise TypeError(f"{short_repr(value)} is not a boolean")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{short_repr(value)} is not an integer")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise TypeError(f"{short_repr(value)} is not a string")
        return value
    if hint is Any:
        return value
    raise TypeError(f"unsupported action field type {hint}")


class ActionCodec:
    """Decodes a game's actions from JSON and maps them to stable integer codes.

    Args:
        action_types: every action class of the game.
        all_actions: every distinct action of the game in a fixed order; ``all_actions[i]`` has code ``i``.
            Actions are interned: :meth:`intern` returns the canonical instance of an equal action.

    Raises:
        ValueError: if two action classes share a type name or ``all_actions`` has duplicates.
    """

    def __init__(self, action_types: Iterable[type[Action]], all_actions: Sequence[Action]) -> None:
        self._types: dict[str, type[Action]] = {}
        for cls in action_types:
            if cls.type_name in self._types:
                raise ValueError(f"duplicate action type name {cls.type_name!r}")
            self._types[cls.type_name] = cls
        self._actions: tuple[Action, ...] = tuple(all_actions)
        self._codes: dict[Action, int] = {a: i for i, a in enumerate(self._actions)}
        if len(self._codes) != len(self._actions):
            raise ValueError("all_actions contains duplicates")
        # The canonical instances by identity: an int-keyed lookup skips the dataclass hash. They live as long as
        # the codec (``_actions`` holds them), so no other live object can have their ids.
        self._by_id: dict[int, int] = {id(a): i for i, a in enumerate(self._actions)}
        for a in self._actions:
            if type(a).type_name not in self._types:
                raise ValueError(f"{a!r} has an unregistered action type")

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_by_id"]  # ids mean nothing in another process or after a copy
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._by_id = {id(a): i for i, a in enumerate(self._actions)}

    @property
    def num_distinct_actions(self) -> int:
        """The number of distinct actions, i.e. the size of the integer code space."""
        return len(self._actions)

    @property
    def type_names(self) -> list[str]:
        """The JSON ``type`` names of the game's actions."""
        return list(self._types)

    @property
    def all_actions(self) -> tuple[Action, ...]:
        """Every distinct action in code order."""
        return self._actions

    def intern(self, action: Action) -> Action:
        """Return the canonical instance equal to ``action``.

        Raises:
            InvalidActionError: ``action`` is not one of this game's actions (another game's action, a
                placeholder such as ``HiddenAction``, or a field value out of range).
        """
        try:
            code = self._codes.get(action)
        except TypeError:  # an unhashable field value
            code = None
        if code is None:
            known = ", ".join(self._types)
            raise InvalidActionError(
                M(
                    "{action} is not an action of this game (its action types: {types})",
                    action=short_repr(action),
                    types=known,
                )
            )
        return self._actions[code]

    def encode(self, action: Action) -> int:
        """Return the stable integer code of ``action``.

        Raises:
            InvalidActionError: if the action is not one of this game's actions.
        """
        try:
            return self._codes[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"{action!r} is not an action of this game") from None

    def encode_many(self, actions: Sequence[Action]) -> list[int]:
        """Return the codes of ``actions``, in order (a mask's indices; one lookup each, no per-call overhead).

        Canonical instances (the games' legal actions) are found by identity; equal copies by value.

        Raises:
            InvalidActionError: if one of them is not an action of this game.
        """
        by_id = self._by_id
        try:
            return [by_id[id(a)] for a in actions]
        except KeyError:
            return [self.encode(a) for a in actions]  # equal copies; raises naming the first unknown action

    def decode(self, code: int) -> Action:
        """Return the action with integer code ``code``.

        Raises:
            InvalidActionError: if ``code`` is not in ``[0, num_distinct_actions)``.
        """
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < len(self._actions):
            raise InvalidActionError(
                M(
                    "action code {code} is out of range: codes are integers 0..{last}",
                    code=short_repr(code),
                    last=len(self._actions) - 1,
                )
            )
        return self._actions[code]

    def from_json(self, data: Mapping[str, Any]) -> Action:
        """Build an action from its JSON form ``{"type": ..., <fields>}``.

        Raises:
            InvalidActionError: unknown type, missing or extra fields, or a field of the wrong type.
        """
        if not isinstance(data, Mapping) or "type" not in data:
            raise InvalidActionError(
                M("an action is a JSON object with a 'type' key, got {value}", value=short_repr(data))
            )
        name = data["type"]
        cls = self._types.get(name) if isinstance(name, str) else None
        if cls is None:
            raise InvalidActionError(
                M(
                    "unknown action type {name}; known types: {types}",
                    name=short_repr(name),
                    types=", ".join(self._types),
                )
            )
        hints = _field_types(cls)
        given = {k: v for k, v in data.items() if k != "type"}
        missing = [k for k in hints if k not in given]
        extra = [k for k in given if k not in hints]
        if missing or extra:
            raise InvalidActionError(
                M(
                    "{type} takes the fields {fields}; missing {missing}, unexpected {extra}",
                    type=cls.type_name,
                    fields=str(sorted(hints) or "none"),
                    missing=str(missing or "none"),
                    extra=str(extra or "none"),
                )
            )
        kwargs = {}
        for name, hint in hints.items():
            try:
                kwargs[name] = _check_value(given[name], hint)
            except TypeError as exc:
                raise InvalidActionError(f"{cls.type_name}.{name}: {exc}") from None
        try:
            action = cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise InvalidActionError(f"invalid {cls.type_name}: {exc}") from None
        code = self._codes.get(action)
        if code is None:
            raise InvalidActionError(
                M(
                    "{type} with {fields} is not an action of this game: a value is out of range (every action of "
                    "the game has an integer code; see legal_actions for the ones allowed now)",
                    type=cls.type_name,
                    fields=short_repr(given),
                )
            )
        return self._actions[code]
