"""The error hierarchy of meeple.

Every error a caller can provoke with bad input is a :class:`MeepleError` and a :class:`ValueError`, so that
``except ValueError`` catches them all. Messages say what was wrong and what is allowed.
"""

from __future__ import annotations

from meeple.i18n.message import Message


class MeepleError(Exception):
    """Base class of every error raised by meeple.

    The message may be a :class:`~meeple.i18n.Message`: ``str(error)`` is its English text and :attr:`message`
    keeps it for the edges to show in the reader's language (``meeple.i18n.tr(error.message)``).

    Attributes:
        message: the message as raised (``Message`` or ``str``).
    """

    def __init__(self, message: Message | str = "", *args: object) -> None:
        super().__init__(str(message), *args)
        self.message: Message | str = message


class InvalidActionError(MeepleError, ValueError):
    """An action that cannot be decoded or built: unknown type, malformed JSON, out-of-range code or text."""


class IllegalActionError(MeepleError, ValueError):
    """A well-formed action that is not legal in the current state. The state is left unchanged."""


class NotYourTurnError(IllegalActionError):
    """An action submitted for a seat that is not the seat to move. The state is left unchanged."""


class InvalidParameterError(MeepleError, ValueError):
    """An unknown game, an unknown parameter name, or a parameter value outside its allowed set."""


class InvalidStateError(MeepleError, ValueError):
    """A serialized state or record that does not match its game, parameters or format."""
