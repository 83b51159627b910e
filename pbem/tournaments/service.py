"""Running a tournament: create, register, start, pair and start games, record results, close.

Every change is an event appended to the tournament's log after the pure core has folded
it (so a refused change writes nothing). Games are started through the play layer like any
casual game; when one ends, `on_game_end` appends its `result` in the same transaction
and pairs whatever is due next. `tick` catches up anything a crash left behind.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from engine.figures import counted

from .. import clock
from ..bounds import shown
from ..context import Context
from ..errors import PbemError, Rejected
from ..log import dice, store
from ..log.chain import GENESIS, now_text
from ..log.games import Loaded, dice_held, load
from ..models import Game, Player, Tournament, TournamentEntrant, TournamentSecret
from ..play import director as games
from ..play.start import TIMEOUT_POLICIES, start_game
from . import adjudication, duplicate, labels, log, mails, reports
from .attempts import attempt, in_words, settled
from .core import entries, formats
from .core.config import UNFINISHED, check_fits, check_limits, parse_config
from .core.errors import TournamentError
from .core.export import standings_hash
from .core.fold import fold
from .core.model import Event
from .core.model import Tournament as State
from .core.plans import Plan
from .log import Folded, Held

PAIRINGS_PER_TICK = 64  # a round robin pairs a round at a time; bounded so a tick ends


def record(session: Session, held: Held, kind: str, payload: dict[str, Any]) -> Held:
    """Fold the event onto the tournament; append it only if the core accepts it."""
    return checked_append(session, held.row, held.state, kind, payload)


def checked_append(
    session: Session, row: Tournament, state: State | None, kind: str, payload: dict[str, Any]
) -> Held:
    """Append an event to a log after checking that the log still folds with it.

    `state` is the fold of the log so far (None for a new log): the event is folded onto it,
    and a refusal names its players.
    """
    at = now_text()
    event = Event(row.head_seq + 1, kind, payload, datetime.fromisoformat(at))
    try:
        folded = fold((event,), after=state)
    except TournamentError as e:
        raise Rejected(in_words(str(e), state)) from e
    log.append(session, row, kind, payload, at=at)
    log.stored_on_append(session, row, folded)
    row.updated_at = clock.utcnow()
    return Held(row, Folded(folded))


def create(session: Session, director: Player, fields: Mapping[str, Any]) -> Held:
    """Set up an event from a director's choices; Rejected names what does not fit."""
    kind = str(fields.get("kind", ""))
    if not isinstance(fields.get("options") or {}, Mapping):
        raise Rejected("options must be an object: each game option's name and its value")
    if not isinstance(fields.get("preset"), str | None):
        raise Rejected("preset must be the name of one of the game's presets")
    if not isinstance(fields.get("private"), bool | None):
        raise Rejected("private must be true (entry by invitation only) or false")
    if not isinstance(fields.get("description"), str | None):
        raise Rejected("description must be text: notes for the entrants")
    if not isinstance(fields.get("table_sizes") or [], list | tuple):
        raise Rejected("table_sizes must be a list of seat counts, such as [4, 5]")
    try:
        rules = engine.rules_for(kind)
        resolved = rules.resolve_options(fields.get("options") or {}, fields.get("preset"))
    except engine.RulesError as e:
        raise Rejected(str(e)) from e
    seats = tuple(rules.seats)
    default_sizes = [2] if 2 in seats else list(seats)
    seed = dice.new_seed()
    payload = {
        "name": " ".join(str(fields.get("name") or "").split())[:100],
        **{k: v for k, v in fields.items() if k not in ("name", "director") and v is not None},
        "table_sizes": list(fields.get("table_sizes") or default_sizes),
        "scoring": fields.get("scoring")
        or {"by": "game-points" if rules.series_by_game_points(resolved) else "places"},
        "director": str(director.id),
        "commitment": dice.commitment(seed),
    }
    if not payload["name"]:
        raise Rejected("give the tournament a name")
    for key, words in TIMES.items():
        if payload.get(key) is not None:
            payload[key] = moment_of(payload[key], words)
    payload.update(timetable_fields(payload.get("round_starts")))
    description = str(payload.pop("description", None) or "").strip()
    if description:
        payload["description"] = description
    try:
        config = parse_config(payload)
        check_limits(config)
        check_fits(config, seats)
    except TournamentError as e:
        raise Rejected(str(e)) from e
    if config.timeout_policy not in TIMEOUT_POLICIES:
        raise Rejected(f"timeout_policy must be one of {', '.join(TIMEOUT_POLICIES)}, "
                       f"not {shown(config.timeout_policy)}")
    if config.duplicate and duplicate.refusal(kind):
        raise Rejected(str(duplicate.refusal(kind)))
    now = clock.utcnow()
    timetable = [(f"round {r}'s start", at) for r, at in enumerate(config.round_starts, start=2)]
    for words, at in (("the start", config.starts_at),
                      ("the entry deadline", config.registration_closes), *timetable[:1]):
        if at is not None and at <= now:
            raise Rejected(f"{words}, {entries.when(at)}, is already past")
    row = Tournament(
        public_id=new_public_id(session),
        name=config.name,
        kind=kind,
        system=config.system,
        status="registering",
        director_id=director.id,
        head_seq=-1,
        head_hash=GENESIS,
        created_at=now,
        updated_at=now,
    )
    session.add(row)
    session.flush()
    session.add(TournamentSecret(tournament_id=row.id, seed=seed))
    return checked_append(session, row, None, "create", payload)


TIMES = {"starts_at": "the start", "registration_closes": "the entry deadline"}


def moment_of(value: Any, words: str) -> str:
    """A time as the logs write it (ISO 8601 UTC); a time without a zone is UTC."""
    try:
        when = datetime.fromisoformat(str(value).strip())
    except ValueError as e:
        raise Rejected(f"give {words} as YYYY-MM-DD HH:MM (UTC), not {shown(value)}") from e
    return (when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)).isoformat()


def timetable_fields(given: Any) -> dict[str, Any]:
    """A round timetable as the log writes it: a list of times (text: one a line or
    comma-separated), each round's in ISO 8601 UTC."""
    if given is None or given == "" or given == []:
        return {}
    if isinstance(given, str):
        given = [part for part in re.split(r"[\n,;]+", given) if part.strip()]
    if not isinstance(given, list | tuple):
        raise Rejected("give the timetable as the dates of rounds 2, 3, ..., one a line")
    return {"round_starts": [moment_of(value, f"round {round_}'s start")
                             for round_, value in enumerate(given, start=2)]}


def new_public_id(session: Session) -> str:
    """A short random tournament id that is not taken."""
    while True:
        candidate = "t" + secrets.token_hex(4)
        if session.scalar(select(Tournament.id).where(Tournament.public_id == candidate)) is None:
            return candidate


def register(session: Session, held: Held, player: Player, rating: float | None = None,
             rated_games: int | None = None, by: str | None = None,
             ctx: Context | None = None) -> Held:
    """Enter a player while entries are open (before the start, or late where the format
    takes late entrants); refused twice, or with the rule the entry breaks, in words.

    `rating` and `rated_games` are the player's in the event's game; `by` names who entered
    or invited them (the director, or "the operator"), which a private event needs. With
    `ctx`, a late entrant is paired at once when that is due (as a free player would be).
    """
    entered = entrant_ids(session, held.row, ("active",))
    if player.id in entered:
        raise Rejected(f"{player.name} is already registered for {held.row.name}")
    why = "the event is over" if held.state.closed else entries.refusal(
        entry_field(held.state), entries.Entry(player.name, rating, rated_games, by is not None),
        clock.utcnow())
    if why is not None:
        raise Rejected(f"{player.name} cannot enter {held.row.name}: {why}")
    payload: dict[str, Any] = {"player": str(player.id), "name": player.name, "rating": rating}
    if rated_games is not None:
        payload["rated_games"] = rated_games
    if by is not None:
        payload["by"] = by
    held = record(session, held, "register", payload)
    session.merge(TournamentEntrant(tournament_id=held.row.id, player_id=player.id,
                                    status="active"))
    if ctx is not None and held.state.started:
        held = carry_on(session, ctx, held, clock.utcnow(), summaries=False)
    return held


def entry_field(state: State) -> entries.Field:
    """The event as an entry finds it now."""
    return entries.Field(state.config, state.started, state.last_round(), state.entries_closed,
                         len(state.active()))


def entries_closed(state: State, now: datetime) -> str | None:
    """Say why nobody may enter now, or None while entries are open."""
    if state.closed:
        return "the event is over"
    return entries.closed(entry_field(state), now)


def entrant_ids(session: Session, row: Tournament, statuses: Iterable[str]) -> set[int]:
    """The players entered with one of these statuses."""
    query = select(TournamentEntrant.player_id).where(
        TournamentEntrant.tournament_id == row.id, TournamentEntrant.status.in_(list(statuses))
    )
    return set(session.scalars(query))


def set_status(session: Session, held: Held, player: str, status: str) -> None:
    """Keep the entrants cache in step with the log."""
    session.merge(TournamentEntrant(tournament_id=held.row.id, player_id=int(player),
                                    status=status))


def seeding_order(state: State, seed: str) -> list[str]:
    """Active entrants by rating, highest first; the committed seed orders equal ratings.

    The order of equals is HMAC-SHA256(seed, "seeding:" + player id), so anyone can check
    it once the close event reveals the seed.
    """
    def key(entrant: Any) -> tuple[float, str]:
        mac = hmac.new(bytes.fromhex(seed), f"seeding:{entrant.player}".encode(), hashlib.sha256)
        rating = entrant.rating if entrant.rating is not None else float("-inf")
        return (-rating, mac.hexdigest())

    return [e.player for e in sorted(state.entrants, key=key) if e.active]


def start(session: Session, ctx: Context, held: Held, now: datetime) -> Held:
    """Close registration, fix the seeding, and pair whatever is due."""
    if held.state.started:
        raise Rejected(f"{held.row.name} has already started")
    return tick(session, ctx, begin(session, held), now)


def entry_count(state: State) -> tuple[int, int]:
    """How many players have entered, and how many the event's format needs to start."""
    return len(state.active()), formats.format_of(state).fewest_entrants(state.config)


def too_few(held: Held) -> None:
    """Refuse to start an event that has fewer entrants than its format needs, saying how
    many have entered and how a player invited by mail enters."""
    entered, least = entry_count(held.state)
    if entered < least:
        title = formats.format_of(held.state).title
        raise Rejected(
            f"{held.row.name} cannot start: {counted(entered, 'player')} "
            f"{'has' if entered == 1 else 'have'} entered, and a {title} needs at least "
            f"{least}. A player mailed a registration link is entered once they open it "
            "and confirm."
        )


def begin(session: Session, held: Held) -> Held:
    """Log the start with the seeding; the event is running from now on (by the director,
    or at its scheduled time). Refused, in words, while too few players have entered."""
    too_few(held)
    secret = session.get(TournamentSecret, held.row.id)
    assert secret is not None
    held = record(session, held, "start", {"entrants": seeding_order(held.state, secret.seed)})
    held.row.status = "running"
    return held


def awaits_entries(state: State, now: datetime) -> bool:
    """Tell whether an event whose games are all played stays open for late entrants: it
    does until the entry deadline the director set (without one, it closes at once)."""
    return (state.config.registration_closes is not None
            and entries.closed(entry_field(state), now) is None)


def due_to_start(state: State, now: datetime) -> bool:
    """Tell whether an event's scheduled start has come with enough entrants to start."""
    at = state.config.starts_at
    entered, least = entry_count(state)
    return not state.started and at is not None and now >= at and entered >= least


def away_players(session: Session, held: Held, now: datetime) -> frozenset[str]:
    """Active entrants on vacation right now: they are not paired."""
    ids = [int(p) for p in held.state.active()]
    players = list(session.scalars(select(Player).where(Player.id.in_(ids)))) if ids else []
    return frozenset(str(p.id) for p in players if clock.is_away(p, now))


def weekly(state: State, now: datetime) -> bool:
    """Whether an event not paired round by round is due a weekly summary (after a week)."""
    started = state.started_at
    return (not formats.format_of(state).round_by_round and started is not None
            and now - started >= timedelta(days=7))


def tick(
    session: Session, ctx: Context, held: Held, now: datetime, *, summaries: bool = True
) -> Held:
    """Record results a crash missed, pair what is due, close a finished event, and send
    the weekly summary of an event without rounds (`summaries` False: not from a game's end).
    """
    if held.state.closed:
        return settled(held)
    if due_to_start(held.state, now):  # a scheduled start: the clock's pass starts the event
        held = begin(session, held)
    held = catch_up(session, ctx, held)
    held = on_timetable(session, ctx, held, now)
    for _ in range(PAIRINGS_PER_TICK):
        due = formats.plan(held.state, now, away_players(session, held, now))
        if due is None:
            break
        held = pair(session, ctx, held, due)
    if held.state.started and formats.is_over(held.state) and not awaits_entries(held.state,
                                                                                    now):
        held = close(session, ctx, held)
    elif summaries and weekly(held.state, now):
        week = now.isocalendar()
        mails.queue_summary(session, ctx, held, "the week's standings",
                            f"w{week.year}-{week.week:02d}")
    return settled(held)


def timetable_due(state: State, now: datetime) -> int | None:
    """The round the timetable starts now: its date has come, and the last round is not over."""
    if not state.started or state.closed or not state.config.round_starts:
        return None
    last = state.last_round()
    due = state.config.round_due(last + 1)
    if not last or due is None or now < due or not state.holding(last):
        return None
    return None if state.round_start(last + 1) else last + 1


def on_timetable(session: Session, ctx: Context, held: Held, now: datetime) -> Held:
    """Start the round whose date has come, as the timetable the director set says."""
    round_ = timetable_due(held.state, now)
    if round_ is None:
        return held
    director = session.get(Player, int(held.lead)) if held.lead.isdigit() else None
    setter = director.name if director is not None else "the director"
    who = games.Director(f"the server (on the timetable {setter} set)")
    due = held.state.config.round_due(round_)
    assert due is not None
    reason = f"round {round_} starts by {entries.when(due)} on the timetable"
    unfinished = held.state.config.unfinished_games or "carry"
    return start_round(session, ctx, held, who, unfinished, reason, timetable=now)


def start_round(session: Session, ctx: Context, held: Held, who: games.Director,
                unfinished: str, reason: str, *, timetable: datetime | None = None) -> Held:
    """Start the next Swiss round before the last one is over (by the director, or on the
    timetable as of `timetable`): log it, tell the players of the unfinished games and the
    directors, end those games by adjudication or let them go on, then pair the round."""
    state = held.state
    if not state.started or state.closed:
        raise Rejected(f"{held.row.name} is not running")
    if not formats.format_of(state).takes_timetable:
        raise Rejected(f"{held.row.name} is not a Swiss in rounds: its rounds do not start "
                       "early")
    if unfinished not in UNFINISHED:
        raise Rejected("choose what becomes of the unfinished games: adjudicate (ended on the "
                       "scores so far) or carry (they go on and count for their own round)")
    last = state.last_round()
    holding = state.holding(last) if last else ()
    if last >= (state.config.whole("rounds") or 0):
        raise Rejected(f"round {last} is the last round of {held.row.name}")
    if not holding:
        raise Rejected(f"round {last} of {held.row.name} has no unfinished game: round "
                       f"{last + 1} is paired as usual")
    payload: dict[str, Any] = {**who.payload(reason), "action": "start-round",
                               "round": last + 1, "unfinished": unfinished,
                               "games": sorted(t.game for t in holding)}
    if timetable is not None:
        payload.update(timetable=True, as_of=timetable.isoformat())
    held = record(session, held, "director", payload)
    mails.queue_round_start(session, ctx, held, held.state.round_starts[-1])
    if unfinished == "adjudicate":
        for table in holding:
            loaded = load(session, table.game)
            if loaded.game.status != "active":
                continue
            names = [reports.name_of(held.state, p) for p in table.seats]
            ruled = adjudication.ruling(loaded, names)
            why = f"{payload['reason']}; adjudicated on {ruled.basis}"
            if len(why) > games.MAX_REASON:  # the event logs the round's reason in full
                why = f"adjudicated on {ruled.basis}"[:games.MAX_REASON]
            games.adjudicate(session, ctx, table.game, who, why, list(ruled.ranks),
                             None if ruled.scores is None else list(ruled.scores))
        held = log.load(session, held.public_id, for_update=True)
    return held


def pair(session: Session, ctx: Context, held: Held, plan: Plan) -> Held:
    """Start a game per table of the plan, then log the pairing with the games' ids."""
    config = held.state.config
    games = []
    dice: dict[str, Any] = {}
    if config.duplicate and plan.round is not None:
        dice = {"stream": duplicate.stream_name(held.public_id, plan.round), "dice_scheme": 2}
    starting = labels.while_pairing(ctx, plan.round)
    for seats in plan.tables:
        players = [session.get(Player, int(p)) for p in seats]
        loaded = start_game(
            session,
            starting,
            config.kind,
            [(p.email, p.name) for p in players if p is not None],
            options=dict(config.options),
            preset=config.preset,
            deadline_hours=config.game_hours,
            timeout_policy=config.timeout_policy,
            tournament_id=held.row.id,
            **dice,
        )
        games.append(loaded.game.public_id)
    held = record(session, held, "pair", plan.payload(games))
    if plan.round is not None and formats.format_of(held.state).round_by_round:
        mails.queue_summary(session, ctx, held, f"round {plan.round} is paired", f"r{plan.round}")
    return held


def close(session: Session, ctx: Context, held: Held) -> Held:
    """Log the final standings' hash and reveal the seeding seed."""
    secret = session.get(TournamentSecret, held.row.id)
    payload = {"standings": standings_hash(held.state), "seed": secret.seed if secret else None}
    held = record(session, held, "close", payload)
    held.row.status = "closed"
    mails.queue_summary(session, ctx, held, "the final standings", "final")
    return held


def result_payload(session: Session, loaded: Loaded) -> dict[str, Any] | None:
    """A finished game's `result` (None when it was aborted: that is an annulment)."""
    outcome = loaded.outcome
    if outcome is None:
        return None
    log = store.entries(session, loaded.game)
    timeouts = [e for e in log if e.kind == "timeout"]
    flags = []
    if timeouts:
        flags.append("timeout")
        if any(e.payload.get("action") is None for e in timeouts):
            flags.append("forfeit")
        if any(e.payload.get("action") for e in timeouts):
            flags.append("bot")
    if loaded.ruling is not None:
        flags.append("adjudicated")
    ended = next((e.at for e in reversed(log) if e.kind != "reveal"), None)
    return {
        "game": loaded.game.public_id,
        "ranks": list(outcome.ranks),
        "scores": list(outcome.scores) if outcome.scores is not None else None,
        "flags": flags,
        "timed_out": sorted({int(e.seat) for e in timeouts if e.seat is not None}),
        "finished_at": ended or now_text(),  # when the game ended, even if logged later
        "head": loaded.game.head_hash,
    }


def record_result(session: Session, held: Held, loaded: Loaded) -> Held:
    """Append a game's result once (an aborted game is annulled instead).

    Not while another game on its dice stream still plays: its head, scores, even that it
    ended would tell of the dice to come there. The stream's last game to end records them.
    """
    table = held.state.by_game.get(loaded.game.public_id)
    if table is None or table.result is not None or table.annulled is not None:
        return held
    if dice_held(session, loaded.game):
        return held
    payload = result_payload(session, loaded)
    if payload is None:
        ruling = loaded.ruling
        return record(session, held, "director", {
            "by": ruling.by if ruling else "the server", "action": "annul",
            "game": loaded.game.public_id,
            "reason": ruling.text if ruling else "the game ended without a result",
        })
    return record(session, held, "result", payload)


def catch_up(session: Session, ctx: Context, held: Held) -> Held:
    """Record the result of every game of the event that ended without one."""
    pending = [t.game for t in held.state.tables if t.result is None and t.annulled is None]
    if not pending:
        return held
    ended = session.scalars(
        select(Game.public_id).where(Game.public_id.in_(pending), Game.status != "active")
    )
    for public_id in sorted(ended):
        held = record_result(session, held, load(session, public_id))
    return held


def on_game_end(session: Session, ctx: Context, loaded: Loaded) -> None:
    """The game-end hook: record a tournament game's result and pair what is now due."""
    if loaded.game.tournament_id is None:
        return
    row = session.get(Tournament, loaded.game.tournament_id)
    if row is None:
        return
    now = clock.utcnow()
    held = log.load(session, row.public_id, for_update=True)
    held = attempt(session, ctx, held, now, lambda h: record_result(session, h, loaded))
    carry_on(session, ctx, held, now, summaries=False)


def carry_on(session: Session, ctx: Context, held: Held, now: datetime, *,
             summaries: bool = True) -> Held:
    """Tick the event (pair, start games, close) as an `attempt`: a failure is kept and
    told, and never undoes what the caller did before it (a move, a withdrawal)."""
    return attempt(session, ctx, held, now,
                   lambda h: tick(session, ctx, h, now, summaries=summaries))


def tick_all(run: Callable[[Callable[[Session], Any]], Any], ctx: Context,
             now: datetime) -> list[str]:
    """Tick every running tournament (and start those whose time has come), each in its own
    transaction; the problems in words (each also kept on its event's row and told to its
    directors, see `carry_on`)."""
    # Events still taking entries too: one may have a scheduled start that has come.
    ids = run(lambda s: list(s.scalars(select(Tournament.public_id).where(
        Tournament.status.in_(("running", "registering"))))))
    errors = []
    for public_id in ids:

        def one(session: Session, public_id: str = public_id) -> str | None:
            held = carry_on(session, ctx, log.load(session, public_id, for_update=True), now)
            return held.row.problem

        try:
            problem = run(one)
        except (PbemError, TournamentError) as e:
            problem = str(e)
        if problem is not None:
            errors.append(f"tournament {public_id}: {problem}")
    return errors
