"""Tournament reports: rich tables for the terminal, and a self-contained HTML or Markdown file with plots.

The file embeds its matplotlib plots as base64 PNG images, so it can be mailed or attached as is. Contents: the
configuration; per bot the win rate with its 95% Wilson interval, mean score, openskill rating; per seat the same
(first-player advantage); head to head; game lengths; and the game's balance questions
(:mod:`meeple.arena.balance`).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table

from meeple.arena.balance import (
    LabelStat,
    balance_question,
    game_question_stats,
    seat_question_stats,
    value_stats,
)
from meeple.arena.ratings import RateStat, Rating, bot_rates, head_to_head, rate, seat_rates, wilson
from meeple.arena.tournament import GameResult, TournamentConfig
from meeple.i18n import _

MAX_LABELS = 30
"""Rows shown per balance question (most frequent labels first)."""


@dataclass
class TournamentReport:
    """Everything a report shows, computed once from the results."""

    config: TournamentConfig
    games: int
    bots: dict[str, RateStat]
    seats: list[RateStat]
    ratings: dict[str, Rating]
    h2h: dict[tuple[str, str], tuple[int, int]]
    lengths: list[int]
    seat_questions: dict[str, list[LabelStat]]
    game_questions: dict[str, list[LabelStat]]
    values: dict[str, tuple[int, float, float, float, float]]
    feature_errors: int

    @property
    def fair_share(self) -> float:
        """The win rate of a seat if every seat were equal: ``1 / players``."""
        return 1.0 / self.config.players


def build_report(config: TournamentConfig, results: Sequence[GameResult]) -> TournamentReport:
    """Compute every statistic of the report from a tournament's results."""
    feats = [r.features for r in results]
    rets = [r.returns for r in results]
    scs = [r.scores for r in results]
    return TournamentReport(
        config=config,
        games=len(results),
        bots=bot_rates(results),
        seats=seat_rates(results),
        ratings=rate(results),
        h2h=head_to_head(results),
        lengths=[r.length for r in results],
        seat_questions=seat_question_stats(feats, rets, scs),
        game_questions=game_question_stats(feats, rets, scs),
        values=value_stats(feats),
        feature_errors=sum(1 for f in feats if "error" in f),
    )


# ---------------------------------------------------------------- rows shared by every format
def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _verdict(rep: TournamentReport, interval: tuple[float, float]) -> str:
    """Return "above" / "below" when the interval excludes the fair share, "~" otherwise ("" in solo games)."""
    if rep.config.players < 2:
        return ""
    lo, hi = interval
    return _("above") if lo > rep.fair_share else _("below") if hi < rep.fair_share else "~"


def bot_rows(rep: TournamentReport) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the per-bot table (sorted by rating ordinal when available)."""
    head = [_("bot"), _("seat-games"), _("wins"), _("win %"), _("95% CI"), _("vs fair"), _("mean score")]
    head += ["mu", "sigma", _("ordinal")]
    rows = []
    order = list(rep.ratings) + [b for b in rep.bots if b not in rep.ratings]
    for name in order:
        rt = rep.ratings.get(name)
        ratings = [f"{rt.mu:.2f}", f"{rt.sigma:.2f}", f"{rt.ordinal:.2f}"] if rt else ["", "", ""]
        rows.append([name, *_stat_cells(rep, rep.bots[name]), *ratings])
    return head, rows


def seat_rows(rep: TournamentReport) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the per-seat table."""
    head = [_("seat"), _("games"), _("wins"), _("win %"), _("95% CI"), _("vs fair"), _("mean score")]
    rows = []
    for st in rep.seats:
        rows.append([st.name, *_stat_cells(rep, st)])
    return head, rows


def _stat_cells(rep: TournamentReport, st: RateStat) -> list[str]:
    """Return the cells games, wins, win %, 95% CI, vs fair and mean score of a bot's or a seat's statistics."""
    lo, hi = st.interval
    return [
        str(st.n),
        f"{st.wins:g}",
        _pct(st.win_rate),
        f"{_pct(lo)}–{_pct(hi)}",
        _verdict(rep, (lo, hi)),
        f"{st.mean_score:.2f}",
    ]


def h2h_rows(rep: TournamentReport) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the head-to-head table: % of meetings where the row bot finished ahead."""
    names = list(rep.bots)
    head = [_("ahead of →"), *names]
    rows = []
    for a in names:
        row = [a]
        for b in names:
            won, met = rep.h2h.get((a, b), (0, 0))
            row.append(f"{_pct(won / met)} ({met})" if met else "")
        rows.append(row)
    return head, rows


def length_rows(rep: TournamentReport) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the game-length summary."""
    lengths = sorted(rep.lengths)
    if not lengths:
        return [_("games")], [["0"]]
    mean = sum(lengths) / len(lengths)
    head = [_("games"), _("mean decisions"), _("min"), _("median"), _("max")]
    return head, [
        [str(len(lengths)), f"{mean:.1f}", str(lengths[0]), str(lengths[len(lengths) // 2]), str(lengths[-1])]
    ]


def seat_question_rows(stats: list[LabelStat]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of one seat balance question (win rate by label)."""
    head = [_("label"), _("seat-games"), _("win %"), _("95% CI"), _("mean score")]
    rows = []
    for st in stats[:MAX_LABELS]:
        lo, hi = wilson(st.wins, st.n)
        rows.append([st.label, str(st.n), _pct(st.wins / st.n), f"{_pct(lo)}–{_pct(hi)}", f"{st.score_sum / st.n:.2f}"])
    return head, rows


def game_question_rows(stats: list[LabelStat]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of one game balance question (by label: games, first seat's win rate, scores)."""
    head = [_("label"), _("games"), _("seat 0 win %"), _("95% CI"), _("mean winning score"), _("mean score")]
    rows = []
    for st in stats[:MAX_LABELS]:
        lo, hi = wilson(st.first_seat_wins, st.n)
        rows.append(
            [
                st.label,
                str(st.n),
                _pct(st.first_seat_wins / st.n),
                f"{_pct(lo)}–{_pct(hi)}",
                f"{st.best_score_sum / st.n:.2f}",
                f"{st.score_sum / st.n:.2f}",
            ]
        )
    return head, rows


def sections(rep: TournamentReport) -> list[tuple[str, list[str], list[list[str]]]]:
    """Return ``(title, header, rows)`` of every table of the report, in order."""
    out = [
        (_("Bots"), *bot_rows(rep)),
        (_("Seats (first-player advantage)"), *seat_rows(rep)),
        (_("Head to head"), *h2h_rows(rep)),
        (_("Game length"), *length_rows(rep)),
    ]
    for q, stats in rep.seat_questions.items():
        out.append((_("Win rate by {question}").format(question=q), *seat_question_rows(stats)))
    for q, stats in rep.game_questions.items():
        out.append((_("By {question}").format(question=q), *game_question_rows(stats)))
    if rep.values:
        rows = [
            [name, str(n), f"{mean:.2f}", f"{sd:.2f}", f"{lo:g}", f"{hi:g}"]
            for name, (n, mean, sd, lo, hi) in rep.values.items()
        ]
        out.append((_("Values"), [_("value"), _("games"), _("mean"), _("sd"), _("min"), _("max")], rows))
    return out


def _summary_lines(rep: TournamentReport) -> list[str]:
    cfg = rep.config
    lines = [
        _("Game: {game}, {players} players, params {params}").format(
            game=cfg.game, players=cfg.players, params=cfg.params or _("default")
        ),
        _("Bots: {bots}; {n} games ({rotations} rotations per deal, paired deals), seed {seed}").format(
            bots=", ".join(cfg.bots), n=rep.games, rotations=cfg.rotations, seed=cfg.seed
        ),
        _("Fair share: {share}% per seat-game; win credit splits shared wins.").format(share=_pct(rep.fair_share)),
    ]
    if balance_question(cfg.game):
        lines.append(_("Balance questions: {questions}").format(questions=balance_question(cfg.game)))
    if rep.feature_errors:
        lines.append(_("Warning: balance features failed on {n} games.").format(n=rep.feature_errors))
    return lines


# ---------------------------------------------------------------- terminal
def rich_tables(rep: TournamentReport) -> list[Table]:
    """Return the report as rich tables (one per section)."""
    tables = []
    for title, head, rows in sections(rep):
        table = Table(title=title, title_justify="left")
        for i, h in enumerate(head):
            table.add_column(h, justify="left" if i == 0 else "right")
        for row in rows:
            table.add_row(*row)
        tables.append(table)
    return tables


def summary_text(rep: TournamentReport) -> list[str]:
    """Return the few lines printed above the tables."""
    return _summary_lines(rep)


# ---------------------------------------------------------------- plots
def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _bar_ci(title: str, names: list[str], stats: list[tuple[float, int]], fair: float | None) -> str:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(4.0, 0.6 * len(names) + 2), 3.2))
    ax = fig.subplots()
    rates = [w / n if n else 0.0 for w, n in stats]
    cis = [wilson(w, n) for w, n in stats]
    err = [
        [max(0.0, r - lo) for r, (lo, _hi) in zip(rates, cis, strict=True)],
        [max(0.0, hi - r) for r, (_lo, hi) in zip(rates, cis, strict=True)],
    ]
    ax.bar(range(len(names)), rates, yerr=err, capsize=3, color="#4c72b0")
    if fair is not None:
        ax.axhline(fair, color="#c44e52", linestyle="--", linewidth=1, label=_("fair share"))
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(
        names, rotation=45 if len(names) > 4 else 0, ha="right" if len(names) > 4 else "center", fontsize=8
    )
    ax.set_ylabel(_("win rate"))
    ax.set_title(title, fontsize=10)
    return _png(fig)


def plots(rep: TournamentReport) -> list[tuple[str, str]]:
    """Return ``(caption, base64 PNG)`` of every plot of the report."""
    from matplotlib.figure import Figure

    out = []
    names = list(rep.bots)
    out.append(
        (
            _("Win rate per bot (95% Wilson interval)"),
            _bar_ci(_("win rate per bot"), names, [(rep.bots[b].wins, rep.bots[b].n) for b in names], rep.fair_share),
        )
    )
    out.append(
        (
            _("Win rate per seat (95% Wilson interval)"),
            _bar_ci(
                _("win rate per seat"), [s.name for s in rep.seats], [(s.wins, s.n) for s in rep.seats], rep.fair_share
            ),
        )
    )
    fig = Figure(figsize=(max(4.0, 0.8 * len(names) + 2), 3.2))
    ax = fig.subplots()
    ax.boxplot([rep.bots[b].scores for b in names], tick_labels=names)
    ax.set_ylabel(_("final score"))
    ax.set_title(_("scores per bot"), fontsize=10)
    out.append((_("Final scores per bot"), _png(fig)))
    fig = Figure(figsize=(5, 3))
    ax = fig.subplots()
    ax.hist(rep.lengths, bins=min(30, max(5, len(set(rep.lengths)))), color="#55a868")
    ax.set_xlabel(_("decisions per game"))
    ax.set_title(_("game length"), fontsize=10)
    out.append((_("Game length"), _png(fig)))
    for q, stats in rep.seat_questions.items():
        shown = stats[:MAX_LABELS]
        out.append(
            (
                _("Win rate by {question}").format(question=q),
                _bar_ci(
                    _("win rate by {question}").format(question=q),
                    [s.label for s in shown],
                    [(s.wins, s.n) for s in shown],
                    rep.fair_share,
                ),
            )
        )
    return out


# ---------------------------------------------------------------- files
def _html_table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def to_html(rep: TournamentReport) -> str:
    """Return the report as one self-contained HTML page (plots embedded as base64 PNGs)."""
    page_title = _("meeple tournament: {game}").format(game=rep.config.game)
    heading = _("Tournament: {game}").format(game=rep.config.game)
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(page_title)}</title><style>",
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;}table{border-collapse:collapse;margin:1em 0;}",
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;}td:first-child,th:first-child{text-align:left}",
        "th{background:#f0f0f0}</style></head><body>",
        f"<h1>{html.escape(heading)}</h1>",
        "".join(f"<p>{html.escape(line)}</p>" for line in _summary_lines(rep)),
    ]
    for title, head, rows in sections(rep):
        parts.append(f"<h2>{html.escape(title)}</h2>{_html_table(head, rows)}")
    plots_title = _("Plots")
    parts.append(f"<h2>{html.escape(plots_title)}</h2>")
    for caption, png in plots(rep):
        parts.append(
            f"<figure><img alt='{html.escape(caption)}' src='data:image/png;base64,{png}'>"
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
    parts.append("</body></html>")
    return "\n".join(parts)


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    def esc(c: str) -> str:
        return c.replace("|", "\\|")

    lines = ["| " + " | ".join(esc(h) for h in head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(rep: TournamentReport) -> str:
    """Return the report as Markdown (plots embedded as base64 PNG data URIs)."""
    title = _("Tournament: {game}").format(game=rep.config.game)
    parts = [f"# {title}", "", *(f"- {line}" for line in _summary_lines(rep)), ""]
    for title, head, rows in sections(rep):
        parts += [f"## {title}", "", _md_table(head, rows), ""]
    plots_title = _("Plots")
    parts += [f"## {plots_title}", ""]
    for caption, png in plots(rep):
        parts += [f"![{caption}](data:image/png;base64,{png})", ""]
    return "\n".join(parts)


def write_report(rep: TournamentReport, path: str | Path) -> Path:
    """Write the report to ``path``: HTML for ``.html``/``.htm``, Markdown otherwise; return the path."""
    path = Path(path)
    text = to_html(rep) if path.suffix.lower() in (".html", ".htm") else to_markdown(rep)
    path.write_text(text, encoding="utf-8")
    return path
