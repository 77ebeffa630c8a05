"""``meeple replay FILE``: step through a recorded game from one seat's view or the full view.

Interactive keys: Enter = next step, ``b`` = back, a number = jump to that step, ``q`` = quit. ``--auto`` prints
every step without asking (for scripts and tests).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from meeple.cli.common import fail, seat_label, stdout_console
from meeple.cli.render import Renderer, renderer_for
from meeple.core.errors import MeepleError
from meeple.core.records import GameRecord, read_records
from meeple.core.registry import load_game
from meeple.core.state import State
from meeple.i18n import _, tr


class RecordStepper:
    """The states of a recorded game, built on demand by applying the actions one by one (cached).

    Args:
        record: the game record.

    Raises:
        InvalidParameterError: the record's game is unknown or its parameters are invalid.
    """

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        game = load_game(record.game, **record.params)
        self.states: list[State[Any]] = [game.new_initial_state(record.seed)]
        self.steps = len(record.actions)

    def state(self, step: int) -> State[Any]:
        """Return the state after ``step`` actions (``0 <= step <= steps``).

        Raises:
            InvalidStateError: an action of the record is not legal; the message gives its index.
        """
        while len(self.states) <= step:
            i = len(self.states) - 1
            state = self.states[-1].clone()
            try:
                state.apply_action(self.record.actions[i])
            except MeepleError as exc:
                raise MeepleError(f"the record's action {i} cannot be replayed: {exc}") from exc
            self.states.append(state)
        return self.states[step]


def _show_step(console: Console, stepper: RecordStepper, step: int, seat: int | None, renderer: Renderer) -> None:
    record = stepper.record
    state = stepper.state(step)
    who = _("full view") if seat is None else _("seat {seat}'s view").format(seat=seat)
    console.rule(escape(_("Step {step}/{steps} — {who}").format(step=step, steps=stepper.steps, who=who)))
    if step > 0:
        actor, action = state.history[step - 1]
        text = tr(state.action_message(action, perspective=seat, actor=actor))
        console.print(f"[bold]{escape(seat_label(actor, record.players))}:[/] {escape(text)}")
    else:
        console.print(_("Initial position"))
    if seat is not None:
        console.print(renderer.render(state.observation(seat), seat))
    else:
        console.print(renderer.render(state.observation(None), None))
        for s in range(state.game.num_players):
            console.print(renderer.render(state.observation(s), s))
    if state.is_terminal():
        _show_result(console, state, record.players)


def _show_result(console: Console, state: State[Any], labels: list[str]) -> None:
    table = Table(title=_("Final scores"), title_justify="left")
    for name in (_("seat"), _("player"), _("score"), _("return")):
        table.add_column(name)
    scores, returns = state.scores(), state.returns()
    for s in range(len(scores)):
        label = labels[s] if s < len(labels) else ""
        table.add_row(str(s), label, f"{scores[s]:g}", f"{returns[s]:g}")
    console.print(table)


def _interactive(console: Console, stepper: RecordStepper, step: int, seat: int | None, renderer: Renderer) -> None:
    while True:
        _show_step(console, stepper, step, seat, renderer)
        while True:
            try:
                prompt = _("Enter: next, b: back, number: jump, q: quit")
                key = str(typer.prompt(prompt, default="", show_default=False))
            except typer.Abort:
                return
            key = key.strip().lower()
            if key in ("q", "quit", "exit"):
                return
            if key == "":
                if step < stepper.steps:
                    step += 1
                    break
                console.print(
                    escape(_("This is the last step: b to go back, a number to jump, q to quit.")), style="red"
                )
            elif key in ("b", "back"):
                if step > 0:
                    step -= 1
                    break
                console.print(escape(_("This is the first step: Enter for the next one, q to quit.")), style="red")
            elif key.isdigit() and int(key) <= stepper.steps:
                step = int(key)
                break
            else:
                wrong = _("{key!r} is not a command: Enter, b, a step from 0 to {steps}, q.")
                console.print(escape(wrong.format(key=key, steps=stepper.steps)), style="red")


def replay(
    file: Annotated[Path, typer.Argument(help="A JSON Lines file of game records (from --record).")],
    game_index: Annotated[int, typer.Option("--game-index", "-k", min=0, help="Which record of the file.")] = 0,
    seat: Annotated[int | None, typer.Option("--seat", help="Show that seat's view (what it may know).")] = None,
    full: Annotated[bool, typer.Option("--full", help="Show the full view: every seat's observation.")] = False,
    step: Annotated[int, typer.Option("--step", min=0, help="Start at this step (number of actions played).")] = 0,
    auto: Annotated[bool, typer.Option("--auto", help="Print every step without asking.")] = False,
) -> None:
    """Step through a recorded game from one seat's view (--seat S) or the full view (--full, the default)."""
    if full and seat is not None:
        fail(_("give --seat or --full, not both"))
    try:
        records = list(read_records(file))
    except FileNotFoundError:
        fail(_("no such file: {file}").format(file=file))
    except IsADirectoryError:
        fail(_("{file} is a directory, not a file of game records (from --record)").format(file=file))
    except OSError as exc:
        fail(_("cannot read {file}: {error}").format(file=file, error=exc.strerror or exc))
    except MeepleError as exc:
        fail(exc)
    if not records:
        fail(_("{file} holds no game record").format(file=file))
    if game_index >= len(records):
        fail(
            _("--game-index {index} is out of range: {file} holds {n} records (0..{last})").format(
                index=game_index, file=file, n=len(records), last=len(records) - 1
            )
        )
    record = records[game_index]
    try:
        stepper = RecordStepper(record)
    except MeepleError as exc:
        fail(exc)
    num_players = stepper.states[0].game.num_players
    if seat is not None and not 0 <= seat < num_players:
        fail(_("--seat must be from 0 to {last}, not {seat}").format(last=num_players - 1, seat=seat))
    if step > stepper.steps:
        fail(_("--step must be from 0 to {last}, not {step}").format(last=stepper.steps, step=step))
    console = stdout_console()
    labels = ", ".join(seat_label(s, record.players) for s in range(num_players))
    try:
        finished = stepper.state(stepper.steps).is_terminal()
    except MeepleError as exc:
        fail(exc)
    # The seed of a game in progress rebuilds every hand: shown only once the game is over.
    if finished:
        head = _("{game} seed {seed}, {n} actions (finished): {players}")
    else:
        head = _("{game} {n} actions (unfinished): {players}")
    console.print(escape(head.format(game=record.game, seed=record.seed, n=stepper.steps, players=labels)))
    renderer = renderer_for(record.game)
    try:
        if auto:
            for i in range(step, stepper.steps + 1):
                _show_step(console, stepper, i, seat, renderer)
        else:
            _interactive(console, stepper, step, seat, renderer)
    except MeepleError as exc:
        fail(exc)


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to ``app``."""
    app.command("replay")(replay)
