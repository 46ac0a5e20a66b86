"""Bots in seats: added before the start, standing in for a player, handing the seat back."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.accounts import User
from app.db.models.games import Game
from app.services.play import games
from app.services.tables import lobby, seats
from app.shared.errors import ServiceError
from tests.moves import play, play_seat

LiveGame = Callable[..., tuple[Game, list[User]]]


def test_host_fills_seats_with_bots_and_starts(
    db: Session, make_user: Callable[[str], User]
) -> None:
    host, other = make_user("Host"), make_user("Other")
    game = lobby.create_game(db, host, 3)
    with pytest.raises(ServiceError) as err:
        seats.add_bot(db, game.id, other, "random")
    assert err.value.code == "not_host"
    with pytest.raises(ServiceError) as err:
        seats.add_bot(db, game.id, host, "<b>")
    assert err.value.code == "unknown_bot_level"
    seats.add_bot(db, game.id, host, "random")
    game = seats.add_bot(db, game.id, host, "greedy")
    assert [(s.user_id, s.bot_level) for s in game.seats] == [
        (host.id, None),
        (None, "random"),
        (None, "greedy"),
    ]
    with pytest.raises(ServiceError) as err:
        seats.add_bot(db, game.id, host, "random")
    assert err.value.code == "game_full"
    game = lobby.start_game(db, game.id, host)
    assert game.status == "live"
    # Play until a bot must decide; the runner then acts through submit_seat_action.
    for _ in range(10):
        game = lobby.get_game(db, game.id)
        turn = seats.bot_seats_to_act(db, game.id)
        state = games.load_state(db, game)
        seat = rules.to_act(state)
        action = rules.legal_actions(state, seat)[0]
        if turn is not None:
            assert turn[:2] == (seat, game.version)
            play_seat(db, game.id, seat, game.version, action)
        else:
            assert seat == 0
            play(db, game.id, host.id, game.version, action)
    assert lobby.get_game(db, game.id).version == 10


def test_a_player_hands_the_seat_to_a_bot_and_takes_it_back(
    db: Session, live_game: LiveGame
) -> None:
    game, seated = live_game(2)
    seat = game.to_act
    assert seat is not None
    user = seated[seat]
    game = seats.hand_seat_to_bot(db, game.id, user, "greedy")
    assert game.seats[seat].bot_level == "greedy" and game.seats[seat].user_id == user.id
    assert seats.bot_seats_to_act(db, game.id) == (seat, 0, "greedy")
    assert games.game_state(db, game.id, user.id)["legal_actions"] == []
    game = seats.take_seat_back(db, game.id, user)
    assert game.seats[seat].bot_level is None
    assert seats.bot_seats_to_act(db, game.id) is None
    assert games.game_state(db, game.id, user.id)["legal_actions"]
    with pytest.raises(ServiceError) as err:
        seats.hand_seat_to_bot(db, game.id, seated[1 - seat], "x" * 40)
    assert err.value.code == "unknown_bot_level"


def test_a_leaving_host_passes_the_role_and_a_player_can_stand_in_for_an_absent_host(
    db: Session, live_game: LiveGame
) -> None:
    game, (host, first, second) = live_game(3)
    game = seats.leave_game(db, game.id, second)
    assert game.seats[2].left_at is not None and game.host_id == host.id
    # The host is here (the game just started): nobody else manages seats.
    with pytest.raises(ServiceError) as err:
        seats.replace_with_bot(db, game.id, first, 2, "random", grace_s=60)
    assert err.value.code == "not_host"
    # The host unseen past the grace period: a present player may hand the left seat to a bot.
    game = seats.replace_with_bot(db, game.id, first, 2, "random", grace_s=0)
    assert game.seats[2].bot_level == "random" and game.seats[2].user_id == second.id
    # A leaving host hands the role to a player still at the table; a left player manages nothing.
    game = seats.leave_game(db, game.id, host)
    assert game.host_id == first.id
    with pytest.raises(ServiceError) as err:
        seats.replace_with_bot(db, game.id, host, 1, "random", grace_s=0)
    assert err.value.code == "not_host"
    game = seats.replace_with_bot(db, game.id, first, 0, "greedy", grace_s=60)  # host 0 left
    assert [s.bot_level for s in game.seats] == ["greedy", None, "random"]
    # Coming back: reclaiming clears the bot and the "left" mark.
    game = seats.take_seat_back(db, game.id, second)
    assert game.seats[2].bot_level is None and game.seats[2].left_at is None
