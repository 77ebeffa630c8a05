"""``meeple play GAME --players 4 --humans 1``: humans in the terminal against bots, hot seat for several humans.

Hidden information: the human to move sees ``state.observation(seat)`` through the game's renderer and action
texts from their perspective only. With several humans, a hand-over screen comes before each human turn whose seat
differs from the previous human's, the screen is cleared, and bots' moves are shown as the public (spectator) sees
them; so one human's private information is never on screen while another human is to move.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from meeple.bots import Bot, make_bot
from meeple.bots.parallel import WORKERS_ENV
from meeple.cli.common import (
    GAME_OPTIONS,
    BotsOpt,
    PlayersOpt,
    RecordOpt,
    SeedOpt,
    VariantOpt,
    check_writable,
    cycle,
    fail,
    load_game_or_exit,
    parse_bots,
    seat_label,
    stdout_console,
    variant_words,
)
from meeple.cli.moves import Command, Problem, allowed, completions, interpret
from meeple.cli.render import Renderer, renderer_for
from meeple.core.action import Action
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.records import GameRecord, read_records, write_records
from meeple.core.rng import derive_seed
from meeple.core.state import SPECTATOR, State
from meeple.core.undo import undo_target
from meeple.core.view import SeatView
from meeple.i18n import _, known, ngettext, tr

_RECENT_LIMIT = 40
_COLUMNS_FROM = 12


def _texts_of(state: State[Any], action: Action, seat: int) -> tuple[str, str]:
    """Return an action's text as shown (current language) and in English, lower-cased, for matching input."""
    message = state.action_message(action, perspective=seat)
    return tr(message).lower(), str(message).lower()


def _why_not(state: State[Any], key: str, seat: int) -> str | None:
    """Why the move whose text is ``key`` (lower-cased, any language shown) is refused now, as a sentence, or None.

    The move is looked up among every action of the game (not only the legal ones); the reason is the game's
    (``State.why_illegal``): a full tower, a marked piece, not enough gold...
    """
    if not key:
        return None
    game = state.game
    for code in range(game.num_distinct_actions()):
        action = game.codec.decode(code)
        if key in _texts_of(state, action, seat):
            reason = state.why_illegal(action)
            return None if reason is None else _("Why: {reason}.").format(reason=tr(reason))
    return None


def _label(label: str) -> str:
    """Return a seat label in words: ``"human"`` is translated, a bot spec is not."""
    return _("human") if label == "human" else label


class QuitGame(Exception):
    """Raised inside a session when the human quits (or input ends); ``code`` is the exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class PlaySession:
    """One interactive game.

    Args:
        console: where to print.
        state: the initial state.
        humans: the human seats.
        bots: a bot per other seat.
        labels: a label per seat (``"human"`` or the bot kind), stored in the record.
        renderer: the game's renderer.
        record: file to save the record to, or ``None``.
        auto: play a human's decision that has a single legal move for them, and say so in the log.
        others: the games saved before and after this one in ``record`` (a resumed game is written back in place).
    """

    def __init__(
        self,
        console: Console,
        state: State[Any],
        humans: Sequence[int],
        bots: dict[int, Bot],
        labels: Sequence[str],
        renderer: Renderer,
        record: Path | None,
        auto: bool = True,
        others: tuple[list[GameRecord], list[GameRecord]] = ([], []),
    ) -> None:
        self.console = console
        self.auto = auto
        self.others = others
        self.state = state
        self.humans = sorted(humans)
        self.bots = bots
        self.labels = list(labels)
        self.renderer = renderer
        self.record = record
        self.hot_seat = len(self.humans) > 1
        self.seen: dict[int, int] = {seat: len(state.history) for seat in self.humans}
        self.last_human: int | None = None
        self.views = {seat: SeatView(state, seat) for seat in bots}
        self._last_live: tuple[int, str] | None = None
        self.decisions: dict[int, list[int]] = {}
        """Per human seat: the history lengths at which it chose among several moves (the points undo goes back to)."""

    # ------------------------------------------------------------------ helpers
    def _name(self, seat: int) -> str:
        if not self.hot_seat and seat in self.humans:
            return _("Seat {seat} (you)").format(seat=seat)
        return seat_label(seat, self.labels)

    def _line_editing(self, moves: Sequence[str]) -> None:
        """History (up arrow) and Tab completion of the moves shown and the commands, where readline exists."""
        if not self.console.is_terminal:
            return
        try:
            import readline
        except ImportError:  # pragma: no cover - Windows without pyreadline
            return

        def complete(text: str, index: int) -> str | None:
            found = completions(text, moves)
            return found[index] if index < len(found) else None

        readline.set_completer(complete)
        readline.set_completer_delims("")  # a move's whole text, spaces included
        readline.parse_and_bind("tab: complete")

    def _ask(self, prompt: str) -> str:
        try:
            return str(typer.prompt(prompt, default="", show_default=False))
        except typer.Abort:
            self.console.print("\n" + _("Input ended: the game is abandoned."))
            self._save(ask=False)
            raise QuitGame(1) from None

    def _confirm(self, prompt: str, default: bool) -> bool:
        try:
            return bool(typer.confirm(prompt, default=default))
        except typer.Abort:
            return default

    def _save(self, ask: bool) -> None:
        if self.record is None:
            return
        done = self.state.is_terminal()
        if (
            ask
            and not done
            and not self._confirm(_("Save the unfinished game to {file}?").format(file=self.record), True)
        ):
            return
        record = GameRecord.from_state(self.state, self.labels, finished=done)
        records = [*self.others[0], record, *self.others[1]]  # a resumed game keeps its place among the file's games
        try:
            write_records(self.record, records)
        except OSError as exc:  # a full disk: the game is not lost, its record goes to the screen
            problem = _("Cannot save to {file}: {error}.").format(file=self.record, error=exc.strerror or exc)
            self.console.print(
                f"[red]{escape(problem)}[/] " + escape(_("The record, to save by hand:")), soft_wrap=True
            )
            self.console.print(escape(json.dumps(record.to_json(), separators=(",", ":"))), soft_wrap=True)
            return
        saved = _("Saved the game to {file}") if done else _("Saved the unfinished game to {file}")
        self.console.print(escape(saved.format(file=self.record)), soft_wrap=True)

    def _live_perspective(self) -> int:
        return self.humans[0] if len(self.humans) == 1 else SPECTATOR

    # ------------------------------------------------------------------ display
    def _clear(self) -> None:
        """Clear the screen and, where the terminal supports it, its scroll-back (a no-op when not a terminal)."""
        if self.console.is_terminal:
            self.console.file.write("\x1b[H\x1b[2J\x1b[3J")
            self.console.file.flush()

    def _hand_over(self, seat: int) -> None:
        self._clear()
        self.console.print(Panel(_("Pass to seat {seat} — press Enter").format(seat=seat), expand=False, style="bold"))
        self._ask(_("Seat {seat}, press Enter when ready").format(seat=seat))
        self._clear()

    def _recent(self, seat: int) -> list[str]:
        lines = []
        for actor, message in self.state.history_messages(seat, self.seen[seat]):
            if actor != seat:
                lines.append(f"{escape(self._name(actor))}: {escape(tr(message))}")
        if len(lines) > _RECENT_LIMIT:
            earlier = len(lines) - _RECENT_LIMIT
            more = ngettext("... {n} earlier action", "... {n} earlier actions", earlier).format(n=earlier)
            lines = [more] + lines[-_RECENT_LIMIT:]
        return lines

    def _show_moves(self, texts: Sequence[str]) -> None:
        width = len(str(len(texts)))
        items = [f"  [bold]{i:>{width}}[/]. {escape(text)}" for i, text in enumerate(texts, 1)]
        if len(items) > _COLUMNS_FROM:
            self.console.print(Columns(items, column_first=True, padding=(0, 2)))
        else:
            for item in items:
                self.console.print(item)

    def _show_board(self, seat: int) -> None:
        self.console.print(self.renderer.render(self.state.observation(seat), seat))

    def _show_help(self, texts: Sequence[str]) -> None:
        self.console.print(
            Panel(
                _(
                    "Type the [bold]number[/] of a move, or its text (case-insensitive; a unique beginning is "
                    "enough), in the language shown or in English.\n"
                    "[bold]help[/]: this help and the moves   [bold]board[/]: show the game again\n"
                    "[bold]rules[/]: the rules summary         [bold]quit[/]: leave the game (asks first)\n"
                    "[bold]undo[/]: take back your last move, unless something was revealed to you since"
                ),
                title=_("Commands"),
                expand=False,
            )
        )
        if self.renderer.shortcuts:
            self.console.print(escape(known(self.renderer.shortcuts)), soft_wrap=True)
        self._show_moves(texts)

    # ------------------------------------------------------------------ turns
    def _resolve(self, seat: int, texts: Sequence[str]) -> list[Action] | str:
        """Check a sequence of action texts on a copy of the state; return the actions or what is wrong."""
        trial = self.state.clone()
        actions: list[Action] = []
        for i, wanted in enumerate(texts):
            if trial.is_terminal() or trial.current_player() != seat:
                if i:
                    return _("{move!r} cannot be played after {previous!r}: your turn is over.").format(
                        move=wanted, previous=texts[i - 1]
                    )
                return _("{move!r} cannot be played: your turn is over.").format(move=wanted)
            legal = trial.legal_actions()
            key = wanted.strip().lower()
            found = [a for a in legal if key in _texts_of(trial, a, seat)]
            if not found:
                reason = _why_not(trial, key, seat)
                if i:
                    refused = _("{move!r} is not a legal move after {previous!r}.").format(
                        move=wanted, previous=texts[i - 1]
                    )
                else:
                    refused = _("{move!r} is not a legal move.").format(move=wanted)
                return refused if reason is None else f"{refused} {reason}"
            trial.apply_action(found[0])
            actions.append(found[0])
        return actions

    def _from_json(self, line: str) -> list[Action] | str:
        try:
            action = self.state.string_to_action(line)
        except MeepleError as exc:
            return tr(exc.message)
        if action not in self.state.legal_actions():
            return _("that action is not a legal move now.")
        return [action]

    def _only_move(self, seat: int) -> bool:
        """Play the seat's only legal move for it (``--no-auto`` turns this off); the log line says so."""
        legal = self.state.legal_actions()
        if not self.auto or len(legal) != 1:
            return False
        # hot seat: the screen is shared, so the move is shown as the other seats see it
        perspective = SPECTATOR if self.hot_seat else seat
        text = tr(self.state.action_message(legal[0], perspective=perspective))
        before = len(self.state.log_events)
        self.state.apply_action(legal[0], player=seat)
        note = _("the only legal move, played for you")
        self.console.print(f"[green]{escape(self._name(seat))}: {escape(text)}[/] [dim]({escape(note)})[/]")
        self._print_events(before)
        return True

    def _print_events(self, before: int) -> None:
        """Print what the rules did on their own after the last move (public: a character revealed, a theft...)."""
        for _after, seat, message in self.state.log_events[before:]:
            self.console.print(f"[dim]{escape(self._name(seat))}: {escape(tr(message))}[/]")

    def _human_turn(self, seat: int) -> None:
        if self._only_move(seat):
            return
        if self.hot_seat and seat != self.last_human:
            self._hand_over(seat)
        self.last_human = seat
        state = self.state
        self.console.rule(escape(_("{player} to move").format(player=self._name(seat))))
        self._show_board(seat)
        recent = self._recent(seat)
        if recent:
            self.console.print(Panel("\n".join(recent), title=_("Since your last turn"), expand=False))
        legal = state.legal_actions()
        texts = [tr(state.offer_message(a, perspective=seat)) for a in legal]
        english = [state.action_to_string(a, perspective=seat) for a in legal]
        self._show_moves(texts)
        self._line_editing(texts)
        while True:
            line = self._ask(_("Seat {seat}, your move").format(seat=seat))
            if line.strip().startswith("{"):
                chosen = self._from_json(line.strip())
            else:
                parsed = interpret(line, texts, self.renderer.parse_input, english)
                if isinstance(parsed, Problem):
                    reason = _why_not(state, line.strip().lower(), seat)
                    shown = parsed.message if reason is None else f"{parsed.message} {reason}"
                    self.console.print(f"[red]{escape(shown)}[/]", soft_wrap=True)
                    continue
                if isinstance(parsed, Command):
                    if self._command(parsed.name, seat, texts):
                        return  # undone: the turn starts again from the earlier position
                    continue
                chosen = self._resolve(seat, parsed.texts)
            if isinstance(chosen, str):
                hint = escape(allowed(len(texts)).capitalize())
                self.console.print(f"[red]{escape(chosen)}[/] {hint}.", soft_wrap=True)
                continue
            self.decisions.setdefault(seat, []).append(len(state.history))
            for action in chosen:
                text = tr(state.action_message(action, perspective=seat))
                before = len(state.log_events)
                state.apply_action(action, player=seat)
                self.console.print(f"[green]{escape(self._name(seat))}: {escape(text)}[/]")
                self._print_events(before)
            self.seen[seat] = len(state.history)
            return

    def _command(self, name: str, seat: int, texts: Sequence[str]) -> bool:
        """Run a command; return True when the position changed (undo) and the turn must start again."""
        if name == "undo":
            return self._undo(seat, texts)
        if name == "help":
            self._show_help(texts)
        elif name == "rules":
            self.console.print(Markdown(tr(type(self.state.game).rules_summary_message())))
            self._show_moves(texts)
        elif name == "board":
            self._show_board(seat)
            self._show_moves(texts)
        elif name == "quit":
            if self._confirm(_("Really quit this game?"), False):
                self._save(ask=True)
                self.console.print(_("Game abandoned."))
                raise QuitGame(0)
            self._show_moves(texts)
        return False

    def _undo(self, seat: int, texts: Sequence[str]) -> bool:
        """Go back to ``seat``'s previous decision when nothing was revealed since (:mod:`meeple.core.undo`)."""
        earlier, reason = undo_target(self.state, seat, self.decisions.get(seat, []), self.humans)
        if earlier is None:
            problem = _("Undo is not possible: {reason}.").format(reason=tr(reason) if reason else "")
            self.console.print(f"[red]{escape(problem)}[/]", soft_wrap=True)
            self._show_moves(texts)
            return False
        back = len(earlier.history)
        self.state = earlier
        self.views = {s: SeatView(earlier, s) for s in self.bots}
        self.decisions[seat] = [d for d in self.decisions.get(seat, []) if d < back]
        self.seen[seat] = back
        self._last_live = None
        done = _("Taken back: you are at your previous decision again.")
        self.console.print(f"[yellow]{escape(done)}[/]")
        return True

    def _bot_turn(self, seat: int) -> None:
        if self.console.is_terminal:  # a search takes seconds: say so (nothing is drawn in a pipe or a file)
            with self.console.status(escape(_("{player} is thinking…").format(player=self._name(seat)))):
                action = self.bots[seat].select_action(self.views[seat])
        else:
            action = self.bots[seat].select_action(self.views[seat])
        perspective = self._live_perspective()
        message = self.state.action_message(action, perspective=perspective, actor=seat)
        hidden = message != self.state.action_message(action, perspective=None, actor=seat)
        text = tr(message)
        before = len(self.state.log_events)
        self.state.apply_action(action, player=seat)
        if hidden and self._last_live == (seat, text):
            return  # a run of hidden steps (a sealed bid entered card by card) is shown once
        self._last_live = (seat, text) if hidden else None
        self.console.print(f"[dim]{escape(self._name(seat))}: {escape(text)}[/]")
        self._print_events(before)

    # ------------------------------------------------------------------ game
    def run(self) -> int:
        """Play to the end (or until the human quits); return the exit code."""
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player()
                if seat in self.seen:
                    self._human_turn(seat)
                else:
                    self._bot_turn(seat)
        except QuitGame as stop:
            return stop.code
        except KeyboardInterrupt:
            self.console.print("\n" + _("Interrupted: the game is abandoned."))
            self._save(ask=False)
            return 130
        self._final()
        self._save(ask=False)
        return 0

    def _final(self) -> None:
        state = self.state
        self.console.rule(_("Game over"))
        self.console.print(_("Seed {seed} (this game is replayed by its seed and moves)").format(seed=state.seed))
        self.console.print(self.renderer.render(state.observation(None), None))
        scores, returns = state.scores(), state.returns()
        best = max(returns)
        winners = [s for s, r in enumerate(returns) if r == best and (best > 0 or min(returns) < best)]
        table = Table(title=_("Final scores"), title_justify="left")
        for name in (_("seat"), _("player"), _("score"), _("result")):
            table.add_column(name)
        for s in range(len(scores)):
            table.add_row(str(s), _label(self.labels[s]), f"{scores[s]:g}", _result(s, winners))
        observation = state.observation(None)
        solo = observation.get("solo_result")
        rob = observation.get("rob")
        if isinstance(solo, dict) and isinstance(rob, dict):  # ROB is not a seat, but the solo game is against it
            table.add_row("-", str(solo["opponent"]), str(rob["score"]), _("won") if not winners else _("lost"))
        self.console.print(table)
        if isinstance(solo, dict):
            outcome = _("You win") if winners else _("{player} wins").format(player=solo["opponent"])
            line = _("{outcome}: margin {margin:+d} points, rating: {rating}").format(
                outcome=outcome, margin=solo["margin"], rating=known(str(solo["rating"]))
            )
            self.console.print(f"[bold]{escape(line)}[/]")
            return
        names = ", ".join(self._name(s) for s in winners) or _("nobody")
        line = ngettext("Winner: {names}", "Winners: {names}", max(1, len(winners))).format(names=names)
        self.console.print(f"[bold]{escape(line)}[/]")


def _result(seat: int, winners: Sequence[int]) -> str:
    """A seat's result in words: won, shared the win (with how many), or lost."""
    if seat not in winners:
        return _("lost")
    if len(winners) == 1:
        return _("won")
    return ngettext("shared the win with {n} other", "shared the win with {n} others", len(winners) - 1).format(
        n=len(winners) - 1
    )


def _human_seats(humans: int, seats: str | None, num_players: int) -> list[int]:
    if seats is not None:
        try:
            chosen = [int(s) for s in seats.split(",") if s.strip()]
        except ValueError:
            fail(_("--seats expects comma-separated seat numbers, not {seats!r}").format(seats=seats))
        if len(set(chosen)) != len(chosen) or any(not 0 <= s < num_players for s in chosen):
            fail(
                _("--seats must list distinct seats from 0 to {last}, not {seats!r}").format(
                    last=num_players - 1, seats=seats
                )
            )
        return chosen
    if not 0 <= humans <= num_players:
        fail(
            _("--humans must be from 0 to {players} (the number of players), not {humans}").format(
                players=num_players, humans=humans
            )
        )
    return list(range(humans))


def _intro(console: Console, game: Game[Any], state: State[Any], labels: Sequence[str], humans: Sequence[int]) -> None:
    players = ", ".join(
        _("seat {seat}: {player}").format(
            seat=s, player=_("you") if len(humans) == 1 and s in humans else _label(labels[s])
        )
        for s in range(game.num_players)
    )
    console.print(f"[bold]{escape(known(game.title))}[/] — {escape(players)}", soft_wrap=True)
    # The seed rebuilds every hand: it is the game master's secret until the game is over (see _final).
    console.print(escape(_("Variants: {flags}").format(flags=variant_words(game))), soft_wrap=True)
    console.print(_("Type [bold]help[/] at your turn for the commands."))


def play(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(help="Registered game name (see `meeple games`).")] = None,
    players: PlayersOpt = None,
    humans: Annotated[int, typer.Option("--humans", "-H", help="Human seats 0..H-1 (hot seat if several).")] = 1,
    seats: Annotated[
        str | None, typer.Option("--seats", help="Comma-separated human seats, e.g. 0,2 (overrides --humans).")
    ] = None,
    bots: BotsOpt = None,
    seed: SeedOpt = None,
    variant: VariantOpt = None,
    record: RecordOpt = None,
    server: Annotated[
        str | None, typer.Option("--server", help="Play at a server's table instead (http://HOST:PORT).")
    ] = None,
    table: Annotated[str | None, typer.Option("--table", help="With --server: the table id.")] = None,
    token: Annotated[
        str | None, typer.Option("--token", help="With --server: your seat's token (none: watch as a spectator).")
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            help="With --server: take a seat under this name, an open seat of --table, or else a quick match of GAME.",
        ),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option(
            "--user",
            help="With --server: log in as this account (the password is asked); its seats open without a token.",
        ),
    ] = None,
    auto: Annotated[
        bool,
        typer.Option("--auto/--no-auto", help="Play a decision with a single legal move for you (the log says so)."),
    ] = True,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help="Continue the last unfinished game saved in this file (by --record, or on quitting); it is saved "
            "back there.",
        ),
    ] = None,
) -> None:
    """Play GAME in the terminal: human seats against bots (several humans play hot seat).

    Every variant flag of the game is also an option: --config B, --provisional-powers, --quick-game 7 ...
    (see `meeple rules GAME`). With --server URL --table ID --token T, play a seat of a server's table
    (`meeple serve` prints these lines). With --server URL --name NAME, take an open seat of --table ID, or a quick
    match of GAME with --players N. With --server URL --user NAME (the password is asked), play as that account:
    a seat of --table bound to it opens without a token; else a seat of --table or a quick match of GAME is taken
    and bound to it.
    """
    if server is not None or table is not None or token is not None or name is not None or user is not None:
        login = _log_in(server, user) if user is not None else None
        note = None
        if name is not None or (login is not None and table is None):
            table, token = _take_seat(server, table, name, game, players, login)
        elif login is not None and token is None and table is not None:
            token, note = _join_as_account(server, table, login)
        _play_online(server, table, token, login, note)
        return
    os.environ.setdefault(WORKERS_ENV, "cores")  # a human waits: an ismcts:...:workers=auto bot uses every core
    if resume is not None:
        _resume(ctx, resume, game, record, auto)
        return
    if game is None:
        fail(_("give a GAME to play (see `meeple games`), or --server URL --table ID to join a server's table"))
    loaded = load_game_or_exit(game, players, variant, ctx.args)
    if record is not None:
        check_writable(record, "--record")
    human_seats = _human_seats(humans, seats, loaded.num_players)
    bot_seats = [s for s in range(loaded.num_players) if s not in human_seats]
    specs = parse_bots(bots, game) if bot_seats else []
    labels = ["human"] * loaded.num_players
    for spec, seat in zip(cycle(specs, len(bot_seats)), bot_seats, strict=True):
        labels[seat] = spec
    try:
        state = loaded.new_initial_state(seed)
        bot_objects = {s: make_bot(labels[s], game, seed=derive_seed(state.seed, "bot", s)) for s in bot_seats}
    except MeepleError as exc:
        fail(exc)
    console = stdout_console()
    _intro(console, loaded, state, labels, human_seats)
    session = PlaySession(console, state, human_seats, bot_objects, labels, renderer_for(game), record, auto=auto)
    code = session.run()
    if code:
        raise typer.Exit(code)


def _given(ctx: typer.Context, name: str) -> bool:
    """The option ``name`` was written on the command line (not left at its default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"


def _resume(ctx: typer.Context, path: Path, game: str | None, record: Path | None, auto: bool) -> None:
    """Continue the last unfinished game of ``path``: its seats, bots and moves come from the file."""
    given = [f"--{name}" for name in ("players", "humans", "seats", "bots", "seed", "variant") if _given(ctx, name)]
    if given or ctx.args:
        fail(
            _("--resume takes the game, its seats and its moves from the file; drop {options}").format(
                options=", ".join(given + list(ctx.args))
            )
        )
    try:
        records = list(read_records(path))
    except FileNotFoundError:
        fail(_("no such file: {file}").format(file=path))
    except (OSError, MeepleError) as exc:
        fail(exc)
    open_games = [i for i, r in enumerate(records) if not r.returns and r.meta.get("finished") is not True]
    if not open_games:
        fail(_("{file} holds no unfinished game ({n} finished): nothing to resume").format(file=path, n=len(records)))
    index = open_games[-1]
    saved = records[index]
    if game is not None and game != saved.game:
        fail(_("{file} holds a game of {saved}, not {game}").format(file=path, saved=saved.game, game=game))
    try:
        state = saved.replay()
    except MeepleError as exc:
        fail(exc)
    labels = saved.players or ["human"] + ["random"] * (state.game.num_players - 1)
    humans = [s for s, label in enumerate(labels) if label == "human"]
    try:
        bots = {
            s: make_bot(labels[s], saved.game, seed=derive_seed(state.seed, "bot", s, len(state.history)))
            for s in range(len(labels))
            if s not in humans
        }
    except MeepleError as exc:
        fail(exc)
    console = stdout_console()
    _intro(console, state.game, state, labels, humans)
    moves = len(state.history)
    resumed = ngettext("Resumed from {file} after {n} move.", "Resumed from {file} after {n} moves.", moves)
    console.print(escape(resumed.format(file=path, n=moves)), soft_wrap=True)
    target = record if record is not None else path
    others = (records[:index], records[index + 1 :]) if target == path else ([], [])
    session = PlaySession(
        console, state, humans, bots, labels, renderer_for(saved.game), target, auto=auto, others=others
    )
    code = session.run()
    if code:
        raise typer.Exit(code)


def _log_in(server: str | None, user: str) -> str:
    """``--user``: ask the password (not echoed) and log in; return the session token."""
    import getpass

    from meeple.cli.online import OnlineError, log_in

    if server is None:
        fail(_("--user logs in to a server: give --server URL too"))
    try:
        password = getpass.getpass(_("Password for {user}: ").format(user=user))
    except (EOFError, KeyboardInterrupt):
        fail(_("no password given"), code=1)
    try:
        return log_in(server, user, password)
    except OnlineError as exc:
        fail(exc, code=1)


def _take_seat(
    server: str | None,
    table: str | None,
    name: str | None,
    game: str | None,
    players: int | None,
    session: str | None = None,
) -> tuple[str, str]:
    """``--name`` (or ``--user``): join an open seat of ``table``, or a quick match of ``game``; the table, token."""
    from meeple.cli.online import OnlineError, take_seat

    if server is None or (table is None and game is None):
        fail(_("--name takes a seat: give --server URL and --table ID, or --server URL and a GAME (quick match)"))
    count = load_game_or_exit(game, players, None).num_players if table is None and game is not None else 0
    try:
        return take_seat(server, table, name, game, count, session)
    except OnlineError as exc:
        fail(exc, code=1)


def _join_as_account(server: str | None, table: str, session: str) -> tuple[str | None, str | None]:
    """``--user NAME --table ID``: take an open seat for the account (its seat there, if it has one, opens anyway).

    Returns the seat's token (None: no seat taken) and, when none was taken, why (the server's words): a user who
    asked for a seat is never made a spectator without being told (issue #44, item 9).
    """
    from meeple.cli.online import OnlineError, take_seat

    if server is None:
        fail(_("--user logs in to a server: give --server URL too"))
    try:
        return take_seat(server, table, None, session=session)[1], None
    except OnlineError as exc:
        return None, _("No seat taken ({reason}): unless a seat there is yours already, you watch.").format(reason=exc)


def _play_online(
    server: str | None, table: str | None, token: str | None, session: str | None = None, note: str | None = None
) -> None:
    from meeple.cli.online import OnlineError, play_online

    if server is None or table is None:
        fail(_("an online table needs --server URL and --table ID (and --token T to play a seat)"))
    try:
        code = play_online(stdout_console(), server, table, token, session, note)
    except OnlineError as exc:
        fail(exc, code=1)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""
    app.command("play", context_settings=GAME_OPTIONS)(play)
