"""The rules pages: a game's rules summary with its variants, and a game's own stylesheet.

Rules: issue "Play online: the browser client"; issue #43 item 8 (the variants in a player's words); docs/web.md.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from markupsafe import Markup, escape

from meeple.core.errors import MeepleError
from meeple.core.registry import game_class
from meeple.i18n import Translator
from meeple.server.services import ServicesDep
from meeple.web.games import companion_for, quoted
from meeple.web.pages.common import has_style, page_reader, read_table, render_page
from meeple.web.pages.lobby import game_card

router = APIRouter(include_in_schema=False)

MARKDOWN_STRONG = re.compile(r"\*\*(.+?)\*\*")
MARKDOWN_CODE = re.compile(r"`([^`]+)`")


@router.get("/games/{game}/style.css")
async def game_style(game: str) -> FileResponse:
    """A game's own stylesheet section (its web companion's ``style.css``)."""
    try:
        folder = companion_for(game).folder
    except MeepleError:
        raise HTTPException(404, f"no game {game!r}") from None
    if folder is None or not (folder / "style.css").is_file():
        raise HTTPException(404, f"{game!r} has no stylesheet")
    return FileResponse(folder / "style.css", media_type="text/css")


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(
    request: Request,
    services: ServicesDep,
    game: str,
    table_id: Annotated[str | None, Query(alias="table", max_length=64)] = None,
    lang: str | None = None,
) -> HTMLResponse:
    """The rules summary of ``game`` and its variants (those in force at ``?table=``, else the defaults)."""
    reader = page_reader(request, lang)
    try:
        cls = game_class(game)
    except MeepleError:
        raise HTTPException(404, f"no game {game!r}") from None
    params: dict[str, Any] = {}
    if table_id:
        live = await read_table(services, table_id)
        if live.game != game:
            raise HTTPException(404, f"table {table_id!r} plays {live.game!r}")
        params = dict(live.params)
    return render_page(
        "rules.html",
        reader,
        request,
        game=game,
        title=cls.title,
        table=table_id if params or table_id else None,
        summary=summary_html(
            companion_for(game).flag_words(
                _without_parameter_list(reader.message(cls.rules_summary_message()), game), reader
            ),
            game,
            reader,
        ),
        variants=_variants_in_force(game, params),
        tooltips=companion_for(game).tooltips(reader),
        has_style=has_style(game),
    )


def summary_html(text: str, game: str, reader: Translator) -> Markup:
    """A rules summary (the games' short Markdown: ``#`` titles, ``**bold**``, ```code```, ``-`` lists) as HTML.

    A variant flag's name in code (```third_symbol_exchange```) reads as the variant's label in the reader's language.
    """
    words = companion_for(game).variants

    def inline(line: str) -> str:
        line = str(escape(line))
        line = MARKDOWN_STRONG.sub(r"<strong>\1</strong>", line)

        def code(match: re.Match[str]) -> str:
            name = match.group(1).split("=")[0]
            if match.group(1).startswith(("«", "“")):
                return match.group(1)
            if name in words:
                return str(escape(quoted(reader.gettext(words[name].label), reader)))
            return f"<code>{match.group(1)}</code>"

        return MARKDOWN_CODE.sub(code, line)

    out = []
    for block in text.strip().split("\n\n"):
        lines = block.strip().splitlines()
        if lines and lines[0].startswith("#"):
            out.append(f"<h2>{inline(lines[0].lstrip('#').strip())}</h2>")
            lines = lines[1:]
        if (
            lines
            and lines[0].lstrip().startswith(("- ", "* "))
            and all(x.lstrip().startswith(("- ", "* ")) or x.startswith("  ") for x in lines)
        ):
            items: list[str] = []
            for x in lines:
                if x.lstrip().startswith(("- ", "* ")):
                    items.append(x.lstrip()[2:])
                else:
                    items[-1] += " " + x.strip()
            out.append("<ul>" + "".join(f"<li>{inline(i.strip())}</li>" for i in items) + "</ul>")
        elif lines:
            out.append(f"<p>{inline(' '.join(x.strip() for x in lines))}</p>")
    return Markup("\n".join(out))


def _without_parameter_list(text: str, game: str) -> str:
    """A rules summary without its section listing the parameters as the command line types them.

    That section ("## Variant flags": "- `deck` = fr1 (...) | en (...)") is for ``meeple rules``; the rules page lists
    the variants itself, with their help in a player's words (issue #43 item 8).
    """
    names = tuple(p.name for p in game_class(game).describe_params())

    def is_parameter(item: str) -> bool:
        return item.lstrip("-* `").startswith(names)

    blocks = text.strip().split("\n\n")
    kept: list[str] = []
    skipping = False
    for block in blocks:
        lines = block.strip().splitlines()
        heading = bool(lines) and lines[0].startswith("#")
        rest = lines[1:] if heading else lines
        items = [x for x in rest if x.lstrip().startswith(("- ", "* "))]
        if heading:
            skipping = bool(items) and all(is_parameter(x) for x in items)
        elif skipping and not (items and all(is_parameter(x) for x in items)):
            skipping = False
        if not skipping:
            kept.append(block)
    return "\n\n".join(kept)


def _variants_in_force(name: str, params: dict[str, Any]) -> list[dict[str, str]]:
    """The variants of a table (or the defaults) as ``{"label", "value", "doc"}`` msgids, for the rules page."""
    card = game_card(name)
    out = []
    for v in card["variants"]:
        chosen = str(params.get(v["name"], v["default"]))
        value = v["words"].get(chosen, chosen)
        out.append({"label": v["label"], "value": value, "doc": v["doc"]})
    return out
