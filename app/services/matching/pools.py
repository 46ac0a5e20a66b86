"""The pools: join, stay (the waiting page's renewal), leave, start with bots.

Every change of who waits (an entry made, left, matched or expired away) happens under one
named lock (`app/db/locks.py`, "quick-match"), so two matches never see the same waiting player
and a player in several pools is seated once: the match reads the waiting entries, makes the
table, seats everyone and deals it (app/services/tables/quick.py), marks the entries matched
and drops the players' other entries, all in ONE transaction. A table is made whole or not at
all. Matching is a few small statements, so one lock for every pool costs little; the renewal
of a waiting entry (every few seconds per waiter) changes only its expiry and takes no lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from app.db.locks import serialise
from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.models.matching import PoolEntry
from app.db.models.ratings import Rating
from app.i18n import t_
from app.services.matching.choice import ANY, Choice, Waiter, pick
from app.services.matching.penalties import delay_for
from app.services.matching.rules import MatchRules
from app.services.tables import lobby, lookalikes, quick
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.notify import Notifier

LOCK = "quick-match"
# The most waiting entries one match reads (oldest first): bounded work per request.
READ_LIMIT = 500


@dataclass(frozen=True)
class EntryView:
    """A pool entry as its owner sees it."""

    id: int
    choice: Choice
    status: str  # "waiting" | "matched"
    game_id: int | None
    waiting: int  # players waiting for a table this entry could share, this one included
    created_at: datetime
    ready_at: datetime
    expires_at: datetime
    bots_at: datetime


def _choice(e: PoolEntry) -> Choice:
    return Choice(e.players, e.expansion, e.pace, e.rated)


def _scope(choice: Choice) -> Any:
    return (
        (PoolEntry.expansion.is_(choice.expansion))
        & (PoolEntry.pace == choice.pace)
        & (PoolEntry.rated.is_(choice.rated))
    )


def _waiting(now: datetime) -> Any:
    return PoolEntry.game_id.is_(None) & (PoolEntry.expires_at > now)


def _view(db: Session, e: PoolEntry, rules: MatchRules, now: datetime) -> EntryView:
    choice = _choice(e)
    fits = [ANY] if e.players == ANY else [ANY, e.players]
    count = 0
    if e.game_id is None:
        same = _scope(choice) & _waiting(now)
        if e.players != ANY:
            same = same & PoolEntry.players.in_(fits)
        count = db.scalar(select(func.count(func.distinct(PoolEntry.user_id))).where(same)) or 0
    return EntryView(
        id=e.id,
        choice=choice,
        status="waiting" if e.game_id is None else "matched",
        game_id=e.game_id,
        waiting=int(count),
        created_at=e.created_at,
        ready_at=e.ready_at,
        expires_at=e.expires_at,
        bots_at=e.created_at + timedelta(seconds=rules.bots_after_seconds),
    )


def _own(db: Session, user: User, entry_id: int) -> PoolEntry:
    """The caller's entry; someone else's is as missing as one that never was (`not_found`)."""
    entry = db.get(PoolEntry, entry_id, populate_existing=True)
    if entry is None or entry.user_id != user.id:
        raise ServiceError("not_found", t_("there is no pool entry {id}", id=entry_id))
    return entry


def _prune(db: Session, now: datetime) -> None:
    """Entries past their expiry: nobody waits there any more (matched ones were read)."""
    db.execute(
        delete(PoolEntry)
        .where(PoolEntry.expires_at <= now)
        .execution_options(synchronize_session=False)
    )


def _rating(db: Session, user: User, expansion: bool) -> int | None:
    if user.is_guest:
        return None
    variant = "expansion" if expansion else "base"
    return db.scalar(
        select(Rating.display).where(Rating.user_id == user.id, Rating.variant == variant)
    )


def _clash(name: str, names: Any) -> bool:
    return lookalikes.lookalike_in(name, names) is not None


Made = list[tuple[Game, Any]]


def _match(db: Session, choice: Choice, now: datetime, rules: MatchRules) -> Made:
    """Make every table the waiting entries of `choice`'s scope fill (the lock held)."""
    made: Made = []
    while True:
        rows = db.execute(
            select(PoolEntry, User)
            .join(User, User.id == PoolEntry.user_id)
            .where(_scope(choice), _waiting(now), PoolEntry.ready_at <= now)
            .order_by(PoolEntry.created_at, PoolEntry.id)
            .limit(READ_LIMIT)
        ).all()
        waiters = [Waiter(e.id, u.id, e.players, e.rating, u.display_name) for e, u in rows]
        found = pick(waiters, choice.rated, _clash)
        if found is None:
            return made
        size, table = found
        people = {u.id: u for _, u in rows}
        seated = [people[w.user_id] for w in table]
        rated = choice.rated and not any(u.is_guest for u in seated)
        game, state = quick.seat_and_deal(
            db,
            seated,
            players=size,
            expansion=choice.expansion,
            clock=rules.clock(choice.pace),
            rated=rated,
            max_clock_seconds=rules.max_clock_seconds,
        )
        _mark_matched(db, [w.entry_id for w in table], [u.id for u in seated], game.id, now, rules)
        made.append((game, state))


def _mark_matched(
    db: Session,
    entry_ids: list[int],
    user_ids: list[int],
    game_id: int,
    now: datetime,
    rules: MatchRules,
) -> None:
    """The seated entries name their table (kept for the waiting pages to read), and so do the
    seated players' other entries: they wait nowhere any more, and every page they waited on
    leads to the table. An entry gone meanwhile undoes the whole table."""
    marked = db.execute(
        update(PoolEntry)
        .where(PoolEntry.id.in_(entry_ids), PoolEntry.game_id.is_(None))
        .values(game_id=game_id, expires_at=now + timedelta(seconds=rules.entry_seconds))
        .execution_options(synchronize_session=False)
    )
    if marked.rowcount != len(entry_ids):
        db.rollback()
        raise ServiceError("unavailable", "the pools changed while matching: try again")
    db.execute(
        update(PoolEntry)
        .where(PoolEntry.user_id.in_(user_ids), PoolEntry.game_id.is_(None))
        .values(game_id=game_id, expires_at=now + timedelta(seconds=rules.entry_seconds))
        .execution_options(synchronize_session=False)
    )


def _commit(db: Session, made: Made, notifier: Notifier | None) -> None:
    db.commit()
    for game, state in made:
        quick.announce(db, game, state, notifier)


def join(
    db: Session,
    user: User,
    choice: Choice,
    rules: MatchRules,
    *,
    address: str | None = None,
    notifier: Notifier | None = None,
) -> EntryView:
    """Wait in the pool of `choice` (joining one's own pool again renews the entry); seated at
    once when the table fills. Refused: rated for a guest (`account_required`), past the
    pools per user (`too_many_pools`) or the entries per address (`too_many_entries`)."""
    if choice.rated:
        lobby.check_may_sit_rated(user)
    serialise(db, LOCK)
    now = now_in(db)
    _prune(db, now)
    entry = db.scalar(
        select(PoolEntry).where(
            PoolEntry.user_id == user.id,
            PoolEntry.players == choice.players,
            _scope(choice),
        )
    )
    if entry is not None and entry.game_id is not None:
        db.delete(entry)  # the table it led to was read; a new wait starts
        db.flush()
        entry = None
    if entry is None:
        _check_caps(db, user, address, now, rules)
        entry = PoolEntry(
            user_id=user.id,
            players=choice.players,
            expansion=choice.expansion,
            pace=choice.pace,
            rated=choice.rated,
            rating=_rating(db, user, choice.expansion),
            address=address,
            created_at=now,
            ready_at=now + timedelta(seconds=delay_for(db, user.id, now, rules.quit)),
            expires_at=now,
        )
        db.add(entry)
    entry.expires_at = now + timedelta(seconds=rules.entry_seconds)
    db.flush()
    entry_id = entry.id
    made = _match(db, choice, now, rules)
    _commit(db, made, notifier)
    return _view(db, _own(db, user, entry_id), rules, now_in(db))


def _check_caps(
    db: Session, user: User, address: str | None, now: datetime, rules: MatchRules
) -> None:
    mine = db.scalar(
        select(func.count(PoolEntry.id)).where(PoolEntry.user_id == user.id, _waiting(now))
    )
    if (mine or 0) >= rules.max_pools_per_user:
        db.rollback()
        raise ServiceError(
            "too_many_pools",
            t_(
                "you already wait in {count} pools (at most {cap}): leave one first",
                count=mine,
                cap=rules.max_pools_per_user,
            ),
            retry_after=rules.entry_seconds,
        )
    if address is None:
        return
    there = db.scalar(
        select(func.count(PoolEntry.id)).where(PoolEntry.address == address, _waiting(now))
    )
    if (there or 0) >= rules.max_entries_per_address:
        db.rollback()
        raise ServiceError(
            "too_many_entries",
            "too many players wait from your address: try again later",
            retry_after=rules.entry_seconds,
        )


def entries(db: Session, user: User, rules: MatchRules) -> list[EntryView]:
    """The caller's entries, waiting or matched and not yet expired."""
    now = now_in(db)
    rows = db.scalars(
        select(PoolEntry)
        .where(PoolEntry.user_id == user.id, PoolEntry.expires_at > now)
        .order_by(PoolEntry.id)
    )
    return [_view(db, e, rules, now) for e in rows]


def entry(db: Session, user: User, entry_id: int, rules: MatchRules) -> EntryView:
    """One of the caller's entries (`not_found` if gone or not theirs)."""
    now = now_in(db)
    e = _own(db, user, entry_id)
    if e.expires_at <= now:
        raise _expired(entry_id)
    return _view(db, e, rules, now)


def _expired(entry_id: int) -> ServiceError:
    return ServiceError(
        "entry_expired", t_("pool entry {id} expired: join the pool again", id=entry_id)
    )


def stay(
    db: Session, user: User, entry_id: int, rules: MatchRules, notifier: Notifier | None = None
) -> EntryView:
    """The waiting page is still open: the entry waits `entry_seconds` more (no lock: only its
    expiry changes), and a table is made if this scope can fill one now (a delayed player's
    wait is over, or someone else's renewal came first)."""
    now = now_in(db)
    e = _own(db, user, entry_id)
    if e.game_id is not None:
        return _view(db, e, rules, now)
    renewed = db.execute(
        update(PoolEntry)
        .where(PoolEntry.id == entry_id, PoolEntry.game_id.is_(None), PoolEntry.expires_at > now)
        .values(expires_at=now + timedelta(seconds=rules.entry_seconds))
        .execution_options(synchronize_session=False)
    )
    db.commit()
    if renewed.rowcount != 1:  # matched meanwhile, or expired (and maybe pruned)
        again = db.get(PoolEntry, entry_id, populate_existing=True)
        if again is None or again.game_id is None:
            raise _expired(entry_id)
        return _view(db, again, rules, now)
    choice = _choice(e)
    if _may_fill(db, choice, now):
        serialise(db, LOCK)
        now = now_in(db)
        _commit(db, _match(db, choice, now, rules), notifier)
    return _view(db, _own(db, user, entry_id), rules, now)


def _may_fill(db: Session, choice: Choice, now: datetime) -> bool:
    """A cheap look without the lock: could the ready entries of this scope fill a table?"""
    ready = db.scalar(
        select(func.count(func.distinct(PoolEntry.user_id))).where(
            _scope(choice), _waiting(now), PoolEntry.ready_at <= now
        )
    )
    return (ready or 0) >= 2


def leave(db: Session, user: User, entry_id: int) -> None:
    """Stop waiting. Too late once matched (`already_matched`: the table is made, go there)."""
    _own(db, user, entry_id)
    serialise(db, LOCK)
    e = _own(db, user, entry_id)
    if e.game_id is not None:
        db.rollback()
        raise ServiceError("already_matched", t_("you were seated at table {id}", id=e.game_id))
    db.delete(e)
    db.commit()


def start_with_bots(
    db: Session, user: User, entry_id: int, rules: MatchRules, notifier: Notifier | None = None
) -> EntryView:
    """After `bots_after_seconds` of waiting: a table now, the caller and bots, unrated (a bot
    has no account). `too_early` before that; `already_matched` once seated."""
    serialise(db, LOCK)
    now = now_in(db)
    e = _own(db, user, entry_id)
    if e.game_id is not None:
        db.rollback()
        raise ServiceError("already_matched", t_("you were seated at table {id}", id=e.game_id))
    if e.expires_at <= now:
        db.rollback()
        raise _expired(entry_id)
    ready = e.created_at + timedelta(seconds=rules.bots_after_seconds)
    if now < ready:
        wait = (ready - now).total_seconds()
        db.rollback()
        raise ServiceError(
            "too_early",
            t_("bots may fill the table in {wait} s", wait=int(wait) + 1),
            retry_after=wait,
        )
    players = e.players if e.players != ANY else rules.any_players_with_bots
    game, state = quick.seat_and_deal(
        db,
        [user],
        players=players,
        expansion=e.expansion,
        clock=rules.clock(e.pace),
        rated=False,
        bot_level=rules.bot_level,
        max_clock_seconds=rules.max_clock_seconds,
    )
    _mark_matched(db, [e.id], [user.id], game.id, now, rules)
    _commit(db, [(game, state)], notifier)
    return _view(db, _own(db, user, entry_id), rules, now)
