"""Tournament results in SQLite, through SQLAlchemy 2.x: resumable tournaments and later analysis.

Two tables: ``tournaments`` (one row per tournament configuration, keyed by a hash of everything that defines its
games) and ``games`` (one row per finished game: deal, rotation, seed, per-seat bot labels and specs, returns,
scores, length, balance features, the full :class:`~meeple.core.records.GameRecord` JSON and the time it took).
A game is identified by ``(tournament, deal, rotation)``, so re-running a tournament skips the games already stored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, UniqueConstraint, create_engine, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from meeple.arena.tournament import GameResult, TournamentConfig
from meeple.core.errors import MeepleError


class StoreError(MeepleError):
    """A results file that cannot be used: a directory, not a SQLite database, or not writable."""


class _Base(DeclarativeBase):
    pass


class TournamentRow(_Base):
    """One tournament configuration (the number of games may grow when it is resumed with a larger ``--games``)."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    game: Mapped[str] = mapped_column(String(64))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[str] = mapped_column(String(40))


class GameRow(_Base):
    """One finished game of a tournament."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("tournament_id", "deal", "rotation", name="uq_game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    deal: Mapped[int] = mapped_column(Integer)
    rotation: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    labels: Mapped[list[str]] = mapped_column(JSON)
    specs: Mapped[list[str]] = mapped_column(JSON)
    returns: Mapped[list[float]] = mapped_column(JSON)
    scores: Mapped[list[float]] = mapped_column(JSON)
    length: Mapped[int] = mapped_column(Integer)
    features: Mapped[dict[str, Any]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    seconds: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class StoredTournament:
    """A tournament found in a store: its id, key, configuration and number of finished games."""

    id: int
    key: str
    config: TournamentConfig
    finished: int


class ResultStore:
    """A SQLite file (or an in-memory database) of tournament results.

    Args:
        path: the SQLite file (created if missing); ``None`` for a throw-away in-memory database.

    Raises:
        StoreError: ``path`` is a directory, is not a SQLite database, or cannot be created.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        if path is not None and Path(path).is_dir():
            raise StoreError(f"{path} is a directory, not a SQLite file of results")
        url = "sqlite://" if path is None else f"sqlite:///{Path(path)}"
        try:
            self.engine = create_engine(url)
            _Base.metadata.create_all(self.engine)
        except (SQLAlchemyError, OSError) as exc:
            reason = getattr(exc, "orig", None) or exc
            raise StoreError(f"{path} cannot be used as a SQLite file of results: {reason}") from None

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def tournament_id(self, config: TournamentConfig) -> int:
        """Return the id of ``config``'s tournament, creating its row if needed (the stored game count grows)."""
        key = config.key()
        with Session(self.engine) as session:
            row = session.scalars(select(TournamentRow).where(TournamentRow.key == key)).one_or_none()
            if row is None:
                row = TournamentRow(
                    key=key, game=config.game, config=config.to_json(), created=datetime.now(UTC).isoformat()
                )
                session.add(row)
            elif int(row.config.get("games", 0)) < config.games:
                row.config = config.to_json()
            session.commit()
            return row.id

    def finished(self, tournament_id: int) -> set[tuple[int, int]]:
        """Return the ``(deal, rotation)`` pairs already stored for a tournament."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(GameRow.deal, GameRow.rotation).where(GameRow.tournament_id == tournament_id)
            ).all()
            return {(int(d), int(r)) for d, r in rows}

    def add(self, tournament_id: int, results: list[GameResult]) -> None:
        """Store finished games (one transaction)."""
        with Session(self.engine) as session:
            for res in results:
                session.add(
                    GameRow(
                        tournament_id=tournament_id,
                        deal=res.deal,
                        rotation=res.rotation,
                        seed=res.seed,
                        labels=list(res.labels),
                        specs=list(res.specs),
                        returns=list(res.returns),
                        scores=list(res.scores),
                        length=res.length,
                        features=res.features,
                        record=res.record,
                        seconds=res.seconds,
                    )
                )
            session.commit()

    def tournaments(self) -> list[StoredTournament]:
        """Return every tournament of the store, oldest first."""
        with Session(self.engine) as session:
            out = []
            for row in session.scalars(select(TournamentRow).order_by(TournamentRow.id)):
                count = len(session.execute(select(GameRow.id).where(GameRow.tournament_id == row.id)).all())
                out.append(StoredTournament(row.id, row.key, TournamentConfig.from_json(row.config), count))
            return out

    def results(self, tournament_id: int) -> list[GameResult]:
        """Return the stored games of a tournament, ordered by ``(deal, rotation)``."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(GameRow).where(GameRow.tournament_id == tournament_id).order_by(GameRow.deal, GameRow.rotation)
            )
            return [
                GameResult(
                    deal=r.deal,
                    rotation=r.rotation,
                    seed=r.seed,
                    labels=tuple(r.labels),
                    specs=tuple(r.specs),
                    returns=tuple(float(x) for x in r.returns),
                    scores=tuple(float(x) for x in r.scores),
                    length=r.length,
                    features=dict(r.features),
                    record=dict(r.record),
                    seconds=float(r.seconds),
                )
                for r in rows
            ]


def config_digest(data: dict[str, Any]) -> str:
    """Return a stable text form of a configuration (sorted JSON), for display and hashing."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
