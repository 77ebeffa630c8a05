"""``meeple play GAME --players 4 --humans 1``: humans in the terminal against bots, hot seat for several humans.

Hidden information: the human to move sees ``state.observation(seat)`` through the game's renderer and action
texts from their perspective only. With several humans, a hand-over screen comes before each human turn whose seat
differs from the previous human's, the screen is cleared, and bots' moves are shown as the public (spectator) sees
them; so one human's private information is never on screen while another human is to move.
"""

from __future__ import annotations

import json
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
)
from meeple.cli.moves import Command, Problem, allowed, interpret
from meeple.cli.render import Renderer, renderer_for
from meeple.core.action import Action
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.records import GameRecord, write_records
from meeple.core.rng import derive_seed
from meeple.core.state import SPECTATOR, State
from meeple.core.view import SeatView

_RECENT_LIMIT = 40
_COLUMNS_FROM = 12


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
    ) -> None:
        self.console = console
        self.state = state
        self.humans = sorted(humans)
        self.bots = bots
        self.labels = list(labels)
        self.renderer = renderer
        self.record = record
        self.hot_seat = len(self.humans) > 1
        self.seen: dict[int, int] = {seat: 0 for seat in self.humans}
        self.last_human: int | None = None
        self.views = {seat: SeatView(state, seat) for seat in bots}
        self._last_live: tuple[int, str] | None = None

    # ------------------------------------------------------------------ helpers
    def _name(self, seat: int) -> str:
        if not self.hot_seat and seat in self.humans:
            return f"Seat {seat} (you)"
        return seat_label(seat, self.labels)

    def _ask(self, prompt: str) -> str:
        try:
            return str(typer.prompt(prompt, default="", show_default=False))
        except typer.Abort:
            self.console.print("\nInput ended: the game is abandoned.")
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
        if ask and not done and not self._confirm(f"Save the unfinished game to {self.record}?", True):
            return
        record = GameRecord.from_state(self.state, self.labels, finished=done)
        try:
            write_records(self.record, [record])
        except OSError as exc:  # a full disk: the game is not lost, its record goes to the screen
            self.console.print(
                f"[red]Cannot save to {escape(str(self.record))}: {escape(exc.strerror or str(exc))}.[/] "
                "The record, to save by hand:",
                soft_wrap=True,
            )
            self.console.print(escape(json.dumps(record.to_json(), separators=(",", ":"))), soft_wrap=True)
            return
        what = "game" if done else "unfinished game"
        self.console.print(f"Saved the {what} to {escape(str(self.record))}", soft_wrap=True)

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
        self.console.print(Panel(f"Pass to seat {seat} — press Enter", expand=False, style="bold"))
        self._ask(f"Seat {seat}, press Enter when ready")
        self._clear()

    def _recent(self, seat: int) -> list[str]:
        lines = []
        for actor, text in self.state.history_texts(seat, self.seen[seat]):
            if actor != seat:
                lines.append(f"{escape(self._name(actor))}: {escape(text)}")
        if len(lines) > _RECENT_LIMIT:
            lines = [f"... {len(lines) - _RECENT_LIMIT} earlier actions"] + lines[-_RECENT_LIMIT:]
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
                "Type the [bold]number[/] of a move, or its text (case-insensitive; a unique beginning is enough).\n"
                "[bold]help[/]: this help and the moves   [bold]board[/]: show the game again\n"
                "[bold]rules[/]: the rules summary         [bold]quit[/]: leave the game (asks first)",
                title="Commands",
                expand=False,
            )
        )
        self._show_moves(texts)

    # ------------------------------------------------------------------ turns
    def _resolve(self, seat: int, texts: Sequence[str]) -> list[Action] | str:
        """Check a sequence of action texts on a copy of the state; return the actions or what is wrong."""
        trial = self.state.clone()
        actions: list[Action] = []
        for i, wanted in enumerate(texts):
            after = f" after {texts[i - 1]!r}" if i else ""
            if trial.is_terminal() or trial.current_player() != seat:
                return f"{wanted!r} cannot be played{after}: your turn is over."
            legal = trial.legal_actions()
            found = [a for a in legal if trial.action_to_string(a, perspective=seat).lower() == wanted.strip().lower()]
            if not found:
                return f"{wanted!r} is not a legal move{after}."
            trial.apply_action(found[0])
            actions.append(found[0])
        return actions

    def _from_json(self, line: str) -> list[Action] | str:
        try:
            action = self.state.string_to_action(line)
        except MeepleError as exc:
            return str(exc)
        if action not in self.state.legal_actions():
            return "that action is not a legal move now."
        return [action]

    def _human_turn(self, seat: int) -> None:
        if self.hot_seat and seat != self.last_human:
            self._hand_over(seat)
        self.last_human = seat
        state = self.state
        self.console.rule(f"{escape(self._name(seat))} to move")
        self._show_board(seat)
        recent = self._recent(seat)
        if recent:
            self.console.print(Panel("\n".join(recent), title="Since your last turn", expand=False))
        legal = state.legal_actions()
        texts = [state.action_to_string(a, perspective=seat) for a in legal]
        self._show_moves(texts)
        while True:
            line = self._ask(f"Seat {seat}, your move")
            if line.strip().startswith("{"):
                chosen = self._from_json(line.strip())
            else:
                parsed = interpret(line, texts, self.renderer.parse_input)
                if isinstance(parsed, Problem):
                    self.console.print(f"[red]{escape(parsed.message)}[/]", soft_wrap=True)
                    continue
                if isinstance(parsed, Command):
                    self._command(parsed.name, seat, texts)
                    continue
                chosen = self._resolve(seat, parsed.texts)
            if isinstance(chosen, str):
                hint = escape(allowed(len(texts)).capitalize())
                self.console.print(f"[red]{escape(chosen)}[/] {hint}.", soft_wrap=True)
                continue
            for action in chosen:
                text = state.action_to_string(action, perspective=seat)
                state.apply_action(action, player=seat)
                self.console.print(f"[green]{escape(self._name(seat))}: {escape(text)}[/]")
            self.seen[seat] = len(state.history)
            return

    def _command(self, name: str, seat: int, texts: Sequence[str]) -> None:
        if name == "help":
            self._show_help(texts)
        elif name == "rules":
            self.console.print(Markdown(type(self.state.game).rules_summary()))
            self._show_moves(texts)
        elif name == "board":
            self._show_board(seat)
            self._show_moves(texts)
        elif name == "quit":
            if self._confirm("Really quit this game?", False):
                self._save(ask=True)
                self.console.print("Game abandoned.")
                raise QuitGame(0)
            self._show_moves(texts)

    def _bot_turn(self, seat: int) -> None:
        action = self.bots[seat].select_action(self.views[seat])
        perspective = self._live_perspective()
        text = self.state.action_to_string(action, perspective=perspective, actor=seat)
        hidden = text != self.state.action_to_string(action, perspective=None, actor=seat)
        self.state.apply_action(action, player=seat)
        if hidden and self._last_live == (seat, text):
            return  # a run of hidden steps (a sealed bid entered card by card) is shown once
        self._last_live = (seat, text) if hidden else None
        self.console.print(f"[dim]{escape(self._name(seat))}: {escape(text)}[/]")

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
            self.console.print("\nInterrupted: the game is abandoned.")
            self._save(ask=False)
            return 130
        self._final()
        self._save(ask=False)
        return 0

    def _final(self) -> None:
        state = self.state
        self.console.rule("Game over")
        self.console.print(f"Seed {state.seed} (this game is replayed by its seed and moves)")
        self.console.print(self.renderer.render(state.observation(None), None))
        scores, returns = state.scores(), state.returns()
        best = max(returns)
        winners = [s for s, r in enumerate(returns) if r == best and (best > 0 or min(returns) < best)]
        table = Table(title="Final scores", title_justify="left")
        for name in ("seat", "player", "score", "return", ""):
            table.add_column(name)
        for s in range(len(scores)):
            table.add_row(str(s), self.labels[s], f"{scores[s]:g}", f"{returns[s]:g}", "winner" if s in winners else "")
        self.console.print(table)
        solo = state.observation(None).get("solo_result")
        if isinstance(solo, dict):
            outcome = "You win" if winners else f"{solo['opponent']} wins"
            self.console.print(
                f"[bold]{escape(outcome)}: margin {solo['margin']:+d} points, rating: {escape(str(solo['rating']))}[/]"
            )
            return
        names = ", ".join(self._name(s) for s in winners) or "nobody"
        self.console.print(f"[bold]Winner{'s' if len(winners) > 1 else ''}: {escape(names)}[/]")


def _human_seats(humans: int, seats: str | None, num_players: int) -> list[int]:
    if seats is not None:
        try:
            chosen = [int(s) for s in seats.split(",") if s.strip()]
        except ValueError:
            fail(f"--seats expects comma-separated seat numbers, not {seats!r}")
        if len(set(chosen)) != len(chosen) or any(not 0 <= s < num_players for s in chosen):
            fail(f"--seats must list distinct seats from 0 to {num_players - 1}, not {seats!r}")
        return chosen
    if not 0 <= humans <= num_players:
        fail(f"--humans must be from 0 to {num_players} (the number of players), not {humans}")
    return list(range(humans))


def _intro(console: Console, game: Game[Any], state: State[Any], labels: Sequence[str], humans: Sequence[int]) -> None:
    players = ", ".join(
        f"seat {s}: {'you' if len(humans) == 1 and s in humans else labels[s]}" for s in range(game.num_players)
    )
    console.print(f"[bold]{escape(game.title)}[/] — {escape(players)}", soft_wrap=True)
    # The seed rebuilds every hand: it is the game master's secret until the game is over (see _final).
    console.print(f"Variant {escape(json.dumps(game.params_dict()))}", soft_wrap=True)
    console.print("Type [bold]help[/] at your turn for the commands.")


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
) -> None:
    """Play GAME in the terminal: human seats against bots (several humans play hot seat).

    Every variant flag of the game is also an option: --config B, --provisional-powers, --quick-game 7 ...
    (see `meeple rules GAME`). With --server URL --table ID --token T, play a seat of a server's table
    (`meeple serve` prints these lines).
    """
    if server is not None or table is not None or token is not None:
        _play_online(server, table, token)
        return
    if game is None:
        fail("give a GAME to play (see `meeple games`), or --server URL --table ID to join a server's table")
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
        fail(str(exc))
    console = stdout_console()
    _intro(console, loaded, state, labels, human_seats)
    session = PlaySession(console, state, human_seats, bot_objects, labels, renderer_for(game), record)
    code = session.run()
    if code:
        raise typer.Exit(code)


def _play_online(server: str | None, table: str | None, token: str | None) -> None:
    from meeple.cli.online import OnlineError, play_online

    if server is None or table is None:
        fail("an online table needs --server URL and --table ID (and --token T to play a seat)")
    try:
        code = play_online(stdout_console(), server, table, token)
    except OnlineError as exc:
        fail(str(exc), code=1)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""
    app.command("play", context_settings=GAME_OPTIONS)(play)
