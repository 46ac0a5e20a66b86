"""Hidden information (R-60): hands, Reef choices and deck order reach only who may see them."""

from __future__ import annotations

import json
import random

from app.engine import GameOptions, apply, event_for, legal_actions, new_game, to_act, view_for


def _secret_ids(state, seat):
    p = state.players[seat]
    return set(p.hand) | set(p.reefs) | set(p.treasures)


def _contains(view, ids):
    text = json.dumps(view)
    return {i for i in ids if f'"{i}"' in text}


def _play_random(seed, players, steps):
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players), seed)
    for _ in range(steps):
        if s.over:
            break
        seat = to_act(s)
        s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
    return s


def test_no_view_shows_another_players_hand_or_any_deck_R60():
    for seed in range(6):
        s = _play_random(seed, 3, 40)
        deck_cards = {c for deck in s.decks.values() for c in deck}
        for viewer in (None, 0, 1, 2):
            view = view_for(s, viewer)
            for seat in range(3):
                if seat != viewer:
                    # A card both public (played, market) and secret cannot happen: ids are unique.
                    assert not _contains(view, _secret_ids(s, seat)), (seed, viewer, seat)
            assert not _contains(view, deck_cards)
            assert "seed" not in json.dumps(view)
        own = view_for(s, 1)["players"][1]
        assert own["hand"] == s.players[1].hand and own["reefs"] == s.players[1].reefs


def test_pending_reef_choice_is_secret_R60():
    from tests.engine.helpers import game
    from tests.engine.test_turns import _reef_placement

    s = _reef_placement(game(players=2, first=0))
    drawn = set(s.pending[0]["cards"])
    assert _contains(view_for(s, 0), drawn) == drawn
    assert not _contains(view_for(s, 1), drawn)
    assert not _contains(view_for(s, None), drawn)
    assert view_for(s, None)["pending"][0]["card_count"] == 2


def test_events_hide_secrets_from_others_R60():
    s = new_game(GameOptions(players=2, first_player=0), 5)
    s, events = apply(
        s,
        {"type": "pass", "discard": s.players[0].hand[0], "draw": {"source": "deck", "deck": "L"}},
        0,
    )
    drew = next(e for e in events if e["type"] == "drew")
    card = drew["secret"]["card"]
    assert card in json.dumps(event_for(drew, 0))
    assert card not in json.dumps(event_for(drew, 1))
    assert card not in json.dumps(event_for(drew, None))


def test_everything_but_the_seed_is_shown_after_the_end_R60():
    s = _play_random(3, 2, 10_000)
    assert s.over
    spectator = view_for(s, None)
    for seat in range(2):
        assert spectator["players"][seat]["hand"] == s.players[seat].hand
    assert "scores" in spectator


def test_every_event_of_random_games_has_readable_text():
    from app.engine import describe

    for seed, expansion in [(1, False), (2, True), (3, True)]:
        rng = random.Random(seed)
        s = new_game(GameOptions(players=3, expansion=expansion), seed)
        while not s.over:
            seat = to_act(s)
            s, events = apply(s, rng.choice(legal_actions(s, seat)), seat)
            for e in events:
                for viewer in (None, seat):
                    text = describe(event_for(e, viewer))
                    assert text and ":" not in text.split(" ")[0], text
                    assert "_" not in text, text  # no raw type names leak into the log


def test_a_reward_board_changed_in_place_is_seen_as_it_is_now_R53():
    # Views keep one copy of a game's Reward Board (states share it); a board changed in place,
    # as a test sets up a position, must not be shown from the old copy.
    s = new_game(GameOptions(players=3, expansion=True), 42)
    before = view_for(s, 0)["reward"]
    track = next(iter(s.reward["bonus"]))
    s.reward["bonus"][track] = "changed"
    after = view_for(s, 0)["reward"]
    assert after["bonus"][track] == "changed"
    assert before["bonus"][track] != "changed"  # the earlier view is a copy, not the board
    assert after is not s.reward and after["bonus"] is not s.reward["bonus"]
