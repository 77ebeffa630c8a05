"""Tournament reports: rich tables for the terminal, and an HTML or Markdown file with plots (Jinja2 templates).

The HTML page embeds its matplotlib plots as base64 PNG images, so it can be mailed or attached as is; a Markdown
report links PNG files written beside it (forges do not display base64 images). Contents: the
configuration; per bot the win rate with its 95% Wilson interval, mean score, openskill rating; per seat the same
(first-player advantage); head to head; game lengths; and the game's balance questions
(:mod:`meeple.arena.balance`).
"""

from __future__ import annotations

import io
from base64 import b64encode
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
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


@dataclass(frozen=True)
class Section:
    """One table of the report: title, header, rows, and a note printed under it (or "")."""

    title: str
    head: list[str]
    rows: list[list[str]]
    note: str = ""


def _many_labels_note(count: int) -> str:
    """The multiple-comparisons caution under a table of many labels' win rates."""
    return _(
        "{n} labels compared at once: about 1 in 20 of their 95% intervals misses the true rate by chance alone, so "
        "read a single 'above' or 'below' as a hint, not a finding (Holm-Bonferroni: the smallest of {n} p-values "
        "must be below {alpha} to count at the 5% level)."
    ).format(n=count, alpha=f"{0.05 / count:.4f}")


def sections(rep: TournamentReport) -> list[Section]:
    """Return every table of the report, in order."""
    out = [
        Section(_("Bots"), *bot_rows(rep)),
        Section(_("Seats (first-player advantage)"), *seat_rows(rep)),
        Section(_("Head to head"), *h2h_rows(rep)),
        Section(_("Game length"), *length_rows(rep)),
    ]
    for q, stats in rep.seat_questions.items():
        head, rows = seat_question_rows(stats)
        note = _many_labels_note(len(rows)) if len(rows) > 2 else ""
        out.append(Section(_("Win rate by {question}").format(question=q), head, rows, note))
    for q, stats in rep.game_questions.items():
        head, rows = game_question_rows(stats)
        note = _many_labels_note(len(rows)) if len(rows) > 2 else ""
        out.append(Section(_("By {question}").format(question=q), head, rows, note))
    if rep.values:
        rows = [
            [name, str(n), f"{mean:.2f}", f"{sd:.2f}", f"{lo:g}", f"{hi:g}"]
            for name, (n, mean, sd, lo, hi) in rep.values.items()
        ]
        out.append(Section(_("Values"), [_("value"), _("games"), _("mean"), _("sd"), _("min"), _("max")], rows))
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
        _(
            "Intervals: 95%. Bots and seats: paired bootstrap over deals (the rotations of one deal are resampled "
            "together, as they were played); balance tables: Wilson intervals."
        ),
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
    for section in sections(rep):
        table = Table(title=section.title, title_justify="left", caption=section.note or None, caption_justify="left")
        for i, h in enumerate(section.head):
            table.add_column(h, justify="left" if i == 0 else "right")
        for row in section.rows:
            table.add_row(*row)
        tables.append(table)
    return tables


def summary_text(rep: TournamentReport) -> list[str]:
    """Return the few lines printed above the tables."""
    return _summary_lines(rep)


# ---------------------------------------------------------------- plots
@dataclass(frozen=True)
class Plot:
    """One plot: caption, file-name stem and PNG bytes."""

    caption: str
    name: str
    png: bytes

    @property
    def base64(self) -> str:
        """The PNG as base64 (for the self-contained HTML page)."""
        return b64encode(self.png).decode("ascii")


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return buf.getvalue()


def _bar_ci(
    title: str, names: list[str], rates: list[float], cis: list[tuple[float, float]], fair: float | None
) -> bytes:
    """A bar per name with its interval; the fair-share line's legend sits outside the axes (it hides no bar)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(6.4, 0.7 * len(names) + 3), 4.4))
    ax = fig.subplots()
    err = [
        [max(0.0, r - lo) for r, (lo, _hi) in zip(rates, cis, strict=True)],
        [max(0.0, hi - r) for r, (_lo, hi) in zip(rates, cis, strict=True)],
    ]
    ax.bar(range(len(names)), rates, yerr=err, capsize=4, color="#4c72b0", label=_("win rate, 95% interval"))
    if fair is not None:
        ax.axhline(fair, color="#c44e52", linestyle="--", linewidth=1, label=_("fair share"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(
        names, rotation=45 if len(names) > 4 else 0, ha="right" if len(names) > 4 else "center", fontsize=9
    )
    ax.set_ylim(0, min(1.0, max([hi for _lo, hi in cis] + [fair or 0.0]) * 1.15 + 0.02))
    ax.set_ylabel(_("win rate"))
    ax.set_title(title, fontsize=11)
    return _png(fig)


def _rate_plot(title: str, stats: Sequence[RateStat], fair: float | None) -> bytes:
    return _bar_ci(title, [s.name for s in stats], [s.win_rate for s in stats], [s.interval for s in stats], fair)


def plots(rep: TournamentReport) -> list[Plot]:
    """Return every plot of the report."""
    from matplotlib.figure import Figure

    out = []
    bots = [rep.bots[b] for b in rep.bots]
    out.append(
        Plot(
            _("Win rate per bot (95% paired-bootstrap interval)"),
            "bots",
            _rate_plot(_("win rate per bot"), bots, rep.fair_share),
        )
    )
    out.append(
        Plot(
            _("Win rate per seat (95% paired-bootstrap interval)"),
            "seats",
            _rate_plot(_("win rate per seat"), rep.seats, rep.fair_share),
        )
    )
    names = list(rep.bots)
    fig = Figure(figsize=(max(6.4, 0.9 * len(names) + 3), 4.4))
    ax = fig.subplots()
    ax.boxplot([rep.bots[b].scores for b in names], tick_labels=names)
    ax.set_ylabel(_("final score"))
    ax.set_title(_("scores per bot"), fontsize=11)
    out.append(Plot(_("Final scores per bot"), "scores", _png(fig)))
    fig = Figure(figsize=(6.4, 4.0))
    ax = fig.subplots()
    ax.hist(rep.lengths, bins=min(30, max(5, len(set(rep.lengths)))), color="#55a868")
    ax.set_xlabel(_("decisions per game"))
    ax.set_title(_("game length"), fontsize=11)
    out.append(Plot(_("Game length"), "length", _png(fig)))
    for i, (q, stats) in enumerate(rep.seat_questions.items()):
        shown = stats[:MAX_LABELS]
        rates = [s.wins / s.n if s.n else 0.0 for s in shown]
        out.append(
            Plot(
                _("Win rate by {question}").format(question=q),
                f"question-{i + 1}",
                _bar_ci(
                    _("win rate by {question}").format(question=q),
                    [s.label for s in shown],
                    rates,
                    [wilson(s.wins, s.n) for s in shown],
                    rep.fair_share,
                ),
            )
        )
    return out


# ---------------------------------------------------------------- files
_TEMPLATES = Environment(
    loader=PackageLoader("meeple.arena", "templates"),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False, default=False),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


_TEMPLATES.filters["md_cell"] = _md_cell


def _context(rep: TournamentReport) -> dict[str, Any]:
    return {
        "_": _,
        "title": _("Tournament: {game}").format(game=rep.config.game),
        "page_title": _("meeple tournament: {game}").format(game=rep.config.game),
        "summary": _summary_lines(rep),
        "sections": sections(rep),
        "plots_title": _("Plots"),
    }


def to_html(rep: TournamentReport) -> str:
    """Return the report as one self-contained HTML page (plots embedded as base64 PNGs)."""
    return _TEMPLATES.get_template("report.html").render(**_context(rep), plots=plots(rep))


def to_markdown(rep: TournamentReport, images: Path | None = None, link: str = "") -> str:
    """Return the report as Markdown; with ``images``, write its plots there as PNG files and link them.

    Common forges do not show base64 images in Markdown, so the plots are files beside the report
    (:func:`write_report` puts them in ``<report name>-plots/``); without ``images`` the Markdown has no plots.

    Args:
        rep: the report.
        images: the folder to write the PNG files to (created), or None.
        link: the folder's path as the Markdown links it (relative to the report).
    """
    shown: list[tuple[str, str]] = []
    if images is not None:
        images.mkdir(parents=True, exist_ok=True)
        for k, plot in enumerate(plots(rep), 1):
            name = f"{k:02d}-{plot.name}.png"
            (images / name).write_bytes(plot.png)
            shown.append((plot.caption, f"{link}/{name}" if link else name))
    return _TEMPLATES.get_template("report.md").render(**_context(rep), images=shown)


def write_report(rep: TournamentReport, path: str | Path) -> Path:
    """Write the report to ``path``: HTML for ``.html``/``.htm`` (self-contained), Markdown otherwise.

    A Markdown report's plots are PNG files in ``<stem>-plots/`` beside it, linked from the report.
    """
    path = Path(path)
    if path.suffix.lower() in (".html", ".htm"):
        text = to_html(rep)
    else:
        folder = path.with_name(f"{path.stem}-plots")
        text = to_markdown(rep, folder, folder.name)
    path.write_text(text, encoding="utf-8")
    return path
