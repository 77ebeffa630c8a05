"""Messages: texts kept as their English source and their arguments until someone reads them.

The engines never hold translated text (issue "French and English everywhere"): a game describes an action, an
error or a log line as a :class:`Message`, whose ``msgid`` is the English text (the gettext message id, with
``{name}`` placeholders) and whose arguments are numbers, ids or other messages. The edges (terminal renderers, the
command line, the server, the web client) render it in the reader's language with a :class:`~meeple.i18n.Translator`;
``str(message)`` is the English text, which is what ``action_to_string`` returns and what records and information
state strings hold, in any language.

The constructors double as Babel extraction keywords (``tools/catalogs.py``): ``M("...")`` (``gettext``),
``term("context", "...")`` (``pgettext``: a word of a game's vocabulary) and ``plural("...", "...", n)``
(``ngettext``). Their first arguments must therefore be string literals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Lookup(Protocol):
    """What rendering needs from a catalog: gettext's lookups (see :class:`meeple.i18n.Translator`)."""

    def gettext(self, message: str) -> str: ...  # noqa: D102

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...  # noqa: D102

    def pgettext(self, context: str, message: str) -> str: ...  # noqa: D102

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str: ...  # noqa: D102


class _Source:
    """The identity catalog: the msgids are the English texts."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


VERBATIM = "\x00verbatim"
"""The context of messages that are not looked up in a catalog (punctuation joining translated parts)."""

SOURCE: Lookup = _Source()
"""The English source catalog (every message reads as its msgid)."""


class Message:
    """A translatable text: an English ``msgid`` with ``{name}`` placeholders, its arguments, context and plural.

    Messages are immutable values: two messages are equal when their ids, contexts, plurals and arguments are.
    Arguments may be ``int``, ``str`` (ids and names that are not translated: a tower letter, a seat's name) or
    other messages (a character's name, a district); they are rendered first, in the same language.

    Attributes:
        msgid: the English text, a ``str.format`` template when there are arguments.
        args: the placeholders' values.
        context: the gettext context (``msgctxt``), for a game's vocabulary: ``"citadels character"``.
        plural: the English plural form; the count is the argument ``n``.
    """

    __slots__ = ("msgid", "args", "context", "plural", "_english")

    msgid: str
    args: Mapping[str, Any]
    context: str | None
    plural: str | None
    _english: str | None

    def __init__(
        self, msgid: str, args: Mapping[str, Any] | None = None, context: str | None = None, plural: str | None = None
    ) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "args", args or {})
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "plural", plural)
        object.__setattr__(self, "_english", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Message is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the constructor's arguments (a search's worker process gets states holding log messages)."""
        return (Message, (self.msgid, dict(self.args), self.context, self.plural))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is Message
            and self.msgid == other.msgid
            and self.args == other.args
            and self.context == other.context
            and self.plural == other.plural
        )

    def __hash__(self) -> int:
        return hash((self.msgid, self.context, self.plural, tuple(sorted(self.args.items()))))

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.args.items())
        ctx = f"[{self.context}] " if self.context else ""
        return f"Message({ctx}{self.msgid!r}{extra})"

    def __str__(self) -> str:
        english = self._english
        if english is None:
            english = self.render(SOURCE)
            object.__setattr__(self, "_english", english)
        return english

    def to_json(self) -> dict[str, Any]:
        """Return the message as JSON, for observations and network frames.

        The object is ``{"msgid", "args"?, "context"?, "plural"?}``, nested messages as nested objects;
        :meth:`from_json` reads it back.
        """
        out: dict[str, Any] = {"msgid": self.msgid}
        if self.args:
            out["args"] = {k: v.to_json() if isinstance(v, Message) else v for k, v in self.args.items()}
        if self.context is not None:
            out["context"] = self.context
        if self.plural is not None:
            out["plural"] = self.plural
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """Return the message :meth:`to_json` wrote (an object argument is a nested message).

        Raises:
            ValueError: ``data`` is not such an object.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("msgid"), str):
            raise ValueError(f"not a message: {data!r}"[:200])
        args = {k: cls.from_json(v) if isinstance(v, Mapping) else v for k, v in (data.get("args") or {}).items()}
        return cls(data["msgid"], args, data.get("context"), data.get("plural"))

    def render(self, catalog: Lookup) -> str:
        """Return the text in ``catalog``'s language (``str(message)`` is the English one).

        A translation that lacks one of the message's placeholders or names an unknown one falls back to the
        English text: a bad catalog entry shows English, it never raises (the catalog tests catch it first).
        """
        if self.context == VERBATIM:
            template = self.msgid
        elif self.plural is not None:
            n = int(self.args["n"])
            if self.context is None:
                template = catalog.ngettext(self.msgid, self.plural, n)
            else:
                template = catalog.npgettext(self.context, self.msgid, self.plural, n)
        elif self.context is None:
            template = catalog.gettext(self.msgid)
        else:
            template = catalog.pgettext(self.context, self.msgid)
        if not self.args:
            return template
        values = {k: v.render(catalog) if isinstance(v, Message) else v for k, v in self.args.items()}
        try:
            return template.format_map(values)
        except (KeyError, IndexError, ValueError):
            source = self.msgid if self.plural is None or int(self.args["n"]) == 1 else self.plural
            return source.format_map(values)


def M(msgid: str, /, **args: Any) -> Message:  # noqa: N802 - a Babel extraction keyword, short on purpose
    """Return the message ``msgid`` (English, ``str.format`` placeholders) with its arguments."""
    return Message(msgid, args)


def term(context: str, msgid: str, /) -> Message:
    """Return a word of a game's vocabulary: ``term("citadels character", "Warlord")``.

    The context keeps a game's words apart from the same English word elsewhere (a Capitol "temple" is not a
    Citadels "Temple"); the catalogs translate each word once, in that context.
    """
    return Message(msgid, None, context)


def plural(singular: str, plural_: str, n: int, /, **args: Any) -> Message:
    """Return a message with an English singular and plural chosen by ``n`` (also the placeholder ``{n}``)."""
    return Message(singular, {"n": n, **args}, None, plural_)


def join(parts: Sequence[Message | str], separator: str = ", ") -> Message:
    """Return one message reading ``parts`` separated by ``separator`` (not translated: punctuation)."""
    names = {f"p{i}": part for i, part in enumerate(parts)}
    return Message(separator.join("{" + name + "}" for name in names), names, VERBATIM)
