"""Tournament pairing and rotation, resume from the database, ratings, reports, engines and the CLI."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tests.core.toy_game  # noqa: F401  (registers toy_auction)
from meeple.arena.balance import extract_features, win_credit
from meeple.arena.ratings import bot_rates, ranks_of, rate, seat_rates, wilson
from meeple.arena.report import build_report, write_report
from meeple.arena.store import ResultStore
from meeple.arena.tournament import GameResult, TournamentConfig, plan, run_tournament, unique_labels
from meeple.core import InvalidParameterError, load_game
from tests.core.toy_game import toy_companions

SMALL = TournamentConfig("toy_auction", ("ismcts:20", "random"), players=3, games=6, seed=4)


def test_plan_rotates_seats_on_paired_deals() -> None:
    cfg = TournamentConfig("toy_auction", ("a_bot", "b_bot", "c_bot"), players=4, games=10, seed=1)
    assert (cfg.rotations, cfg.deals, cfg.total_games) == (4, 3, 12)
    # unknown bots are rejected by plan(); build the lineups with real specs instead
    cfg = TournamentConfig("toy_auction", ("ismcts:5", "random", "hard"), players=4, games=10, seed=1)
    tasks = plan(cfg)
    assert len(tasks) == 12
    for deal in range(3):
        games = [t for t in tasks if t.deal == deal]
        assert len({t.seed for t in games}) == 1  # paired: same deal for every rotation
        per_seat = [Counter(t.specs[s] for t in games) for s in range(4)]
        # lineup A B C A rotated: every seat sees A twice, B and C once per deal
        assert all(c == Counter({"ismcts:5": 2, "random": 1, "hard": 1}) for c in per_seat)
    assert len({t.seed for t in tasks}) == 3


def test_more_bots_than_seats_every_bot_every_seat() -> None:
    cfg = TournamentConfig("toy_auction", ("ismcts:5", "random", "easy"), players=2, games=3)
    tasks = plan(cfg)
    assert cfg.rotations == 3 and len(tasks) == 3
    for seat in range(2):
        assert sorted(t.specs[seat] for t in tasks) == sorted(cfg.bots)


def test_duplicate_specs_get_unique_labels() -> None:
    assert unique_labels(["random", "random", "heuristic"]) == ["random", "random#2", "heuristic"]


def test_bad_configs() -> None:
    with pytest.raises(InvalidParameterError):
        plan(TournamentConfig("toy_auction", ("nonsense",), players=2, games=2))
    with pytest.raises(InvalidParameterError):
        plan(TournamentConfig("toy_auction", ("random",), players=9, games=2))
    with pytest.raises(InvalidParameterError):
        TournamentConfig("toy_auction", (), players=2, games=2)


def test_resume_from_db(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    first = TournamentConfig(SMALL.game, SMALL.bots, SMALL.players, games=3, seed=SMALL.seed)
    with ResultStore(db) as store:
        part = run_tournament(first, store=store)
    assert len(part) == 3
    played: list[GameResult] = []
    with ResultStore(db) as store:
        seen: list[tuple[int, int]] = []
        full = run_tournament(
            SMALL, store=store, on_result=played.append, on_start=lambda todo, done: seen.append((todo, done))
        )
        assert seen == [(3, 3)]
        assert len(played) == 3 and {r.deal for r in played} == {1}
        assert len(full) == 6
        again = run_tournament(SMALL, store=store, on_result=played.append)
        assert len(played) == 3  # nothing left to play
        assert [r.comparable() for r in again] == [r.comparable() for r in full]
        stored = store.tournaments()
        assert len(stored) == 1 and stored[0].finished == 6 and stored[0].config.games == 6
    fresh = run_tournament(SMALL)
    assert [r.comparable() for r in fresh] == [r.comparable() for r in full]
    record = full[0].record
    assert record["players"] == list(full[0].labels) and record["returns"] == list(full[0].returns)


def test_multiprocessing_matches_sequential() -> None:
    seq = run_tournament(SMALL, jobs=1)
    par = run_tournament(SMALL, jobs=2)
    assert [r.comparable() for r in seq] == [r.comparable() for r in par]


def test_ray_matches_multiprocessing() -> None:
    pytest.importorskip("ray", reason="ray is not installed: pip install 'meeple[ray]' to test the Ray engine")
    cfg = TournamentConfig("toy_auction", ("ismcts:10", "random"), players=2, games=4, seed=9)
    mp = run_tournament(cfg, jobs=2)
    ray_results = run_tournament(cfg, jobs=2, engine="ray")
    assert [r.comparable() for r in mp] == [r.comparable() for r in ray_results]


def test_ray_joins_an_existing_cluster_by_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--engine ray --ray-address``: start a one-CPU Ray head, join it, get the multiprocessing results."""
    pytest.importorskip("ray", reason="ray is not installed: pip install 'meeple[ray]' to test the Ray engine")
    import os
    import shutil
    import socket
    import subprocess
    import tempfile
    import time

    ray_cli = shutil.which("ray")
    if ray_cli is None:
        pytest.skip("the ray command line is not on PATH")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # recent Ray versions require a token by default
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    temp_dir = tempfile.mkdtemp(prefix="ray")  # short: Ray's Unix socket paths must stay under ~107 characters
    start = [
        ray_cli,
        "start",
        "--head",
        f"--port={port}",
        "--num-cpus=1",
        "--include-dashboard=false",
        f"--temp-dir={temp_dir}",
        "--disable-usage-stats",
        "--block",
    ]
    head = subprocess.Popen(start, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:  # --block: the head lives as long as this process, so stopping it stops only this test's cluster
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert head.poll() is None, "ray start --head exited"
                assert time.monotonic() < deadline, "the Ray head did not start within 120 s"
                time.sleep(0.5)
        cfg = TournamentConfig("caprice", ("ismcts:5", "random"), players=2, games=2, seed=9)
        joined = run_tournament(cfg, jobs=1, engine="ray", ray_address=f"127.0.0.1:{port}")
        local = run_tournament(cfg, jobs=1)
        assert [r.comparable() for r in joined] == [r.comparable() for r in local]
    finally:
        head.terminate()
        head.wait(timeout=120)
        shutil.rmtree(temp_dir, ignore_errors=True)


def test_wilson_and_credit() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert win_credit([1.0, 1.0, 0.0]) == [0.5, 0.5, 0.0]
    assert win_credit([0.0, 0.0]) == [0.0, 0.0]


def _result(labels: tuple[str, ...], returns: tuple[float, ...], scores: tuple[float, ...], deal: int) -> GameResult:
    return GameResult(deal, 0, deal, labels, labels, returns, scores, 10, {"seat": {}, "game": {}}, {}, 0.0)


def test_ratings_order_and_uncertainty() -> None:
    results = [_result(("strong", "weak", "mid"), (1.0, 0.0, 0.0), (10.0, 2.0, 5.0), d) for d in range(30)]
    ratings = rate(results)
    assert list(ratings) == ["strong", "mid", "weak"]
    assert all(r.sigma < 25 / 3 for r in ratings.values())
    assert ratings["strong"].games == 30
    few = rate(results[:2])
    assert few["strong"].sigma > ratings["strong"].sigma
    assert ranks_of(_result(("a", "b", "c"), (1.0, 0.0, 0.0), (5.0, 3.0, 3.0), 0)) == [1, 2, 2]
    rates = bot_rates(results)
    assert rates["strong"].win_rate == 1.0 and rates["weak"].win_rate == 0.0
    seats = seat_rates(results)
    assert seats[0].wins == 30 and seats[1].n == 30


def toy_features(state):  # type: ignore[no-untyped-def]
    obs = state.observation(None)
    return {"seat": {"lots won": [[str(n)] for n in obs["lots"]]}, "game": {"coins": str(sum(obs["coins"]) // 5)}}


def broken_features(state):  # type: ignore[no-untyped-def]
    return {"seat": {"x": state.observation(None)["missing"]}}


def test_report_files(tmp_path: Path) -> None:
    results = run_tournament(SMALL)
    with toy_companions(balance="tests.arena.test_tournament:toy_features"):
        state = load_game("toy_auction", players=3).new_initial_state(1)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        feats = extract_features(state)
        assert feats["seat"]["lots won"][0] and "coins" in feats["game"]
        assert feats["seat"]["turn position"] == [["1st"], ["2nd"], ["3rd"]]
        results = [
            GameResult(
                r.deal,
                r.rotation,
                r.seed,
                r.labels,
                r.specs,
                r.returns,
                r.scores,
                r.length,
                extract_features(r_state),
                r.record,
                r.seconds,
            )
            for r, r_state in ((r, _replay(r)) for r in results)
        ]
    rep = build_report(SMALL, results)
    html = write_report(rep, tmp_path / "r.html").read_text()
    md = write_report(rep, tmp_path / "r.md").read_text()
    for text in (html, md):
        assert "ismcts:20" in text and "Win rate by lots won" in text and "Win rate by turn position" in text
        assert "95% CI" in text and "seat 0" in text and "paired bootstrap over deals" in text
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html and "data:image/png;base64," in html
    assert "| bot | seat-games |" in md and "base64" not in md  # forges do not show base64 images in Markdown
    links = re.findall(r"!\[[^\]]*\]\((r-plots/[^)]+\.png)\)", md)
    assert len(links) >= 4
    for link in links:  # every linked image is a PNG file beside the report
        assert (tmp_path / link).read_bytes().startswith(b"\x89PNG")


def _replay(result: GameResult):  # type: ignore[no-untyped-def]
    from meeple.core.records import GameRecord

    return GameRecord.from_json(result.record).replay()


def test_extractor_failure_keeps_the_result() -> None:
    with toy_companions(balance="tests.arena.test_tournament:broken_features"):
        state = load_game("toy_auction", players=2).new_initial_state(1)
        assert "error" in extract_features(state)


def test_cli_tournament_and_report(tmp_path: Path) -> None:
    from meeple.cli.app import app

    db = tmp_path / "cli.sqlite"
    runner = CliRunner()
    args = [
        "tournament",
        "toy_auction",
        "--bots",
        "ismcts:10,random",
        "--games",
        "4",
        "--players",
        "2",
        "--db",
        str(db),
        "--report",
        str(tmp_path / "cli.md"),
        "--seed",
        "3",
    ]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Bots" in res.output and "ismcts:10" in res.output and (tmp_path / "cli.md").exists()
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "Resuming: 4 games already" in again.output
    rep = runner.invoke(app, ["tournament-report", "--db", str(db), "--report", str(tmp_path / "again.html")])
    assert rep.exit_code == 0, rep.output
    assert "4 games" in rep.output and (tmp_path / "again.html").read_text().startswith("<!DOCTYPE html>")
    bad = runner.invoke(app, ["tournament", "toy_auction", "--bots", "nonsense"])
    assert bad.exit_code == 2
    bad_engine = runner.invoke(app, ["tournament", "toy_auction", "--engine", "spark"])
    assert bad_engine.exit_code == 2


def test_public_replay_helpers() -> None:
    from meeple.arena.balance import public_history, replay_public

    state = load_game("toy_auction", players=2).new_initial_state(3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    texts = public_history(state)
    assert texts[0] == (0, "seal a bid")  # spectators never see a sealed amount
    steps = list(replay_public(state, lambda _p, t: t.startswith("keep")))
    assert [(p, t) for p, t, _ in steps] == texts
    assert all((obs is not None) == t.startswith("keep") for _, t, obs in steps)
    assert steps[-1][2] is None or steps[-1][2]["lot"] == state.observation(None)["lot"]


def test_cli_tournament_bad_report_or_db_fails_before_any_game(tmp_path: Path) -> None:
    from meeple.cli.app import app

    runner = CliRunner()
    base = ["tournament", "toy_auction", "--bots", "random", "--games", "2", "--players", "2"]
    (tmp_path / "folder").mkdir()
    (tmp_path / "junk.sqlite").write_text("not a database")
    for extra, message in (
        (["--report", str(tmp_path / "folder")], "is a directory"),
        (["--report", str(tmp_path / "missing" / "r.md")], "does not exist"),
        (["--db", str(tmp_path / "folder")], "is a directory, not a SQLite file"),
        (["--db", str(tmp_path / "junk.sqlite")], "file is not a database"),
    ):
        res = runner.invoke(app, base + extra)
        assert res.exit_code == 2, res.output
        assert message in res.output and "Error:" in res.output and "Bots" not in res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)
    res = runner.invoke(app, ["tournament-report", "--db", str(tmp_path / "junk.sqlite")])
    assert res.exit_code == 2 and "file is not a database" in res.output


def test_cli_tournament_keeps_the_results_when_the_report_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import meeple.arena.report as report_module
    from meeple.cli.app import app

    def full_disk(rep: object, path: object) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report_module, "write_report", full_disk)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    runner = CliRunner()
    args = ["tournament", "toy_auction", "--bots", "random", "--games", "2", "--players", "2"]
    res = runner.invoke(app, [*args, "--report", str(tmp_path / "r.md")])
    assert res.exit_code == 1, res.output
    assert "No space left on device" in res.output and "the results are kept in" in res.output
    kept = next(tmp_path.glob("meeple-tournament-*.sqlite"))
    twice = runner.invoke(app, [*args, "--report", str(tmp_path / "r.md")])  # the same games kept again: no clash
    assert twice.exit_code == 1 and str(kept) in twice.output, twice.output
    monkeypatch.undo()
    again = runner.invoke(app, ["tournament-report", "--db", str(kept)])
    assert again.exit_code == 0 and "2 games" in again.output


def test_cli_tournament_says_what_to_install_before_any_game_when_a_module_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openskill is a dependency of meeple (issue #36); a report's matplotlib comes with the arena extra."""
    import importlib.util

    from meeple.cli.app import app

    real = importlib.util.find_spec
    base = ["tournament", "toy_auction", "--bots", "random", "--games", "2", "--players", "2"]
    for missing, advice in (("openskill", "pip install 'openskill>=6.0'"), ("matplotlib", "'meeple[arena]'")):
        monkeypatch.setattr(importlib.util, "find_spec", lambda name, m=missing: None if name == m else real(name))
        report = ["--report", str(tmp_path / "r.md")] if missing == "matplotlib" else []
        res = CliRunner().invoke(app, base + report)
        assert res.exit_code == 2, res.output
        assert advice in res.output and missing in res.output
        assert "games (" not in res.output  # the tournament never started
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "matplotlib" else real(name))
    res = CliRunner().invoke(app, base)
    assert res.exit_code == 0, res.output  # no report asked: matplotlib is not needed


def test_openskill_is_a_default_dependency() -> None:
    """``pip install meeple`` (no extra) brings openskill: tournaments work from the first command."""
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    assert any(dep.startswith("openskill") for dep in project["dependencies"])
    assert not any(dep.startswith("openskill") for dep in project["optional-dependencies"]["arena"])


def test_the_paired_bootstrap_resamples_whole_deals() -> None:
    from meeple.arena.ratings import paired_bootstrap

    even = [(1.0, 2), (1.0, 2)] * 20  # each deal: one win in two rotations
    low, high = paired_bootstrap(even)
    assert low == high == 0.5  # every deal alike: no spread at all, whatever the resampling
    mixed = [(2.0, 2), (0.0, 2)] * 20
    low, high = paired_bootstrap(mixed)
    assert 0.3 < low < 0.5 < high < 0.7
    assert paired_bootstrap(mixed) == (low, high)  # reproducible
    # deals whose rotations agree (all won or all lost) are fewer independent units: wider than Wilson's interval
    assert low < wilson(40, 80)[0] and high > wilson(40, 80)[1]
