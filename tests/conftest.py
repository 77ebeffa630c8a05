"""Every test starts in English, whatever the machine's locale, and leaves the language as it found it.

Searches stay in one process unless a test asks for workers (``MEEPLE_SEARCH_WORKERS=1``).

``LC_ALL=C.UTF-8`` (not an empty locale) keeps subprocesses in UTF-8: PostgreSQL's initdb takes its encoding from it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meeple.i18n import language


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("LANGUAGE", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("MEEPLE_SEARCH_WORKERS", "1")  # `meeple play` in-process would ask for every core
    with language("en"):
        yield
