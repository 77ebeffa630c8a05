"""Catalogs and the reader's language: which translation renders a message, chosen per command, request or page.

The catalogs are gettext ``.po`` files under ``meeple/locale/<lang>/LC_MESSAGES/meeple.po``, managed with Babel
(``tools/catalogs.py extract|update|compile|check``); the build compiles them to ``.mo`` files that ship in the
package. A ``.po`` newer than its ``.mo`` (or without one, in a source checkout) is compiled in memory at first use.

English is the source language (the msgids): it needs no catalog and is the fallback of any missing entry.
The current language is a context variable, so the server renders each connection's frames in that reader's
language without threads or requests seeing each other's: ``with language("fr"): ...``.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from meeple.i18n.message import M, Message

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs are: ``LOCALE_DIR/<lang>/LC_MESSAGES/meeple.po`` (and ``.mo``)."""
DOMAIN = "meeple"
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français"}
"""The languages with a complete catalog: code -> the language's own name."""
DEFAULT_LANGUAGE = "en"


class UnknownLanguageError(ValueError):
    """A language meeple has no catalog for (``--lang de``); the message lists the languages there are.

    Attributes:
        message: the :class:`Message` (``str(error)`` is its English text).
    """

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class Translator:
    """One language's catalog: gettext's four lookups and :meth:`message` rendering.

    Attributes:
        lang: the language code (``"en"``, ``"fr"``).
    """

    def __init__(self, lang: str, catalog: _gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        """Return the translation of ``message`` (itself when the catalog has none).

        An empty message stays empty: gettext's catalogs keep their header under the empty message id, which must never
        reach a page (a parameter or game without a description would show "Project-Id-Version: …").
        """
        return self._catalog.gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """Return the translation of the singular or plural form for ``n``."""
        return self._catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """Return the translation of ``message`` in ``context`` (a game's vocabulary)."""
        return self._catalog.pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        """Return the translation of a plural message in ``context``."""
        return self._catalog.npgettext(context, singular, plural, n)

    def message(self, message: Message | str) -> str:
        """Return ``message`` rendered in this language (a plain ``str`` is returned unchanged)."""
        return message if isinstance(message, str) else message.render(self)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


def _load(lang: str) -> _gettext.NullTranslations:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    if not po.exists():
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # a source checkout: compile in memory
    from babel.messages.pofile import read_po

    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


@cache
def translator(lang: str) -> Translator:
    """Return the translator of ``lang`` (see :func:`normalize_language`), loaded once per process.

    Raises:
        UnknownLanguageError: the language has no catalog; the message lists the languages there are.
    """
    code = normalize_language(lang)
    if code == DEFAULT_LANGUAGE:
        return Translator(code, _gettext.NullTranslations())
    return Translator(code, _load(code))


def normalize_language(lang: str) -> str:
    """Return the code of ``lang``: ``"fr"`` for ``fr``, ``FR``, ``fr_FR.UTF-8``, ``fr-CA``.

    Raises:
        UnknownLanguageError: not a language meeple speaks; the message lists those it does.
    """
    code = _code(lang)
    if code not in LANGUAGES:
        allowed = ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items())
        raise UnknownLanguageError(M("unknown language {lang!r}; meeple speaks {allowed}", lang=lang, allowed=allowed))
    return code


def _code(tag: str) -> str:
    return tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """Return the language the locale asks for, as gettext reads it, or English.

    The first set of ``LANGUAGE`` (a ``:`` list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` decides; its first
    language meeple speaks wins. ``C`` and ``POSIX`` mean English.
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for tag in value.split(":"):
            if _code(tag) in LANGUAGES:
                return _code(tag)
        if name != "LANGUAGE":  # the first set locale variable decides (LANGUAGE only refines it)
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def language_from_accept(header: str | None) -> str:
    """Return the language an HTTP ``Accept-Language`` header prefers among those meeple speaks (RFC 9110 §12.5.4).

    ``"fr-CH, fr;q=0.9, en;q=0.8"`` gives ``"fr"``; an empty, malformed or unmatched header gives English.
    """
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for item in (header or "").split(","):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = _code(tag)
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best


_current: ContextVar[Translator | None] = ContextVar("meeple_language", default=None)


def current() -> Translator:
    """Return the translator of the current context (set by :func:`set_language` or :func:`language`)."""
    found = _current.get()
    if found is None:
        found = translator(DEFAULT_LANGUAGE)
    return found


def set_language(lang: str) -> Translator:
    """Make ``lang`` the current language of this context (the command line's ``--lang``) and return its translator.

    Raises:
        UnknownLanguageError: see :func:`normalize_language`.
    """
    found = translator(lang)
    _current.set(found)
    return found


@contextmanager
def language(lang: str) -> Iterator[Translator]:
    """Render in ``lang`` inside the ``with`` block, then return to the previous language."""
    token = _current.set(translator(lang))
    try:
        yield current()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """Return ``message`` in the current language (``gettext``)."""
    return current().gettext(message)


def known(message: str) -> str:
    """Return ``message``, a msgid marked elsewhere with :func:`N_`, in the current language.

    The same lookup as :func:`_`, under a name Babel does not extract: ``known(PHASES[phase])`` (extraction would
    take the first literal in the call, here a dict key, for a message).
    """
    return current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Return the singular or plural of a message for ``n``, in the current language."""
    return current().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Return ``message`` in ``context``, in the current language."""
    return current().pgettext(context, message)


def tr(message: Message | str) -> str:
    """Return a :class:`Message` rendered in the current language (a ``str`` unchanged)."""
    return current().message(message)


def N_(message: str) -> str:  # noqa: N802 - gettext's name
    """Mark ``message`` for extraction without translating it now (it is translated where it is shown)."""
    return message
