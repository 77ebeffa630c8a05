"""The pages of friends and presence, and what a profile shows of them (issue #44, items 3 and 7).

- ``/me/friends``: the accounts I follow (``GET /api/me/friends``), online first, each with the live table it plays at
  (a link to watch it) unless its player hides it, a link to invite it to a table (the lobby's create-table form
  with ``?invite=USERNAME``) and an Unfollow button; and the form that hides my own table from my followers.
- ``POST /players/{username}/follow`` and ``/unfollow`` (a profile's buttons), ``POST /me/presence`` (the hide form):
  the same use cases as ``PUT``/``DELETE /api/me/friends/{username}`` and ``PUT /api/me/presence``, answered 303 back
  to the page, or the page again with the problem and the API's status.
- :func:`profile_extras`: whether I follow the player, and each game's rating history drawn as a small SVG chart of
  our own (:func:`rating_chart`: no script, no library, no inline style: the page's CSP holds).

Rules: issue #44 "People who come back", items 3 and 7; docs/web.md.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from meeple.i18n import M, Message, Translator
from meeple.server.accounts import Account
from meeple.server.friends import FriendRefused
from meeple.server.quotas import QuotaExceeded
from meeple.server.seats import client_address
from meeple.server.services import Services, ServicesDep, current_account
from meeple.web.pages.common import page_reader, render_page, title_of, with_lang

router = APIRouter(include_in_schema=False)

CHART_WIDTH, CHART_HEIGHT = 320, 120
"""The rating chart's drawing box (SVG user units; the page scales it to its column)."""
CHART_PAD = 10
"""Room around the line (the dots' radius and a little more)."""
CHART_LEFT = 40
"""Room left of the line for the highest and lowest ratings' labels."""


def invite_link(username: str, lang: str) -> str:
    """The lobby's create-table form with a seat kept for ``username`` (``?invite=``, built by branch i44-tables)."""
    return f"/?invite={quote(username)}&lang={lang}#create"


async def profile_extras(
    services: Services, me: Account | None, profile: dict[str, Any], reader: Translator
) -> dict[str, Any]:
    """What a profile page adds: ``following`` (I follow this player), ``charts`` per game, the ``invite`` link."""
    mine = me is not None and me.username == profile["username"]
    following = me is not None and not mine and await services.friends.follows(me, profile["username"])
    stats = profile["stats"].items()
    charts = {game: rating_chart(s["history"], reader, game) for game, s in stats if s["history"]}
    invite = invite_link(profile["username"], reader.lang) if me is not None and not mine else None
    return {"following": following, "charts": charts, "invite": invite, "place": lambda g: place(g, reader)}


def place(game: dict[str, Any], reader: Translator) -> str:
    """The account's final rank at a finished game in words ("rank 1 of 3"), "" when it was not kept."""
    if game.get("rank") is None:
        return ""
    return reader.message(M("rank {rank} of {players}", rank=game["rank"], players=len(game["players"])))


def rating_chart(points: list[dict[str, Any]], reader: Translator, key: str) -> Markup:
    """The rating after each rated game as an SVG line chart (``points``: ``[{"at", "rating", ...}]``, oldest first).

    ``key`` makes the chart's element ids unique on its page (a game's name).

    The chart is an image with a text alternative (its title and description: first and latest rating, lowest and
    highest); each dot has a tooltip (its date and rating). Drawn with presentation attributes and classes only.
    """
    key = str(escape(key))
    ratings = [float(p["rating"]) for p in points]
    low, high = min(ratings), max(ratings)
    span = (high - low) or 1.0
    inner_w, inner_h = CHART_WIDTH - CHART_LEFT - CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / max(1, len(ratings) - 1)
    xy = [
        (CHART_LEFT + (i * step if len(ratings) > 1 else inner_w / 2), CHART_PAD + (high - r) / span * inner_h)
        for i, r in enumerate(ratings)
    ]
    title = reader.message(M("Rating after each rated game"))
    first, last, lowest, highest = (f"{value:.1f}" for value in (ratings[0], ratings[-1], low, high))
    words = M("{n} games: from {first} to {last} (lowest {low}, highest {high})", n=len(ratings))
    values = {**words.args, "first": first, "last": last, "low": lowest, "high": highest}
    summary = reader.message(Message(words.msgid, values))
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    dots = "".join(
        f'<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="3"><title>{_day(p["at"])}: {p["rating"]:.1f}</title>'
        "</circle>"
        for (x, y), p in zip(xy, points, strict=True)
    )
    return Markup(
        f'<svg class="rating-chart" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img"'
        f' aria-labelledby="chart-{key}-t chart-{key}-d">'
        f'<title id="chart-{key}-t">{escape(title)}</title><desc id="chart-{key}-d">{escape(summary)}</desc>'
        f'<line class="axis" x1="{CHART_LEFT}" y1="{CHART_HEIGHT - CHART_PAD}" x2="{CHART_WIDTH - CHART_PAD}"'
        f' y2="{CHART_HEIGHT - CHART_PAD}"/>'
        f'<polyline class="line" fill="none" points="{line}"/>{dots}'
        f'<text class="tick" x="2" y="{CHART_PAD + 3}" aria-hidden="true">{highest}</text>'
        f'<text class="tick" x="2" y="{CHART_HEIGHT - CHART_PAD + 3}" aria-hidden="true">{lowest}</text>'
        "</svg>"
    )


def _day(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).date().isoformat()


@router.get("/me/friends", response_class=HTMLResponse)
async def friends_page(request: Request, services: ServicesDep, lang: str | None = None) -> HTMLResponse:
    """The accounts I follow, online first, with their live tables; the form that hides mine (log in first)."""
    return await _friends_page(request, services, page_reader(request, lang))


async def _friends_page(
    request: Request, services: Services, reader: Translator, error: str | None = None, status: int = 200
) -> HTMLResponse:
    me = await current_account(request)
    friends = [f.to_json() for f in await services.friends.friends(me)] if me is not None else []
    for friend in friends:
        friend["invite"] = invite_link(friend["username"], reader.lang)
        if friend["table"] is not None:
            friend["table"]["title"] = title_of(friend["table"]["game"])
    hidden = await services.friends.hides_table(me) if me is not None else False
    page = render_page("friends.html", reader, request, me=me, friends=friends, hidden=hidden, error=error)
    page.status_code = status
    return page


@router.post("/players/{username}/follow", response_class=HTMLResponse)
async def follow(request: Request, services: ServicesDep, username: str, lang: str | None = None) -> Response:
    """A profile's Follow button (``PUT /api/me/friends/{username}``), then the profile again."""
    return await _change(request, services, username, lang, follow=True)


@router.post("/players/{username}/unfollow", response_class=HTMLResponse)
async def unfollow(
    request: Request, services: ServicesDep, username: str, back: str = "profile", lang: str | None = None
) -> Response:
    """A profile's (or the friends page's: ``?back=friends``) Unfollow (``DELETE /api/me/friends/{username}``)."""
    return await _change(request, services, username, lang, follow=False, back=back)


async def _change(
    request: Request, services: Services, username: str, lang: str | None, follow: bool, back: str = "profile"
) -> Response:
    reader = page_reader(request, lang)
    me = await current_account(request)
    if me is None:
        return await _friends_page(request, services, reader, reader.gettext("log in first"), 401)
    try:
        if follow:
            await services.friends.follow(me, username, client_address(request))
        else:
            await services.friends.unfollow(me, username)
    except FriendRefused as exc:
        return await _friends_page(request, services, reader, reader.message(exc.message), exc.status)
    except QuotaExceeded as exc:
        services.refused(exc.reason)
        page = await _friends_page(request, services, reader, exc.words(reader), 429)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    target = "/me/friends" if back == "friends" else f"/players/{quote(username)}"
    return RedirectResponse(with_lang(target, lang), status_code=303)


@router.post("/me/presence", response_class=HTMLResponse)
async def presence(
    request: Request, services: ServicesDep, hide_table: Annotated[bool, Form()] = False, lang: str | None = None
) -> Response:
    """The friends page's form: hide (or show) my live table from those who follow me (``PUT /api/me/presence``)."""
    reader = page_reader(request, lang)
    me = await current_account(request)
    if me is None:
        return await _friends_page(request, services, reader, reader.gettext("log in first"), 401)
    try:
        await services.friends.set_hide_table(me, hide_table, client_address(request))
    except QuotaExceeded as exc:
        services.refused(exc.reason)
        page = await _friends_page(request, services, reader, exc.words(reader), 429)
        page.headers["Retry-After"] = str(exc.retry_after)
        return page
    return RedirectResponse(with_lang("/me/friends", lang), status_code=303)
