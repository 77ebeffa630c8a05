"""Game parameters (variant flags): typed dataclasses, validated with clear errors, every one within a checked range.

A game declares its parameters as a frozen dataclass whose fields have defaults, ``Literal`` types for choices and a
``metadata={"doc": ...}`` description. Every parameter that is not a choice (``Literal``, ``bool``) declares its
range with :func:`param`: the lowest and highest integer, the most characters of a string, the fewest and most items
of a tuple, and for a string that expands (a deck, a board) a bounded ``check`` that refuses before it builds
anything (issue 41, item 1: a 17-character ROB deck expanded to ten million cards). :func:`build_params` validates
what a caller gives (also strings from the command line) against the type and the range, so that the command line,
the arena, the research adapters and the server refuse alike, and :func:`describe_params` lists them for
``meeple rules``, ``GET /api/games`` and docs/server.md.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from meeple.core.errors import InvalidParameterError
from meeple.i18n.message import VERBATIM, M, Message, join

P = TypeVar("P")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}

MAX_TEXT = 200
"""Characters at most of any parameter value given as a string (a command line, a JSON body), checked before it is
parsed; each parameter's own range is tighter (no valid value of any game is this long)."""


@dataclass(frozen=True)
class Bounds:
    """The checked range of one parameter that is not a choice (:func:`param` declares it).

    Attributes:
        low: an integer's lowest value; a tuple's lowest item.
        high: an integer's highest value; a tuple's highest item.
        max_length: a string's most characters; a tuple's most items.
        min_length: a tuple's fewest items.
        check: called with the value once its type and range are right; raises ``ValueError`` with the reason. A
            value that expands (a deck description, a board) is checked here before anything is built from it.
        expands: what ``check`` bounds, in words (``"1 to 40 ROB cards"``), for docs/server.md and error messages.
    """

    low: int | None = None
    high: int | None = None
    max_length: int | None = None
    min_length: int = 0
    check: Callable[[Any], object] | None = None
    expands: str = ""


def param(
    default: Any,
    doc: str,
    *,
    low: int | None = None,
    high: int | None = None,
    max_length: int | None = None,
    min_length: int = 0,
    check: Callable[[Any], object] | None = None,
    expands: str = "",
) -> Any:
    """A parameter field with its description and its :class:`Bounds` (see :func:`build_params`).

    Args:
        default: the default value (it must be within the bounds: :func:`check_declared` verifies it).
        doc: the description (a msgid: the catalogs translate it).
        low: see :class:`Bounds`.
        high: see :class:`Bounds`.
        max_length: see :class:`Bounds`.
        min_length: see :class:`Bounds`.
        check: see :class:`Bounds`.
        expands: see :class:`Bounds`.
    """
    bounds = Bounds(low, high, max_length, min_length, check, expands)
    return dataclasses.field(default=default, metadata={"doc": doc, "bounds": bounds})


@dataclass(frozen=True)
class ParamSpec:
    """One parameter: its name, type, default, allowed values (``None`` = any of its type) and description.

    ``bounds`` is its checked range (None for a choice: ``Literal`` or ``bool``) and ``allowed`` the values it takes
    in short (``"2..7"``, ``"at most 64 characters"``, the choices; a message the edges translate), as
    ``meeple rules``, ``GET /api/games`` and docs/server.md show them.
    """

    name: str
    type_name: str
    default: Any
    choices: tuple[Any, ...] | None
    doc: str
    bounds: Bounds | None = None
    allowed: Message | None = None

    def to_json(self) -> dict[str, Any]:
        """The parameter as ``GET /api/games`` lists it.

        ``{"name", "type", "default", "choices", "doc", "allowed", "range"}``: ``allowed`` in English words, ``range``
        None for a choice, else ``{"min", "max", "min_length", "max_length", "expands"}`` (None where it does not
        apply: ``min``/``max`` bound an integer or a tuple's items, ``max_length`` a string's characters or a tuple's
        items).
        """
        bounds = self.bounds
        limits = None
        if bounds is not None:
            limits = {
                "min": bounds.low,
                "max": bounds.high,
                "min_length": bounds.min_length if isinstance(self.default, tuple) else None,
                "max_length": bounds.max_length,
                "expands": bounds.expands or None,
            }
        return {
            "name": self.name,
            "type": self.type_name,
            "default": self.default,
            "choices": self.choices,
            "doc": self.doc,
            "allowed": str(self.allowed) if self.allowed is not None else None,
            "range": limits,
        }


def _allowed(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return " | ".join(repr(v) for v in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_allowed(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "None"
    return getattr(hint, "__name__", str(hint))


def _coerce(value: Any, hint: Any) -> Any:
    """Return ``value`` converted to ``hint`` or raise ``TypeError``; strings are parsed as the CLI gives them."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _coerce(value, option)
            except TypeError:
                continue
        raise TypeError
    if origin is typing.Literal:
        for choice in typing.get_args(hint):
            if value == choice or (isinstance(value, str) and str(choice).lower() == value.lower()):
                return choice
            if isinstance(choice, bool) or isinstance(value, str):
                try:
                    if _coerce(value, type(choice)) == choice:
                        return choice
                except TypeError:
                    continue
        raise TypeError
    if origin is tuple:
        if isinstance(value, str):
            value = [v for v in value.split(",") if v]
        if not isinstance(value, (list, tuple)):
            raise TypeError
        (item,) = typing.get_args(hint)[:1]
        return tuple(_coerce(v, item) for v in value)
    if hint is type(None):
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null")):
            return None
        raise TypeError
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise TypeError
    if hint is int:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                raise TypeError from None
        raise TypeError
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                raise TypeError from None
        raise TypeError
    if hint is str:
        if isinstance(value, str):
            return value
        raise TypeError
    raise TypeError


def build_params(cls: type[P], given: Mapping[str, Any], game: str = "game") -> P:
    """Validate ``given`` against the parameter dataclass ``cls`` and return an instance.

    Each value is converted to its type (strings as the command line gives them), then checked against its range
    (:class:`Bounds`): integers between their lowest and highest, strings and tuples not longer than allowed, and a
    value that expands checked by its bounded ``check``. A string longer than :data:`MAX_TEXT` is refused before it
    is parsed.

    Args:
        cls: a frozen dataclass whose fields all have defaults, and bounds where they are not choices.
        given: parameter names to values; values may be strings as typed on the command line.
        game: the game's name, for messages.

    Returns:
        An instance of ``cls`` with defaults for what is not given.

    Raises:
        InvalidParameterError: unknown name or a value outside the allowed set or range; the message names the
            parameter and says what is allowed.
    """
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = [k for k in given if k not in fields]
    if unknown:
        raise InvalidParameterError(
            M(
                "{game} has no parameter {names}; its parameters are: {allowed}",
                game=game,
                names=", ".join(map(short_text, unknown)),
                allowed=", ".join(fields),
            )
        )
    check_declared(cls)
    kwargs: dict[str, Any] = {}
    for name, value in given.items():
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise InvalidParameterError(
                M(
                    "{game} parameter {name!r} has {length} characters; allowed: at most {most}",
                    game=game,
                    name=name,
                    length=len(value),
                    most=MAX_TEXT,
                )
            )
        bounds = _bounds(fields[name])
        if isinstance(value, list | tuple) and bounds is not None and len(value) > (bounds.max_length or 0):
            raise InvalidParameterError(
                M(
                    "{game} parameter {name!r} has {length} items; allowed: {allowed}",
                    game=game,
                    name=name,
                    length=len(value),
                    allowed=allowed_text(bounds, tuple),
                )
            )
        try:
            kwargs[name] = _coerce(value, hints[name])
        except TypeError:
            raise InvalidParameterError(
                M(
                    "{game} parameter {name!r} cannot be {value}; allowed: {allowed}",
                    game=game,
                    name=name,
                    value=short_text(value),
                    allowed=_allowed(hints[name]),
                )
            ) from None
        _check_bounds(game, name, kwargs[name], bounds)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(f"{game}: {exc}") from None


def short_text(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters (an error never echoes a long input)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _bounds(f: dataclasses.Field[Any]) -> Bounds | None:
    bounds = f.metadata.get("bounds")
    return bounds if isinstance(bounds, Bounds) else None


def _out_of_range(value: Any, bounds: Bounds) -> str | None:
    """Why ``value`` (already of its type) is outside ``bounds``, or None."""
    items = value if isinstance(value, tuple) else None
    if items is not None:
        if not bounds.min_length <= len(items) <= (bounds.max_length or 0):
            return "items"
        value_list = list(items)
    elif isinstance(value, str):
        return "length" if len(value) > (bounds.max_length or 0) else None
    else:
        value_list = [value]
    for item in value_list:
        if isinstance(item, int) and not isinstance(item, bool):
            if bounds.low is not None and item < bounds.low:
                return "value"
            if bounds.high is not None and item > bounds.high:
                return "value"
    return None


def _check_bounds(game: str, name: str, value: Any, bounds: Bounds | None) -> None:
    """Refuse ``value`` of parameter ``name`` outside its :class:`Bounds`, saying what is allowed."""
    if bounds is None:
        return
    problem = _out_of_range(value, bounds)
    if problem == "items":  # the same words as for a list refused before its items were read (build_params)
        raise InvalidParameterError(
            M(
                "{game} parameter {name!r} has {length} items; allowed: {allowed}",
                game=game,
                name=name,
                length=len(value),
                allowed=allowed_text(bounds, tuple),
            )
        )
    if problem is not None:
        if name == "players":
            raise InvalidParameterError(
                M(
                    "{game} is played by {low} to {high} players, not {players}",
                    game=game,
                    low=bounds.low,
                    high=bounds.high,
                    players=short_text(value),
                )
            )
        raise InvalidParameterError(
            M(
                "{game} parameter {name!r} cannot be {value}; allowed: {allowed}",
                game=game,
                name=name,
                value=short_text(value),
                allowed=allowed_text(bounds, type(value)),
            )
        )
    if bounds.check is not None:
        try:
            bounds.check(value)
        except ValueError as exc:
            raise InvalidParameterError(
                M(
                    "{game} parameter {name!r} cannot be {value}: {reason}; allowed: {allowed}",
                    game=game,
                    name=name,
                    value=short_text(value),
                    reason=str(exc),
                    allowed=allowed_text(bounds, type(value)),
                )
            ) from None


def allowed_text(bounds: Bounds, kind: type) -> Message:
    """The values ``bounds`` allow, in short, as a message the edges translate.

    ``"2..7"``, ``"at most 64 characters"``, ``"1 to 8 integers, each -10..10"``; with an ``expands`` bound, it
    follows after a semicolon.
    """
    text: Message
    if kind is str:
        text = M("at most {most} characters", most=bounds.max_length)
    elif kind is tuple:
        text = M(
            "{fewest} to {most} integers, each {low}..{high}",
            fewest=bounds.min_length,
            most=bounds.max_length,
            low=bounds.low,
            high=bounds.high,
        )
    else:
        text = Message("{low}..{high}", {"low": bounds.low, "high": bounds.high}, VERBATIM)
    return join([text, Message(bounds.expands)], "; ") if bounds.expands else text


_DECLARED: set[type[Any]] = set()


def check_declared(cls: type[Any]) -> None:
    """Check once that every parameter of ``cls`` is a choice or has bounds, and that its default is within them.

    Raises:
        TypeError: a parameter without a range (an integer without ``low`` and ``high``, a string without
            ``max_length``, a tuple without item counts and item range), or a default outside its range: a
            mistake in the game's ``params.py``, not in what a caller gave.
    """
    if cls in _DECLARED:
        return
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if hint is bool or typing.get_origin(hint) is typing.Literal:
            continue
        bounds = _bounds(f)
        origin = typing.get_origin(hint) or hint
        if bounds is None or origin not in (int, str, tuple):
            raise TypeError(f"{cls.__name__}.{f.name}: a parameter that is not a choice needs bounds (param(...))")
        ints = origin in (int, tuple)
        sized = origin in (str, tuple)
        if (ints and (bounds.low is None or bounds.high is None)) or (sized and bounds.max_length is None):
            raise TypeError(f"{cls.__name__}.{f.name}: incomplete bounds {bounds}")
        if _out_of_range(f.default, bounds) is not None:
            raise TypeError(f"{cls.__name__}.{f.name}: the default {f.default!r} is outside its bounds")
        if bounds.check is not None:
            bounds.check(f.default)
    _DECLARED.add(cls)


def params_to_json(params: Any) -> dict[str, Any]:
    """Return a parameter dataclass instance as a JSON-able dict (tuples become lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def describe_params(cls: type[Any]) -> list[ParamSpec]:
    """List the parameters of a parameter dataclass, in declaration order, for help texts and ``meeple rules``.

    Raises:
        TypeError: a parameter without a declared range (see :func:`check_declared`).
    """
    check_declared(cls)
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        choices = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else None
        if hint is bool:
            choices = (False, True)
        default = f.default if f.default is not dataclasses.MISSING else None
        bounds = _bounds(f) if choices is None else None
        if bounds is not None:
            allowed = allowed_text(bounds, typing.get_origin(hint) or hint)
        else:
            allowed = Message(" | ".join(json.dumps(c) for c in choices or ()), None, VERBATIM)
        doc = str(f.metadata.get("doc", ""))
        out.append(ParamSpec(f.name, _allowed(hint), default, choices, doc, bounds, allowed))
    return out
