"""What several pages share: the reader's language, a page's rendering, the table and the seat a request opens.

The language is the ``lang`` query parameter, else the ``lang`` cookie the switch sets, else ``Accept-Language``,
else English. A page is rendered with its reader's language helpers (:func:`render_page`).

Rules: issue "Play online: the browser client"; docs/web.md.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse

from meeple.core.errors import MeepleError
from meeple.core.registry import game_class
from meeple.i18n import LANGUAGES, N_, Translator, language_from_accept, translator
from meeple.server.clock import TURN_BASED_CHOICES
from meeple.server.live import LiveTable, TableNotFound
from meeple.server.quotas import QuotaExceeded
from meeple.server.replies import cut
from meeple.server.seats import client_address, seat_cookie
from meeple.server.services import Services
from meeple.web.games import companion_for
from meeple.web.render import TEMPLATES, duration
from meeple.web.table_rules import ending_words, rated_words, rules_words

STATUS = {
    "waiting": N_("waiting for players"),
    "live": N_("live"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
    "aborted": N_("aborted"),
}
"""A table's status in words: marked here for the catalogs; the lobby template translates ``status`` by its id."""


def page_reader(request: Request, lang: str | None) -> Translator:
    """The page's language: ``?lang=``, else the ``lang`` cookie, else ``Accept-Language``, else English."""
    for candidate in (lang, request.cookies.get("lang")):
        if candidate:
            try:
                return translator(candidate)
            except ValueError:
                continue
    return translator(language_from_accept(request.headers.get("accept-language")))


def render_page(name: str, reader: Translator, request: Request, **context: Any) -> HTMLResponse:
    """Render a template with the reader's language helpers; remember an explicit ``?lang=`` in a cookie."""
    html = TEMPLATES.get_template(name).render(
        _=reader.gettext,
        ngettext=reader.ngettext,
        tr=reader.message,
        lang=reader.lang,
        languages=LANGUAGES,
        flags=lambda game, text: companion_for(game).flag_words(text, reader),
        lang_links=language_links(request),
        status_words=STATUS,
        duration=lambda seconds: duration(seconds, reader),
        turn_based_choices=TURN_BASED_CHOICES,
        table_rules=lambda t: rules_words(t["clock"], t["grace"], t["substitute"], t["rated"], reader),
        rated_rules=rated_words(request, reader),
        ending=lambda status, ended: ending_words(status, ended, reader),
        **context,
    )
    response = HTMLResponse(html)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie("lang", reader.lang, max_age=365 * 86400, samesite="lax")
    return response


def language_links(request: Request) -> dict[str, str]:
    """The page's address in each language (the switch at the top): its path and query, ``lang`` set, no ``token``.

    Every key and value is URL-encoded: a crafted link's query key (``a%26token%3DT``) must not come back as a
    ``token=`` of the switch's link, which would plant a seat cookie (issue #41, item 15).
    """
    kept = [(k, v) for k, v in request.query_params.multi_items() if k not in ("lang", "token")]
    path = quote(request.url.path)
    return {code: f"{path}?{urlencode([*kept, ('lang', code)])}" for code in LANGUAGES}


def refusal_page(scope: Any, reader: Translator, text: str) -> bytes:
    """The page of a read refused past ``--reads-per-minute``: ``text``, in the reader's language."""
    return bytes(render_page("busy.html", reader, Request(scope), message=text).body)


def with_lang(path: str, lang: str | None) -> str:
    """``path``, keeping an explicit ``?lang=`` of the request (a redirect after a form)."""
    return path + (f"?lang={lang}" if lang in LANGUAGES else "")


async def read_table(services: Services, table_id: str) -> LiveTable:
    """The table ``table_id`` (a finished one is read, not kept in memory for a page), else 404."""
    try:
        return await services.tables.read(table_id)
    except TableNotFound:
        raise HTTPException(404, f"no table {cut(table_id)!r}") from None


async def seat_of(services: Services, request: Request, table_id: str, token: str | None = None) -> int | None:
    """The seat bound to the session's account, else the seat ``token`` opens (by default the seat cookie's), or None.

    Raises:
        HTTPException: 429 after too many wrong tokens from the address (``Retry-After``).
    """
    token = token if token is not None else request.cookies.get(seat_cookie(table_id))
    seats = services.seats
    seat = await seats.account_seat(request, table_id)  # the session first: a revoked cookie is not a wrong token
    if seat is not None or not token:
        return seat
    try:
        return await seats.check_token(table_id, token, client_address(request))
    except QuotaExceeded as exc:
        services.refused(exc.reason)
        raise HTTPException(429, exc.message, headers={"Retry-After": str(exc.retry_after)}) from None


def title_of(game: str) -> str:
    """The title of ``game`` (the name itself for a game no longer registered)."""
    try:
        return game_class(game).title
    except MeepleError:
        return game


def has_style(game: str) -> bool:
    """Whether ``game``'s web companion has its own stylesheet (``/games/{game}/style.css``)."""
    folder = companion_for(game).folder
    return folder is not None and (folder / "style.css").is_file()
