"""The replay viewer: a finished game stepped through from a seat's view or the full view.

Rules: issue #33 (item 8: "replay that helps"; item 5: "real move numbers"); docs/web.md.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse

from meeple.core.records import GameRecord
from meeple.core.registry import game_class
from meeple.core.state import SPECTATOR
from meeple.server.services import ServicesDep
from meeple.web.games import companion_for, seat_name
from meeple.web.pages.common import has_style, page_reader, read_table, render_page
from meeple.web.render import render_board
from meeple.web.replays import replay_steps, step_of

router = APIRouter(include_in_schema=False)


@router.get("/tables/{table_id}/replay-view", response_class=HTMLResponse)
async def replay_page(
    request: Request,
    services: ServicesDep,
    table_id: str,
    step_text: Annotated[str | None, Query(alias="step", max_length=12)] = None,
    version_text: Annotated[str | None, Query(alias="version", max_length=12)] = None,
    seat_text: Annotated[str | None, Query(alias="seat")] = None,
    lang: str | None = None,
) -> HTMLResponse:
    """Step through a finished game from a seat's view or the full view (409 while it runs).

    ``?step=n`` shows the game once the reader's log holds ``n`` numbered lines: the slider's "Move n" is line n
    of the log (:mod:`meeple.web.replays`). ``?version=`` (a number of actions) shows the step that reaches it.
    Without either, the end.
    """
    reader = page_reader(request, lang)
    seat = int(seat_text) if seat_text and seat_text.isdecimal() else None
    live = await read_table(services, table_id)
    if not live.over:  # live, or waiting for players: its deal is secret
        raise HTTPException(409, reader.gettext("the game is not over: replays open when it ends"))
    if seat is not None and seat >= len(live.seats):
        raise HTTPException(422, f"seat is 0..{len(live.seats) - 1} (or omitted)")
    record = GameRecord.from_state(live.state)
    steps = await asyncio.to_thread(replay_steps, record, SPECTATOR if seat is None else seat)
    last = len(steps) - 1
    if step_text is not None and step_text.isdecimal():
        step = min(int(step_text), last)
    elif version_text is not None and version_text.isdecimal():
        step = step_of(steps, int(version_text))
    else:
        step = last  # a replay opens at the end
    state = await asyncio.to_thread(record.replay, steps[step])
    # the full view: one board, the spectator's, then each seat's secrets under its own heading
    names = [s.name for s in live.seats]
    main = render_board(
        state, seat, state.history_messages(SPECTATOR if seat is None else seat), reader, None, names=names
    )
    secrets = []
    if seat is None:
        for s in range(len(live.seats)):
            obs = state.observation(s)
            items = companion_for(live.game).secrets(obs, reader)  # what the seat alone knew, in words
            secrets.append({"name": seat_name(s, reader, None, names), "items": items})
    return render_page(
        "replay.html",
        reader,
        request,
        table=table_id,
        game=live.game,
        title=game_class(live.game).title,
        seat=seat,
        seat_names=[seat_name(s, reader, None, names) for s in range(len(live.seats))],
        step=step,
        total=last,
        actions=steps[step],
        seats=len(live.seats),
        board=main,
        secrets=secrets,
        has_style=has_style(live.game),
    )
