"""Bots in Treasures of the Deep: legal play, hidden information, and the expansion's decisions."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.engine import GameOptions, State, apply, legal_actions, new_game, to_act, view_for

from .conftest import mid_game, play_out, searcher


def _at_placement(players: int, seed: int, moves: int) -> State:
    """An expansion mid-game state where the seat to act chooses its placement."""
    state = mid_game(players, seed, moves, expansion=True)
    bot = make_bot("greedy", random.Random(seed))
    while state.turn.phase != "place" or state.pending:
        seat = to_act(state)
        state, _ = apply(state, bot.choose(view_for(state, seat), legal_actions(state, seat)), seat)
    return state


def _give_treasure(state: State, seat: int, card: str) -> None:
    """Move a Hidden Treasure from wherever it is into the seat's hand."""
    for p in state.players:
        if card in p.treasures:
            p.treasures.remove(card)
    if card in state.decks["treasures"]:
        state.decks["treasures"].remove(card)
    state.players[seat].treasures.append(card)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_level_plays_expansion_games_legally(players: int) -> None:
    levels = ["greedy", "random", "expert", "greedy", "random"]
    bots = [make_bot(levels[s], random.Random(s), budget_s=0.01) for s in range(players)]
    opts = GameOptions(players=players, expansion=True)
    state = play_out(new_game(opts, 80 + players), bots)
    assert state.over


def _scramble(state: State, seed: int) -> State:
    """Swap the opponents' Hidden Treasures with deck cards and reorder every deck."""
    rng = random.Random(seed)
    new = state.clone()
    me = to_act(state)
    deck = new.decks["treasures"]
    for p in new.players:
        if p.seat == me:
            continue
        for i, cid in enumerate(p.treasures):
            j = rng.randrange(len(deck))
            p.treasures[i], deck[j] = deck[j], cid
    for cards in new.decks.values():
        rng.shuffle(cards)
    return new


@pytest.mark.parametrize(("players", "seed", "moves"), [(2, 31, 60), (3, 32, 70), (5, 33, 90)])
@pytest.mark.parametrize("level", ["greedy", "expert", "expert_learned"])
def test_choice_ignores_hidden_treasures(level: str, players: int, seed: int, moves: int) -> None:
    state = _at_placement(players, seed, moves)
    seat = to_act(state)
    for p in state.players:  # make sure opponents hold something to hide
        if p.seat != seat and not p.treasures:
            p.treasures.append(state.decks["treasures"].pop(0))
    other = _scramble(state, seed)
    assert [p.treasures for p in state.players] != [p.treasures for p in other.players]
    assert view_for(state, seat) == view_for(other, seat)

    def choice(s: State) -> dict:
        return searcher(level, seed).choose(view_for(s, seat), legal_actions(s, seat))

    assert choice(state) == choice(other)


def test_greedy_uses_no_cost_when_the_best_placement_crosses_turbulent_waters() -> None:
    state = _at_placement(2, 41, 30)
    seat = to_act(state)
    me = state.players[seat]
    me.heads = 2  # no later turn to keep the card for
    me.gold = 30
    _give_treasure(state, seat, "HT04")  # no_cost
    legal = legal_actions(state, seat)
    assert {"type": "use_treasure", "card": "HT04"} in legal
    choice = make_bot("greedy", random.Random(0)).choose(view_for(state, seat), legal)
    assert choice == {"type": "use_treasure", "card": "HT04"}
    after, _ = apply(state, choice, seat)
    bot = make_bot("greedy", random.Random(0))
    for _ in range(3):  # the Ancestral head may be declared first: the placement follows
        action = bot.choose(view_for(after, seat), legal_actions(after, seat))
        after, _ = apply(after, action, seat)
        if action["type"] == "place":
            break
    assert action["type"] == "place"
    assert any((1 << (r * 15 + c)) & state.board.turbulent for r, c in action["cells"])


def test_greedy_keeps_no_cost_when_nothing_turbulent_is_worth_covering() -> None:
    state = _at_placement(2, 41, 30)
    seat = to_act(state)
    state.players[seat].heads = 8
    _give_treasure(state, seat, "HT04")
    board = state.board
    turbulent = board.turbulent
    legal = [
        a
        for a in legal_actions(state, seat)
        if a["type"] != "place" or not any((1 << (r * 15 + c)) & turbulent for r, c in a["cells"])
    ]
    choice = make_bot("greedy", random.Random(0)).choose(view_for(state, seat), legal)
    assert choice != {"type": "use_treasure", "card": "HT04"}


def test_pending_tail_choice_takes_the_track_that_completes_a_rich_bonus() -> None:
    state = _at_placement(3, 42, 20)
    seat = to_act(state)
    me = state.players[seat]
    length = state.reward["length"]
    state.reward["bonus"] = {"green": "BT1", "purple": "BT6", "red": "BT1"}  # half Gold on purple
    me.gold = 40
    me.heads = 1  # late: the purple tail will not reach A by itself
    me.tails = {"green": 1, "purple": length - 1, "red": 1}
    state.pending.append({"kind": "tail", "reason": "blue_ship"})
    legal = legal_actions(state, seat)
    assert len(legal) == 3
    choice = make_bot("greedy", random.Random(0)).choose(view_for(state, seat), legal)
    assert choice == {"type": "choose_tail", "track": "purple"}


def test_a_held_coral_reef_is_played() -> None:
    state = _at_placement(2, 43, 10)
    seat = to_act(state)
    me = state.players[seat]
    for cid in ("RF28",):  # advance all three tails
        if cid in state.decks["reefs"]:
            state.decks["reefs"].remove(cid)
        for p in state.players:
            if cid in p.reefs:
                p.reefs.remove(cid)
        me.reefs.append(cid)
    legal = legal_actions(state, seat)
    for level in ("greedy", "expert"):
        bot = make_bot(level, random.Random(0), budget_s=0.1)
        assert bot.choose(view_for(state, seat), legal) == {"type": "play_reef", "card": "RF28"}


def test_keep_treasure_prefers_a_useful_card() -> None:
    state = _at_placement(2, 44, 10)
    seat = to_act(state)
    state.pending.append({"kind": "treasure", "cards": ["HT22", "HT04"]})  # same_deck, no_cost
    for cid in ("HT22", "HT04"):
        state.decks["treasures"].remove(cid)
    legal = legal_actions(state, seat)
    choice = make_bot("greedy", random.Random(0)).choose(view_for(state, seat), legal)
    assert choice == {"type": "keep_treasure", "card": "HT04"}
