from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import meeple
from meeple.cli import play as play_module
from meeple.cli.moves import Command, Moves, Problem, interpret
from meeple.cli.render import Renderer, render_generic
from meeple.core.records import read_records
from tests.cli.conftest import Cli

TEXTS = ["bid 0", "bid 1", "bid 10", "keep the lot"]


def cards(players: int, seed: int) -> list[int]:
    state = meeple.load_game("toy_auction", players=players).new_initial_state(seed)
    return list(state.cards)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- interpret (pure)
def test_interpret_numbers_texts_and_commands() -> None:
    assert interpret("2", TEXTS) == Moves(("bid 1",))
    assert interpret("  BID 10 ", TEXTS) == Moves(("bid 10",))
    assert interpret("keep", TEXTS) == Moves(("keep the lot",))
    assert interpret("help", TEXTS) == Command("help")
    assert interpret("?", TEXTS) == Command("help")
    assert interpret("Quit", TEXTS) == Command("quit")
    assert interpret("rules", TEXTS) == Command("rules")
    assert interpret("board", TEXTS) == Command("board")


def test_interpret_problems_say_what_is_allowed() -> None:
    for line, fragment in (("0", "not a legal move number"), ("5", "not a legal move number"), ("", "Nothing typed")):
        result = interpret(line, TEXTS)
        assert isinstance(result, Problem)
        assert fragment in result.message and "1-4" in result.message
    ambiguous = interpret("bid", TEXTS)
    assert isinstance(ambiguous, Problem) and "several moves" in ambiguous.message
    unknown = interpret("fly away", TEXTS)
    assert isinstance(unknown, Problem) and "not a legal move" in unknown.message


def test_interpret_uses_the_parse_input_hook() -> None:
    def hook(text: str, legal: list[str]) -> list[str] | None:
        return ["bid 1", "keep the lot"] if text == "b1k" else None

    assert interpret("b1k", TEXTS, hook) == Moves(("bid 1", "keep the lot"))
    assert interpret("3", TEXTS, hook) == Moves(("bid 10",))  # numbers first
    assert isinstance(interpret("zz", TEXTS, hook), Problem)


# ---------------------------------------------------------------- a complete game, one human
def test_complete_game_against_bots_shows_only_what_the_human_may_see(cli: Cli) -> None:
    my, other1, other2 = cards(3, 1)
    assert len({my, other1, other2}) == 3
    script = "xyz\n99\nhelp\n" + "1\n" * 30
    out = cli(["play", "toy_auction", "--players", "3", "--seed", "1"], input=script).output
    assert "Seed 1" in out
    assert f"my_card: {my}" in out
    assert f"my_card: {other1}" not in out and f"my_card: {other2}" not in out
    # numbered legal moves
    assert re.search(r"^\s+1\. bid 0$", out, re.M) and re.search(r"^\s+5\. bid 4$", out, re.M)
    # bad input: clear message, then asked again
    assert "'xyz' is not a legal move" in out
    assert "99 is not a legal move number: type a move number (1-5)" in out
    assert out.count("Seat 0, your move:") > 3
    assert "Commands" in out and "quit: leave the game" in out
    # bots' sealed bids are redacted; other actions are shown
    assert "Seat 1 (random): seal a bid" in out
    assert not re.search(r"Seat [12] \(random\): bid \d", out)
    assert "Since your last turn" in out
    # the end: reveal, scores, winners
    assert "Game over" in out and "Public view" in out
    assert "Final scores" in out and re.search(r"Winners?: ", out)
    assert "Traceback" not in out


def test_text_and_json_input(cli: Cli) -> None:
    script = "BID 4\n" + '{"type": "bid", "amount": 0}\n' * 2 + "1\n" * 30
    out = cli(["play", "toy_auction", "--seed", "2"], input=script).output
    assert "Seat 0 (you): bid 4" in out
    assert "Seat 0 (you): bid 0" in out


def test_parse_input_hook(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    def hook(text: str, legal: list[str]) -> list[str] | None:
        return {"max": ["bid 4"], "combo": ["bid 1", "keep the lot"], "wish": ["fly"]}.get(text)

    monkeypatch.setattr(play_module, "renderer_for", lambda name: Renderer(name, render_generic, hook))
    out = cli(["play", "toy_auction", "--seed", "2"], input="wish\ncombo\nmax\n" + "1\n" * 30).output
    assert "'fly' is not a legal move." in out
    # seat 1 bids after seat 0: the second move of the line cannot be played, and nothing is played
    assert "'keep the lot' cannot be played after 'bid 1': your turn is over." in out
    assert "Seat 0 (you): bid 1" not in out.split("Seat 0 (you): bid 4")[0]
    assert "Seat 0 (you): bid 4" in out


def test_quit_asks_and_saves_an_unfinished_record(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "quit.jsonl"
    out = cli(["play", "toy_auction", "--seed", "3", "--record", str(path)], input="1\nquit\nn\nquit\ny\ny\n").output
    assert "Really quit this game?" in out and "Game abandoned." in out
    (record,) = read_records(path)
    assert record.game == "toy_auction" and record.seed == 3
    assert record.returns == [] and record.meta == {"finished": False}
    assert record.players == ["human", "random"]
    assert len(record.actions) >= 2  # one bid of seat 0, a bot's moves
    assert record.actions[0] == {"type": "bid", "amount": 0}


def test_input_ending_abandons_the_game(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "eof.jsonl"
    out = cli(["play", "toy_auction", "--seed", "3", "--record", str(path)], input="", code=1).output
    assert "Input ended" in out and "Traceback" not in out
    assert next(read_records(path)).returns == []


def test_rules_command_during_play(cli: Cli) -> None:
    out = cli(["play", "toy_auction", "--seed", "3"], input="rules\n" + "1\n" * 30).output
    assert "Toy sealed auction" in out


def test_finished_game_record(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "done.jsonl"
    cli(["play", "toy_auction", "--seed", "4", "--record", str(path)], input="1\n" * 30)
    (record,) = read_records(path)
    final = record.replay()
    assert final.is_terminal() and record.returns == final.returns() and record.scores == final.scores()
    assert json.loads(path.read_text())["meta"] == {"finished": True}


# ---------------------------------------------------------------- hot seat
def _segments(out: str, seat: int) -> list[str]:
    """Parts of the output from a hand-over to ``seat`` up to the next hand-over (or the game's end)."""
    parts = re.split(r"(?=Pass to seat \d)", out)
    return [p.split("Game over")[0] for p in parts if p.startswith(f"Pass to seat {seat}")]


def test_hot_seat_hands_over_and_never_shows_another_humans_hand(cli: Cli) -> None:
    c0, c1, _ = cards(3, 1)
    assert c0 != c1
    out = cli(["play", "toy_auction", "--players", "3", "--humans", "2", "--seed", "1"], input="\n1\n" * 40).output
    seat0, seat1 = _segments(out, 0), _segments(out, 1)
    assert seat0 and seat1
    assert out.index("Pass to seat 0") < out.index("Seat 0's view")  # hand-over before the first human turn
    for part in seat1:
        assert f"my_card: {c1}" in part
        assert f"my_card: {c0}" not in part and "Seat 0's view" not in part
        assert not re.search(r"Seat 0 \(human\): bid \d", part)
    for part in seat0:
        assert f"my_card: {c1}" not in part and "Seat 1's view" not in part
    # the bot's moves are shown as the public sees them
    assert "Seat 2 (random): seal a bid" in out
    assert not re.search(r"Seat 2 \(random\): bid \d", out)


def test_seats_option_chooses_human_seats(cli: Cli) -> None:
    out = cli(["play", "toy_auction", "--players", "3", "--seats", "1,2", "--seed", "5"], input="\n1\n" * 40).output
    assert "seat 0: random" in out and "Pass to seat 1" in out and "Pass to seat 2" in out
    assert "Seat 0's view" not in out


# ---------------------------------------------------------------- bad command lines
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "played by 2 to 4 players"),
        (["--variant", "lots=many"], "parameter 'lots' cannot be 'many'"),
        (["--variant", "colour=red"], "has no parameter 'colour'"),
        (["--variant", "lots"], "expects KEY=VALUE"),
        (["--humans", "5"], "--humans must be from 0 to 2"),
        (["--seats", "0,7"], "--seats must list distinct seats"),
        (["--bots", "genius"], "unknown bot 'genius'"),
        (["--bots", "heuristic"], "no heuristic bot"),
        (["--seed", "-1"], "non-negative"),
    ],
)
def test_bad_options_exit_2_with_a_clear_message(cli: Cli, args: list[str], message: str) -> None:
    result = cli(["play", "toy_auction", *args], input="", code=2)
    assert message in result.output and "Traceback" not in result.output


def test_malformed_bot_specs_exit_2_with_the_parsers_words(cli: Cli) -> None:
    """Issue 41, item 15: the CLI refuses the specs the server refuses, with the same words."""
    from tests.bots.test_specs import BAD_SPECS

    for spec, words in BAD_SPECS:
        result = cli(["play", "citadels", "--players", "3", "--humans", "0", "--bots", spec], input="", code=2)
        assert words in " ".join(result.output.split()) and "Traceback" not in result.output, (spec, result.output)


def test_unknown_game(cli: Cli) -> None:
    result = cli(["play", "chess"], code=2)
    assert "unknown game 'chess'" in result.output and "toy_auction" in result.output


def test_bots_only_game_is_shown_as_the_public_sees_it(cli: Cli) -> None:
    out = cli(["play", "toy_auction", "--players", "3", "--humans", "0", "--seed", "6"]).output
    assert "your move" not in out and "Game over" in out
    assert "Seat 0 (random): seal a bid" in out and not re.search(r"Seat \d \(random\): bid \d", out)


def test_command_modules_are_registered() -> None:
    from meeple.cli.app import COMMAND_MODULES

    assert COMMAND_MODULES[:4] == ("meeple.cli.play", "meeple.cli.simulate", "meeple.cli.replay", "meeple.cli.rules")


def test_the_seed_is_shown_only_once_the_game_is_over(cli: Cli, tmp_path: Path) -> None:
    out = cli(["play", "toy_auction", "--players", "3", "--seed", "123457"], input="1\n" * 30).output
    before, after = out.split("Game over", 1)
    assert "123457" not in before  # the seed rebuilds every hand: secret while the game runs
    assert "Seed 123457" in after
    path = tmp_path / "quit.jsonl"
    out = cli(["play", "toy_auction", "--seed", "123457", "--record", str(path)], input="1\nquit\ny\ny\n").output
    assert "Game abandoned." in out and "123457" not in out


def test_a_failed_save_shows_the_record_instead_of_losing_it(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(path: object, records: object, append: bool = False) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(play_module, "write_records", full_disk)
    out = cli(["play", "toy_auction", "--seed", "3", "--record", str(tmp_path / "g.jsonl")], input="1\n" * 30).output
    assert "Cannot save to" in out and "No space left on device" in out
    line = next(text for text in out.splitlines() if text.startswith('{"format":"meeple-record/1"'))
    assert json.loads(line)["seed"] == 3 and "Traceback" not in out


def test_a_single_legal_move_is_played_for_the_human_and_the_log_says_so(cli: Cli) -> None:
    """Caprice's first decision is keeping the drawn symbol (no exchange possible yet): one legal move."""
    out = cli(["play", "caprice", "--seed", "1", "--bots", "random"], input="1\n" * 400).output
    assert "Seat 0 (you): keep the drawn symbol (the only legal move, played for you)" in out
    manual = cli(["play", "caprice", "--seed", "1", "--bots", "random", "--no-auto"], input="1\n" * 400).output
    assert "played for you" not in manual and "Seat 0 (you): keep the drawn symbol" in manual


def test_a_bot_that_searches_shows_that_it_is_thinking() -> None:
    import io

    from rich.console import Console

    import meeple
    from meeple.bots import make_bot
    from meeple.cli.play import PlaySession
    from meeple.cli.render import renderer_for

    state = meeple.load_game("caprice", players=2).new_initial_state(3)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    bots = {1: make_bot("random", "caprice", seed=1)}
    session = PlaySession(console, state, [0], bots, ["human", "random"], renderer_for("caprice"), None)
    while state.current_player() != 1:
        state.apply_action(state.legal_actions()[0])
    session._bot_turn(1)
    assert "Seat 1 (random) is thinking…" in out.getvalue()


def test_caprice_says_when_the_turn_passes_because_no_piece_can_move(cli: Cli) -> None:
    """The first placement of a game leaves one piece, just placed: nothing can move, the turn passes (§7)."""
    out = cli(["play", "caprice", "--seed", "1", "--bots", "random"], input="1\n" * 400).output
    lines = out.splitlines()
    passes = [i for i, line in enumerate(lines) if line.endswith(": no piece can move: the turn passes")]
    assert passes and all(" place " in lines[i - 1] for i in passes)  # each right after a placement


def test_resume_continues_an_unfinished_game_where_it_stopped(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    first = cli(["play", "caprice", "--seed", "4", "--record", str(path)], input="1\n1\n1\nquit\ny\n\n", code=0)
    assert "Saved the unfinished game" in first.output
    [saved] = list(read_records(path))
    assert not saved.returns and saved.meta["finished"] is False
    done = len(saved.actions)
    out = cli(["play", "--resume", str(path)], input="1\n" * 400).output
    assert f"Resumed from {path} after {done} moves." in out and "Game over" in out
    [finished] = list(read_records(path))  # written back in place: still one game in the file
    assert finished.returns and finished.actions[:done] == saved.actions and finished.seed == saved.seed
    again = cli(["play", "--resume", str(path)], code=2).output
    assert "holds no unfinished game (1 finished)" in again


def test_resume_refuses_options_that_the_file_decides(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    cli(["play", "caprice", "--seed", "4", "--record", str(path)], input="1\nquit\ny\n\n")
    out = cli(["play", "--resume", str(path), "--seed", "3", "--bots", "random"], code=2).output
    assert "--resume takes the game" in out and "--seed" in out and "--bots" in out
    assert "holds a game of caprice, not citadels" in cli(["play", "citadels", "--resume", str(path)], code=2).output
    assert "no such file" in cli(["play", "--resume", str(tmp_path / "none.jsonl")], code=2).output


def test_undo_takes_back_a_move_when_nothing_was_revealed_since(cli: Cli) -> None:
    """Caprice: placements and moves are public and nothing is drawn during play, so the last move comes back."""
    out = cli(["play", "caprice", "--seed", "1", "--bots", "random"], input="undo\n1\nundo\n" + "1\n" * 400).output
    assert "Undo is not possible: you have made no move to take back yet." in out
    assert out.count("Taken back: you are at your previous decision again.") == 1
    assert "Game over" in out


def test_undo_never_crosses_information_revealed_since(cli: Cli) -> None:
    """Citadels: "draw cards" shows two cards of the deck; at the choice of the one to keep, undo is refused."""
    args = ["play", "citadels", "--seed", "2", "--bots", "random"]
    out = cli(args, input="1\n2\nundo\n" + "1\n" * 3000).output  # pick the Assassin, draw cards, undo
    assert "Undo is not possible: something was revealed to you since" in out
    assert "Taken back" not in out
    out = cli(args, input="1\n1\nundo\n" + "1\n" * 3000).output  # take 2 gold (from the bank), undo: allowed
    assert "Taken back: you are at your previous decision again." in out


def test_undo_checks_every_world_the_seat_cannot_tell_apart() -> None:
    from meeple.core.rng import Rng
    from meeple.core.undo import revealed_since

    game = meeple.load_game("citadels", players=3)
    state, rng = game.new_initial_state(9), Rng(9)
    while state.observation(None)["phase"] == "draft":
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    seat = state.current_player()
    earlier = state.clone()
    draw = next(a for a in state.legal_actions() if a.type_name == "draw_cards")
    state.apply_action(draw)
    assert revealed_since(earlier, state, seat)  # two cards from the deck: new to the seat
    quiet = earlier.clone()
    gold = next(a for a in quiet.legal_actions() if a.type_name == "take_gold")
    quiet.apply_action(gold)
    assert not revealed_since(earlier, quiet, seat)  # 2 gold from the bank: nothing hidden


@pytest.mark.parametrize(("game", "shortcut"), [("caprice", "'DR A'"), ("capitol", "'bid 3 5 7'")])
def test_help_lists_every_shortcut_of_the_game(cli: Cli, game: str, shortcut: str) -> None:
    out = cli(["play", game, "--seed", "1", "--bots", "random"], input="help\n" + "1\n" * 3000).output
    assert shortcut in out and "undo" in out
    if game == "caprice":
        assert "'A B'" in out and "'skip'" in out


def test_a_refused_entry_says_why(cli: Cli) -> None:
    """At the draw of a symbol, a placement typed in short form is refused with the rule's reason."""
    out = cli(["play", "caprice", "--seed", "1", "--no-auto"], input="DR A\n" + "1\n" * 400).output
    assert "'place DR on A' is not a legal move. Why: now is not the time to place a piece." in out


def test_tab_completes_the_moves_shown_and_the_commands() -> None:
    from meeple.cli.moves import completions

    moves = ["take 2 gold", "draw cards", "Take income"]
    assert completions("ta", moves) == ["take 2 gold", "Take income"]
    assert completions("u", moves) == ["undo"]
    assert completions("", moves)[:2] == ["board", "draw cards"]
    assert completions("xyz", moves) == []


def test_the_final_table_says_the_result_in_words_and_a_solo_game_lists_rob(cli: Cli) -> None:
    out = cli(["play", "caprice", "--seed", "3", "--bots", "random"], input="1\n" * 400).output
    table = out.split("Final scores")[-1]
    assert "result" in table and ("won" in table or "shared the win" in table) and "lost" in table
    assert "return" not in table
    solo = cli(["play", "capital_lux_2", "--players", "1", "--seed", "3"], input="1\n" * 400).output
    rows = solo.split("Final scores")[-1].splitlines()
    assert any("ROB" in row and ("won" in row or "lost" in row) for row in rows)
