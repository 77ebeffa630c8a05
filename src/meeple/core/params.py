"""Game parameters (variant flags): typed dataclasses, validated with clear errors.

A game declares its parameters as a frozen dataclass whose fields have defaults, ``Literal`` types for choices and a
``metadata={"doc": ...}`` description. :func:`build_params` validates what a caller gives (also strings from the
command line) and :func:`describe_params` lists them for ``meeple rules``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from meeple.core.errors import InvalidParameterError
from meeple.i18n.message import M

P = TypeVar("P")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


@dataclass(frozen=True)
class ParamSpec:
    """One parameter: its name, type, default, allowed values (``None`` = any of its type) and description."""

    name: str
    type_name: str
    default: Any
    choices: tuple[Any, ...] | None
    doc: str


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

    Args:
        cls: a frozen dataclass whose fields all have defaults.
        given: parameter names to values; values may be strings as typed on the command line.
        game: the game's name, for messages.

    Returns:
        An instance of ``cls`` with defaults for what is not given.

    Raises:
        InvalidParameterError: unknown name or a value outside the allowed set; the message lists what is allowed.
    """
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = [k for k in given if k not in fields]
    if unknown:
        raise InvalidParameterError(
            M(
                "{game} has no parameter {names}; its parameters are: {allowed}",
                game=game,
                names=", ".join(map(repr, unknown)),
                allowed=", ".join(fields),
            )
        )
    kwargs: dict[str, Any] = {}
    for name, value in given.items():
        try:
            kwargs[name] = _coerce(value, hints[name])
        except TypeError:
            raise InvalidParameterError(
                M(
                    "{game} parameter {name!r} cannot be {value}; allowed: {allowed}",
                    game=game,
                    name=name,
                    value=repr(value),
                    allowed=_allowed(hints[name]),
                )
            ) from None
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(f"{game}: {exc}") from None


def params_to_json(params: Any) -> dict[str, Any]:
    """Return a parameter dataclass instance as a JSON-able dict (tuples become lists)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def describe_params(cls: type[Any]) -> list[ParamSpec]:
    """List the parameters of a parameter dataclass, in declaration order, for help texts and ``meeple rules``."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        choices = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else None
        if hint is bool:
            choices = (False, True)
        default = f.default if f.default is not dataclasses.MISSING else None
        out.append(ParamSpec(f.name, _allowed(hint), default, choices, str(f.metadata.get("doc", ""))))
    return out
