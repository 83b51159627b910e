"""Ratings pages: a leaderboard per game kind and overall; JSON for the same."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine

from .. import clock
from ..bounds import is_row_id, whole
from ..errors import NotFound
from ..models import Player
from ..ratings.core import queries
from ..ratings.core.chart import chart
from ..ratings.core.games import OVERALL
from ..ratings.core.state import Ratings
from ..ratings.current import CURRENT
from ..services import services

bp = Blueprint("ratings", __name__)
ACTIVE_DAYS = 90
MAX_ACTIVE_DAYS = 36500  # a century: active since before any game was played here


def pool_from(args: Any) -> str:
    """The pool a request asks for: a game kind, or overall."""
    pool = args.get("kind") or OVERALL
    if pool != OVERALL and pool not in engine.GAMES:
        raise NotFound(f"there is no game {pool!r}; games: {', '.join(engine.GAMES)}")
    return pool


def names_of(session: Session, ids: Any) -> dict[str, str]:
    """Players' names by id string."""
    wanted = [int(i) for i in ids]
    rows = list(session.scalars(select(Player).where(Player.id.in_(wanted)))) if wanted else []
    return {str(p.id): p.name for p in rows}


def board(session: Session, ratings: Ratings, pool: str, active: bool) -> list[dict[str, Any]]:
    """The leaderboard lines of a pool, with names."""
    rows = queries.leaderboard(ratings, pool, now=clock.utcnow(),
                               active_days=ACTIVE_DAYS if active else None)
    names = names_of(session, [r.standing.player for r in rows])
    return [{"place": r.place, "player": r.standing.player,
             "name": names.get(r.standing.player, r.standing.player),
             "rating": r.standing.display, "provisional": r.standing.provisional,
             "games": r.standing.games, "last_played": r.standing.last_played.isoformat()}
            for r in rows]


@bp.get("/ratings")
def leaderboard() -> str:
    """A leaderboard per kind (and overall), optionally of active players only."""
    pool, active = pool_from(request.args), request.args.get("active") == "1"
    with services().db.read() as session:
        lines = board(session, CURRENT.of(session).get(session), pool, active)
    titles = {k: engine.rules_for(k).title for k in engine.GAMES}
    return render_template("ratings.html", lines=lines, pool=pool, active=active,
                           titles=titles, active_days=ACTIVE_DAYS)


@bp.get("/api/ratings")
def leaderboard_json() -> Any:
    """The leaderboard as JSON: ?kind=K (default overall), ?active_days=N."""
    pool = pool_from(request.args)
    days = request.args.get("active_days", "")
    active_days = whole(days, "active_days", 1, MAX_ACTIVE_DAYS) if days else None
    with services().db.read() as session:
        ratings = CURRENT.of(session).get(session)
        rows = queries.leaderboard(ratings, pool, now=clock.utcnow(),
                                   active_days=active_days)
        names = names_of(session, [r.standing.player for r in rows])
    return jsonify(pool=pool, players=[
        {"place": r.place, "player": r.standing.player, "name": names.get(r.standing.player),
         "rating": r.standing.display, "provisional": r.standing.provisional,
         "mu": r.standing.mu, "sigma": r.standing.sigma, "games": r.standing.games}
        for r in rows])


def player_ratings(session: Session, player: Player) -> dict[str, Any]:
    """A player's ratings per pool with charts, head-to-head records and recent games."""
    ratings = CURRENT.of(session).get(session)
    me = str(player.id)
    pools = []
    for pool in queries.pools_of(ratings, me):
        standing = queries.standing(ratings, me, pool)
        title = "all games" if pool == OVERALL else engine.rules_for(pool).title
        points = queries.history(ratings, me, pool)
        pools.append({"pool": pool, "title": title, "standing": standing, "points": points,
                      "svg": chart(points, player=player.name, kind=title,
                                   ident=f"chart-{pool}")})
    records = queries.head_to_head(ratings, me)
    recent = queries.recent_games(ratings, me, limit=20)
    opponents = {r.opponent for r in records} | {
        s.player for r in recent for s in r.record.seats if s.player}
    return {"pools": pools, "records": records, "recent": recent, "me": me,
            "names": names_of(session, opponents),
            "change": queries.change_of}


@bp.get("/api/players/<int:player_id>/ratings")
def player_json(player_id: int) -> Any:
    """A player's ratings per pool, their history and head-to-head records."""
    with services().db.read() as session:
        player = session.get(Player, player_id) if is_row_id(player_id) else None
        if player is None:
            raise NotFound(f"there is no player {player_id}")
        found = player_ratings(session, player)
    return jsonify(player=player_id, name=player.name, pools=[
        {"pool": p["pool"], "rating": p["standing"].display,
         "provisional": p["standing"].provisional, "games": p["standing"].games,
         "history": [{"game": pt.game, "at": pt.at.isoformat(), "rating": pt.after,
                      "change": pt.delta, "sigma": pt.sigma} for pt in p["points"]]}
        for p in found["pools"]], head_to_head=[
        {"opponent": r.opponent, "name": found["names"].get(r.opponent), "pool": r.pool,
         "games": r.games, "wins": r.wins, "draws": r.draws, "losses": r.losses}
        for r in found["records"]])
