"""Final scoring (R-40..R-45)."""

from __future__ import annotations

from app.engine import final_scores
from app.engine.board import REALM_MASKS, squares_of
from app.engine.scoring import realm_majority, uncovered_whirlpools
from tests.engine.helpers import game, put


def _dry_squares(s, realm):
    """Squares of a realm with no whirlpool, in reading order."""
    return list(squares_of(REALM_MASKS[realm] & ~s.board.whirlpools & ~s.occupied))


def _dragons(s, seat, realm, sizes):
    free = _dry_squares(s, realm)
    for n in sizes:
        put(s, seat, free[:n])
        free = free[n:]


def test_rulebook_starfish_example_21_and_10_R43():
    s = game(players=4)
    assert uncovered_whirlpools(s, "starfish") == 7  # layout 1A
    _dragons(s, 1, "starfish", [2, 2, 2, 2])  # Haku: 4 Dragons, 8 pieces
    _dragons(s, 2, "starfish", [1, 1, 1])  # Smaug: 3 Dragons ...
    s.players[2].reefs = ["RF13"]  # ... + a hidden Dragon in Starfish: 4, but fewer pieces
    _dragons(s, 0, "starfish", [1, 1])
    _dragons(s, 3, "starfish", [1, 1])
    assert realm_majority(s, "starfish") == {1: 21, 2: 10}


def test_hidden_dragons_do_not_break_ties_R42():
    s = game(players=3)
    _dragons(s, 0, "conch", [1, 1])
    _dragons(s, 1, "conch", [1, 1])
    s.players[1].reefs = ["RF15", "RF16"]  # two hidden Dragons in Conch: 4 vs 2
    assert realm_majority(s, "conch") == {
        1: 3 * uncovered_whirlpools(s, "conch"),
        0: 3 * uncovered_whirlpools(s, "conch") // 2,
    }
    _dragons(s, 0, "conch", [1, 1])  # 4 vs 4 Dragons; pieces 4 vs 2: seat 0 wins the tie
    w = uncovered_whirlpools(s, "conch")
    assert realm_majority(s, "conch") == {0: 3 * w, 1: 3 * w // 2}


def test_persisting_tie_for_first_gives_each_full_vp_and_no_second_R43():
    s = game(players=3)
    _dragons(s, 0, "seahorse", [2])
    _dragons(s, 1, "seahorse", [2])
    _dragons(s, 2, "seahorse", [1])
    w = uncovered_whirlpools(s, "seahorse")
    assert realm_majority(s, "seahorse") == {0: 3 * w, 1: 3 * w}


def test_tie_for_second_each_gets_second_place_vp_R43():
    s = game(players=4)
    _dragons(s, 0, "turtle", [1, 1])
    _dragons(s, 1, "turtle", [1])
    _dragons(s, 2, "turtle", [1])
    w = uncovered_whirlpools(s, "turtle")
    assert realm_majority(s, "turtle") == {0: 3 * w, 1: 3 * w // 2, 2: 3 * w // 2}


def test_two_player_majority_variant_R43():
    s = game(players=2)
    _dragons(s, 0, "starfish", [1, 1])
    _dragons(s, 1, "starfish", [1])
    w = uncovered_whirlpools(s, "starfish")
    assert realm_majority(s, "starfish") == {0: 2 * w}  # 2 VP each, no second place
    _dragons(s, 1, "starfish", [1])  # 2 vs 2 Dragons, 2 vs 2 pieces: nobody scores
    assert realm_majority(s, "starfish") == {}


def test_covered_whirlpools_score_nothing():
    s = game(players=3)
    wp = list(squares_of(s.board.whirlpools & REALM_MASKS["starfish"]))
    put(s, 0, wp[:2])
    assert uncovered_whirlpools(s, "starfish") == 7 - 2
    assert realm_majority(s, "starfish") == {0: 15}


def test_dragon_crossing_a_current_counts_in_two_realms_R42():
    s = game(players=3)
    put(s, 0, [(3, 6), (3, 7), (3, 8)])  # starfish - current - conch
    assert 0 in realm_majority(s, "starfish") and 0 in realm_majority(s, "conch")


def test_gold_ships_missions_and_most_missions_R40_R41():
    s = game(players=3)
    p = s.players[0]
    p.gold, p.reefs = 3, ["RF21", "RF01", "RF09"]  # Gold card 4; Two-Ship 2; Wild 1
    p.ships = {"green": 2, "purple": 0, "red": 1, "blue": 0}
    p.missions = ["MS01"]  # 4 VP
    s.players[1].missions = ["MS04"]  # 6 VP: one mission each, seat 1's give more VP
    scores = final_scores(s)["players"]
    c0 = scores[0]["categories"]
    assert c0["gold"] == 7 and c0["ships"] == 3 + 2 + 1 and c0["missions"] == 4
    assert c0["most_missions"] == 0 and scores[1]["categories"]["most_missions"] == 5
    s.players[1].missions = ["MS01"]  # same count, same VP: both get 5
    scores = final_scores(s)["players"]
    assert [x["categories"]["most_missions"] for x in scores] == [5, 5, 0]


def test_nobody_gets_most_missions_without_a_mission_R41():
    s = game(players=2)
    assert [x["categories"]["most_missions"] for x in final_scores(s)["players"]] == [0, 0]


def test_winner_tie_breaks_by_missions_then_shared_R44():
    s = game(players=2)
    for p in s.players:
        p.gold = 10
    s.players[0].gold = 6
    s.players[0].missions = ["MS01"]  # 4 VP + 5 most missions... gold 6: 6 + 4 + 5 = 15
    s.players[1].gold = 15
    result = final_scores(s)
    assert [p["total"] for p in result["players"]] == [15, 15]
    assert result["winners"] == [0]  # more missions
    s.players[0].missions = []
    s.players[0].gold = 15
    assert final_scores(s)["winners"] == [0, 1]


def test_breakdown_lists_every_category_per_player_R45():
    s = game(players=5)
    for p in final_scores(s)["players"]:
        assert set(p["categories"]) == {"gold", "ships", "missions", "most_missions", "realms"}
        assert p["total"] == sum(p["categories"].values())
