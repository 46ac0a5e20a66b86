"""Why not here: every reason code, pinned to what `apply` refuses, and never a secret (R-60)."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from app.engine import EngineError, apply, legal_actions, parse_action
from app.engine.actions import COORDINATE_LIMIT
from app.engine.board import mask_of
from app.engine.content import content
from app.engine.explain import REASONS, explain, explain_unparsed, square_name
from app.engine.placement import cost_of, gold_gain_of, is_legal_mask, region_for
from app.engine.shapes import placements
from tests.engine.helpers import card_of_shape, game, place_action, put

I3 = card_of_shape("I3")


def _placing(players: int = 2):
    s = game(players=players, first=0)
    s.players[0].hand = [I3, "M05"]
    s.players[0].gold = 20
    return s


def _after_place(s):
    """The position after seat 0 places I3 next to the island (R-21), in its mission step."""
    s, _ = apply(s, place_action(I3, mask_of([(4, 8), (5, 8), (6, 8)])), 0)
    s.ships_on_board.clear()
    return s


def _touches_own():
    s = _placing()
    put(s, 0, [(6, 6)])
    # Next to the island at (5, 7), but also to the own Dragon at (6, 6) through (5, 6).
    return s, place_action(I3, mask_of([(5, 5), (5, 6), (5, 7)])), 0


def _not_touching():
    return _placing(), place_action(I3, mask_of([(1, 1), (1, 2), (1, 3)])), 0


def _square_taken():
    s = _placing()
    put(s, 1, [(5, 6)])
    return s, place_action(I3, mask_of([(5, 5), (5, 6), (5, 7)])), 0


def _on_island():
    return _placing(), place_action(I3, mask_of([(6, 7), (5, 7), (4, 7)])), 0


def _wrong_shape():
    return _placing(), place_action(I3, mask_of([(5, 6), (5, 7), (4, 6)])), 0


def _cannot_afford():
    s = _placing()
    s.players[0].gold = 2
    s.players[0].reefs = []
    region = region_for(s, 0)
    for shape in sorted(set(content().pattern_shape.values())):
        for m in placements(shape):
            if is_legal_mask(region, m) and cost_of(s, m) == 4 and gold_gain_of(s, m) == 1:
                card = card_of_shape(shape)
                s.players[0].hand = [card]
                return s, place_action(card, m), 0
    raise AssertionError("no placement costs 4 and gives 1 Gold")


def _not_your_turn():
    return _placing(), place_action(I3, mask_of([(5, 5), (5, 6), (5, 7)])), 1


def _game_over():
    s = _placing()
    s.turn.phase = "over"
    return s, {"type": "end_turn"}, 0


def _decision_pending():
    s = _after_place(_placing())
    s.pending = [{"kind": "reef", "count": 2, "cards": list(s.decks["reefs"][:2])}]
    return s, {"type": "draw", "source": "deck", "deck": "M"}, 0


def _wrong_phase():
    return _placing(), {"type": "draw", "source": "deck", "deck": "M"}, 0


def _must_draw():
    return _after_place(_placing()), {"type": "end_turn"}, 0


def _not_in_hand():
    return _placing(), place_action("L01", mask_of([(5, 5), (5, 6), (5, 7)])), 0


def _off_board():
    return _placing(), {"type": "place", "card": I3, "cells": [[0, 13], [0, 14], [0, 15]]}, 0


def _malformed():
    return _placing(), {"type": "fly"}, 0


def _played_deck():
    s = _after_place(_placing())
    return s, {"type": "draw", "source": "deck", "deck": s.turn.played_deck}, 0


def _deck_empty():
    s = _after_place(_placing())
    s.decks["M"] = []
    return s, {"type": "draw", "source": "deck", "deck": "M"}, 0


def _not_face_up():
    s = _after_place(_placing())
    return s, {"type": "draw", "source": "market", "card": "L01"}, 0


def _mission_step():
    s = _after_place(_placing())
    s.players[0].ships = {"green": 1, "purple": 0, "red": 1, "blue": 0}
    s.players[0].reefs = []
    s.market["missions"][0] = "MS07"  # red + green
    return s


def _mission_limit():
    s = _mission_step()
    s.turn.missions_done = 1
    return s, {"type": "mission", "mission": "MS07", "tokens": {"green": 1, "red": 1}}, 0


def _not_in_market():
    s = _mission_step()
    s.market["missions"] = [m for m in s.market["missions"] if m != "MS01"]
    return s, {"type": "mission", "mission": "MS01", "tokens": {"green": 1}}, 0


def _too_few_ships():
    return _mission_step(), {"type": "mission", "mission": "MS07", "tokens": {"green": 2}}, 0


def _not_exact():
    s = _mission_step()
    s.players[0].ships["purple"] = 2
    action = {"type": "mission", "mission": "MS07", "tokens": {"green": 1, "red": 1, "purple": 2}}
    return s, action, 0


def _not_held():
    s = _placing()
    s.players[0].reefs = []
    return s, {"type": "cash_gold", "card": "RF01"}, 0


def _repeated_square():
    s = _placing()
    action = {"type": "place", "card": I3, "cells": [[5, 5], [5, 6], [5, 5]], "head": [5, 5]}
    return s, action, 0


def _refused():
    s = _placing()  # the expansion's actions in a base game: no finer reason than the engine's
    return s, {"type": "use_ancestral"}, 0


CASES = {
    "touches_own": _touches_own,
    "not_touching": _not_touching,
    "square_taken": _square_taken,
    "on_island": _on_island,
    "wrong_shape": _wrong_shape,
    "repeated_square": _repeated_square,
    "cannot_afford": _cannot_afford,
    "not_your_turn": _not_your_turn,
    "game_over": _game_over,
    "decision_pending": _decision_pending,
    "wrong_phase": _wrong_phase,
    "must_draw": _must_draw,
    "not_in_hand": _not_in_hand,
    "off_board": _off_board,
    "malformed": _malformed,
    "played_deck": _played_deck,
    "deck_empty": _deck_empty,
    "not_face_up": _not_face_up,
    "mission_limit": _mission_limit,
    "not_in_market": _not_in_market,
    "too_few_ships": _too_few_ships,
    "not_exact": _not_exact,
    "not_held": _not_held,
    "refused": _refused,
}


def test_every_reason_code_has_a_case():
    assert set(CASES) == set(REASONS)


@pytest.mark.parametrize("code", sorted(CASES))
def test_reason_matches_what_apply_refuses(code):
    state, action, seat = CASES[code]()
    with pytest.raises(EngineError) as err:
        apply(state, action, seat)
    reason = explain(state, seat, action)
    assert reason is not None and reason.code == code, reason
    assert reason.engine_code == err.value.code
    if REASONS[code]:
        assert REASONS[code] == err.value.code
    wire = reason.to_json()
    assert set(wire) == {"code", "facts", "text"} and wire["text"]


def test_touches_own_names_the_square_as_the_table_does_R21():
    state, action, seat = _touches_own()
    reason = explain(state, seat, action)
    assert reason.facts == {"squares": [[6, 6]]}
    # Column letter and row from 1, as the screen reader and the board's label name it; the
    # ruling's id stays in the source text, for tests and logs.
    assert square_name((6, 6)) in reason.text == "Touches your own Dragon at G7 (R-21)."


def test_reason_text_reaches_players_without_the_ruling_id_R21() -> None:
    from app.i18n import translate, translate_reason, use_language

    state, action, seat = _touches_own()
    wire = explain(state, seat, action).to_json()
    assert translate_reason(wire)["text"] == "Touches your own Dragon at G7."
    with use_language("es"):
        assert translate(explain(state, seat, action).text) == "Toca tu propio Dragón en G7."


def test_cannot_afford_gives_cost_gold_and_landing_gold_R22():
    state, action, seat = _cannot_afford()
    reason = explain(state, seat, action)
    assert reason.facts["cost"] == 4 and reason.facts["gold"] == 2
    assert reason.facts["land_gold"] == 1 and reason.facts["short"] == 1
    assert reason.text == "Needs 4 Gold; you have 2 and would land on 1 (R-22)."


def test_played_deck_names_the_deck_R27():
    state, action, seat = _played_deck()
    reason = explain(state, seat, action)
    assert reason.facts == {"deck": state.turn.played_deck}
    # The deck by its name in the reader's language, never its letter ("the M deck").
    from app.i18n import translate, use_language

    name = {"S": "Small", "M": "Medium", "L": "Large"}[state.turn.played_deck]
    assert (
        translate(reason.text) == f"You played from the {name} deck this turn: draw from another."
    )
    with use_language("es"):
        spanish = {"S": "Pequeño", "M": "Mediano", "L": "Grande"}[state.turn.played_deck]
        assert translate(reason.text) == f"Este turno jugaste del mazo {spanish}: roba de otro."


def test_legal_actions_have_no_reason():
    s = _placing(players=3)
    rng = random.Random(3)
    for _ in range(12):
        actions = legal_actions(s, s.turn.seat)
        for a in rng.sample(actions, min(20, len(actions))):
            assert explain(s, s.turn.seat, a) is None, a
        s, _ = apply(s, rng.choice(actions), s.turn.seat)


def _hide_others(state, seat, rng):
    """The same position as `seat` sees it, with every secret it may not see changed (R-60)."""
    s = state.clone()
    pool = [c for p in s.players if p.seat != seat for c in p.hand] + s.decks["M"]
    rng.shuffle(pool)
    for p in s.players:
        if p.seat != seat:
            p.hand = [pool.pop() for _ in p.hand]
            p.reefs = list(reversed(p.reefs))
            p.treasures = list(reversed(p.treasures))
    s.decks["M"] = pool
    for key in s.decks:
        if key != "M":
            rng.shuffle(s.decks[key])
    return s


@pytest.mark.parametrize("expansion", [False, True])
def test_reasons_never_depend_on_secrets_the_seat_cannot_see_R60(expansion):
    rng = random.Random(11)
    s = game(players=3, first=0, expansion=expansion)
    for _ in range(9):
        seat = s.turn.seat
        for asker in range(3):
            other = _hide_others(s, asker, rng)
            for card in dict.fromkeys(s.players[asker].hand or [I3]):
                for m in rng.sample(placements(content().pattern_shape[card]), 25):
                    a = place_action(card, m)
                    assert explain(s, asker, a) == explain(other, asker, a)
            for deck in ("S", "M", "L"):
                a = {"type": "draw", "source": "deck", "deck": deck}
                assert explain(s, asker, a) == explain(other, asker, a)
        actions = legal_actions(s, seat)
        s, _ = apply(s, rng.choice(actions), seat)


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "place",
        {"type": "place"},
        {"type": "place", "card": I3, "cells": [[1, 2, 3]]},
        {"type": "place", "card": I3, "cells": [[-1, 0], [0, 0], [1, 0]]},
        {"type": "place", "card": I3, "cells": [["a", 0]]},
        {"type": "draw", "source": "deck", "deck": "X"},
        {"type": "mission", "mission": "MS99", "tokens": {"red": 1}},
        {"type": "pass", "discard": "Z1", "draw": None},
        {"type": "keep_reef", "card": "RF01"},
    ],
)
def test_any_input_gets_a_reason_and_never_an_exception(action):
    s = _placing()
    with pytest.raises(EngineError) as err:
        apply(s, action, 0)
    reason = explain(s, 0, action)
    assert reason is not None and reason.engine_code == err.value.code
    assert reason.code in REASONS and reason.text


@pytest.mark.parametrize(
    ("cells", "code", "facts"),
    [
        ([[10**30, 10**30]], "malformed", {}),
        ([[COORDINATE_LIMIT + 1, 0]], "malformed", {}),
        ([[0, 15], [-(2**63) - 1, 0]], "off_board", {"squares": [[0, 15]]}),
        ([[-COORDINATE_LIMIT, 0]], "off_board", {"squares": [[-COORDINATE_LIMIT, 0]]}),
    ],
)
def test_an_off_board_reason_names_only_squares_a_reader_can_hold_R01(cells, code, facts):
    s = _placing()
    action = {"type": "place", "card": I3, "cells": cells}
    with pytest.raises(EngineError) as err:
        parse_action(action)
    assert err.value.code == "bad_action"
    reason = explain(s, 0, action)
    assert reason is not None and (reason.code, reason.facts) == (code, facts)
    # The socket writes reasons with orjson, which refuses integers past 64 bits.
    assert orjson.loads(orjson.dumps(explain_unparsed(action, err.value).to_json()))


def test_docs_api_md_states_the_coordinate_limit():
    text = " ".join((Path(__file__).parents[2] / "docs" / "api.md").read_text().split())
    assert f"a coordinate past ±{COORDINATE_LIMIT} (`app.engine.actions.COORDINATE_LIMIT`" in text
