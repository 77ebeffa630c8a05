"""How the browser client draws: its Jinja2 templates, a clock's time, and a seat's board fragment.

Every board is rendered from what its reader may know: a seat's from ``game_view(state, seat)`` (the same view the
WebSocket sends), a spectator's from the public view. The pages (:mod:`meeple.web.pages`) and the moves played back
(:mod:`meeple.web.motion`) draw boards through :func:`render_board`.

Rules: issue "Play online: the browser client"; docs/web.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, FunctionLoader, select_autoescape

from meeple.core.errors import MeepleError
from meeple.core.state import SPECTATOR
from meeple.i18n import Translator
from meeple.server.clock import clock_view
from meeple.server.live import LiveTable
from meeple.server.rated import RatedRules
from meeple.server.views import game_view
from meeple.web.boards import badges, board_context, display_name, log_lines, move_texts, name_the_moves
from meeple.web.games import companion_for
from meeple.web.motion import note_lines, undo_offer
from meeple.web.table_rules import board_extras

HERE = Path(__file__).resolve().parent


def _companion_template(name: str) -> tuple[str, str, Any] | None:
    """``games/<game>/<file>.html``: the file in the game's web companion's ``templates/`` folder (else None)."""
    parts = name.split("/")
    if len(parts) != 3 or parts[0] != "games":
        return None
    try:
        folder = companion_for(parts[1]).folder
    except MeepleError:
        return None
    path = folder / "templates" / parts[2] if folder is not None else None
    if path is None or not path.is_file():
        return None
    return path.read_text(encoding="utf-8"), str(path), lambda: True


TEMPLATES = Environment(
    loader=ChoiceLoader([FileSystemLoader(HERE / "templates"), FunctionLoader(_companion_template)]),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
)


def duration(seconds: float, reader: Translator) -> str:
    """A clock's time as shown: ``m:ss`` under an hour, ``h:mm:ss`` under a day, else ``2 d 5 h`` (translated).

    Args:
        seconds: the time left (negative counts as 0).
        reader: the page's language (the days-and-hours form is a translated text).
    """
    left = max(0, int(seconds))
    if left >= 86_400:
        return reader.gettext("{days} d {hours} h").format(days=left // 86_400, hours=left % 86_400 // 3_600)
    if left >= 3_600:
        return f"{left // 3_600}:{left % 3_600 // 60:02d}:{left % 60:02d}"
    return f"{left // 60}:{left % 60:02d}"


async def board_now(live: LiveTable, seat: int | None, reader: Translator, rated: RatedRules | None) -> str:
    """The board of ``seat`` now, with its moves and, when the engine allows it, Undo (``live.lock`` held).

    ``rated``: the server's rated rules (a claim against the seat to move).
    """
    undo = await undo_offer(live, seat)
    return render_board(live.state, seat, live.log_of(seat), reader, live, undo=undo, rated=rated)


def _board_args(
    state: Any,
    seat: int | None,
    log: list[Any],
    reader: Translator,
    live: LiveTable | None = None,
    names: Sequence[str | None] = (),
    rated: RatedRules | None = None,
    words: str | None = None,
    undo: bool = False,
) -> dict[str, Any]:
    """What ``board.html`` renders for ``seat``: the view, the game's names and codes, prompt, badges, log, results.

    ``words``: an earlier position played back (issue #43): no move, and the prompt says the move in words.
    ``undo``: the seat may take its last moves back now (an Undo button).
    ``names``: the seats' chosen names (by default ``live``'s seats'), wherever a seat is named (issue #41, item 18).
    """
    view = game_view(state, seat, log, reader)
    if (live is not None and live.status != "live") or words is not None:
        view["legal_actions"] = []  # a waiting (or abandoned) table takes no move: none is offered, as in its frames
    game = state.game.name
    web = companion_for(game)
    obs = view["observation"]
    moves = move_texts(web, view["legal_actions"], reader)
    over = state.is_terminal()
    names = [s.name for s in live.seats] if live is not None and not names else list(names)
    notes = note_lines(live.takebacks, SPECTATOR if seat is None else seat) if live is not None else []
    return {
        "_": reader.gettext,
        "ngettext": reader.ngettext,
        "tr": reader.message,
        "tr_json": lambda data: web.say(data, reader),
        "game": game,
        "seat": seat,
        "view": view,
        "seat_name": lambda s: display_name(s, reader, seat, names),
        "round_phase": web.round_phase(obs, reader),
        "prompt": web.prompt(view, seat, reader),
        "moves": moves,
        "controls": [m for m in moves if m["type"] in web.controls],
        "log": log_lines(web, log, reader, seat, [m for _after, _seat, m in state.log_events], names, notes),
        "badges": badges(
            web, obs, live.public_seats() if live is not None else None, state.game.num_players, reader, seat, names
        ),
        "clock": clock_view(live.clock) if live is not None else None,
        "duration": lambda seconds: duration(seconds, reader),
        "table": live.id if live is not None else None,
        "results": web.results(obs, state.returns(), state.scores(), reader, seat, names) if over else None,
        "status": live.status if live is not None else "finished",
        "board": board_context(game, view, seat, reader, names),
        "playback": words,
        "undo": undo and words is None,
        **board_extras(live, seat, rated, reader),
    }


def render_board(
    state: Any,
    seat: int | None,
    log: list[Any],
    reader: Translator,
    live: LiveTable | None = None,
    names: Sequence[str | None] = (),
    rated: RatedRules | None = None,
    words: str | None = None,
    undo: bool = False,
) -> str:
    """The board fragment of ``seat`` (None: spectator), every clickable move named by its words.

    ``words`` and ``undo`` as :func:`_board_args`. ``names``: the seats' chosen names, if ``live`` does not give them
    (a replay). With ``live``, also the table's rules, how it ended, forfeits, a claim (``rated``: the server's rated
    rules) and a wait of its bots (:func:`meeple.web.table_rules.board_extras`).
    """
    args = _board_args(state, seat, log, reader, live, names, rated, words, undo)
    return name_the_moves(TEMPLATES.get_template("board.html").render(**args), args["moves"])
