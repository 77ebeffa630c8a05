"""Translation: messages kept in English until read, gettext catalogs, and the reader's language.

See :mod:`meeple.i18n.message` (what the engines produce) and :mod:`meeple.i18n.translator` (catalogs and the
current language). Issue "French and English everywhere"; docs/i18n.md.
"""

from meeple.i18n.message import SOURCE, Lookup, M, Message, join, plural, term
from meeple.i18n.translator import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    N_,
    Translator,
    UnknownLanguageError,
    _,
    current,
    known,
    language,
    language_from_accept,
    language_from_environment,
    ngettext,
    normalize_language,
    pgettext,
    set_language,
    tr,
    translator,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "SOURCE",
    "Lookup",
    "M",
    "Message",
    "N_",
    "Translator",
    "UnknownLanguageError",
    "_",
    "current",
    "join",
    "known",
    "language",
    "language_from_accept",
    "language_from_environment",
    "ngettext",
    "normalize_language",
    "pgettext",
    "plural",
    "set_language",
    "term",
    "tr",
    "translator",
]
