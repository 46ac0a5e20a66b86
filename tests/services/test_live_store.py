"""The live core's SQL store, and socket moves on the one road: a move in one transaction, log
frames equal to GET /log."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import road_for
from app.db.models.accounts import User
from app.db.models.base import utcnow
from app.db.models.games import Game, Move, Seat
from app.realtime import documents as docs
from app.services.live.store import SqlLiveStore
from app.services.play import games
from app.services.tables import lobby, seats
from app.services.tables.names import bot_name, display_seat_name
from app.shared.errors import ServiceError
from app.shared.moves import Committed, MoveCommand
from app.shared.notify import Notifier

LiveGame = Callable[..., tuple[Game, list[User]]]


def _request(db: Session, game: Game, user: User, seat: int, **kw: Any) -> MoveCommand:
    """A socket's move as the authority makes it (no state known: the road reads it)."""
    state = games.load_state(db, lobby.get_game(db, game.id))
    action = rules.parse_action(rules.legal_actions(state, seat)[0])
    version = kw.pop("version", state_version(db, game))
    return MoveCommand(game.id, version, action, user_id=user.id, back=kw.pop("was_left"))


def _submit(sessions: sessionmaker[Session], command: MoveCommand) -> Committed:
    with sessions() as db:
        return road_for(sessions, Notifier()).commit_in(db, command)


def state_version(db: Session, game: Game) -> int:
    return lobby.get_game(db, game.id).version


def test_log_frames_carry_every_field_of_the_logs_entries(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, players = live_game(2)
    store = SqlLiveStore(sessions)
    seat = lobby.get_game(db, game.id).to_act
    committed = _submit(sessions, _request(db, game, players[seat], seat, was_left=False))
    assert committed.user_id == players[seat].id and committed.at
    # A move a bot made when the clock ran out carries a note; mark this one so.
    db.execute(update(Move).where(Move.game_id == game.id).values(timeout=True))
    db.commit()
    snap = store.load_game(game.id, 0)
    [move] = snap.moves
    for viewer, user in ((seat, players[seat]), (1 - seat, players[1 - seat]), (None, None)):
        frame = json.loads(docs.log_frame(move, docs.ViewerKey(viewer, True), over=False))
        entry = games.game_log(db, game.id, user.id if user else None)["moves"][0]
        assert frame.pop("type") == "log"
        assert frame == entry, (viewer, set(frame) ^ set(entry))
        assert "note" in frame


def test_a_socket_move_ends_a_left_mark_in_its_own_transaction(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, players = live_game(2)
    seat = lobby.get_game(db, game.id).to_act
    db.execute(update(Seat).where(Seat.game_id == game.id).values(left_at=utcnow()))
    db.commit()
    stale = _request(db, game, players[seat], seat, was_left=True, version=99)
    with pytest.raises(ServiceError):
        _submit(sessions, stale)  # refused: the mark stays, as nothing else changed
    db.expire_all()
    assert lobby.get_game(db, game.id).seats[seat].left_at is not None
    _submit(sessions, _request(db, game, players[seat], seat, was_left=True))
    db.expire_all()
    assert lobby.get_game(db, game.id).seats[seat].left_at is None


def test_seat_names_follow_the_games_names_key(
    db: Session, sessions: sessionmaker[Session], make_user: Callable[[str], User]
) -> None:
    host = make_user("Host")
    game = lobby.create_game(db, host, 2)
    seats.add_bot(db, game.id, host, "random")
    lobby.start_game(db, game.id, host)
    # A rematch keeps the names of the game it repeats: the key is that game's id.
    db.execute(update(Game).where(Game.id == game.id).values(bot_names_of=4242))
    db.commit()
    snap = SqlLiveStore(sessions).load_game(game.id, None)
    bot = next(s for s in snap.seats if s.user_id is None)
    assert snap.seats[bot.seat].name == display_seat_name(4242, bot.seat, None, "random")
    assert bot_name(4242, bot.seat) != bot_name(game.id, bot.seat)
