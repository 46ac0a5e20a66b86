"""Missions (R-26): payments with tokens, Two-Ship and Wild cards, two-for-one, one per turn."""

from __future__ import annotations

import pytest

from app.engine import EngineError, apply, legal_actions, state_to_json
from app.engine.board import mask_of
from app.engine.content import Mission, content
from app.engine.missions import covers, is_minimal, minimal_payments
from tests.engine.helpers import card_of_shape, game, place_action

RED_GREEN = Mission("T1", {"red": 1, "green": 1}, 5, 0)


def test_two_ships_of_one_colour_pay_one_of_any_colour_R26():
    assert covers({"red": 1, "green": 1}, {"green": 1, "purple": 2}, 0)
    assert not covers({"red": 1, "green": 1}, {"green": 1, "purple": 1}, 0)
    assert covers({"blue": 1, "any": 1}, {"green": 3}, 0)
    assert not covers({"blue": 2}, {"green": 3}, 0)


def test_wild_card_counts_as_one_ship_of_any_colour_R14():
    assert covers({"red": 1, "green": 1}, {"green": 1}, 1)
    assert covers({"any": 2}, {}, 2)
    assert not covers({"any": 3}, {}, 2)


def test_two_ship_card_leftover_is_lost_R26():
    s = game(players=2, first=0)
    s.players[0].ships = {"green": 1, "purple": 0, "red": 0, "blue": 0}
    s.players[0].reefs = ["RF04"]  # purple + red
    s.market["missions"][0] = "MS07"  # red + green
    s = _to_mission_step(s)
    payments = [a for a in legal_actions(s, 0) if a["type"] == "mission" and a["mission"] == "MS07"]
    assert {
        "type": "mission",
        "mission": "MS07",
        "tokens": {"green": 1},
        "cards": ["RF04"],
    } in payments
    new, _ = apply(
        s, {"type": "mission", "mission": "MS07", "tokens": {"green": 1}, "cards": ["RF04"]}, 0
    )
    p = new.players[0]
    assert p.missions == ["MS07"] and p.reefs == [] and p.ships["green"] == 0
    assert p.ships["purple"] == 0  # the purple ship on the card was not kept


def _to_mission_step(s):
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s.players[0].gold = 20
    s, _ = apply(s, place_action(card, mask_of([(4, 8), (5, 8), (6, 8)])), 0)
    s.ships_on_board.clear()
    return s


def test_complete_a_mission_pays_tokens_refills_market_and_allows_only_one_R26():
    s = game(players=2, first=0)
    s.players[0].ships = {"green": 3, "purple": 2, "red": 0, "blue": 0}
    s.market["missions"] = ["MS07", "MS01", "MS05", "MS02"]
    top = s.decks["missions"][0]
    s = _to_mission_step(s)
    # red + green with 1 green and 2 purple standing in for the red.
    action = {
        "type": "mission",
        "mission": "MS07",
        "tokens": {"green": 1, "purple": 2},
        "cards": [],
    }
    assert action in legal_actions(s, 0)
    new, _events = apply(s, action, 0)
    assert new.players[0].ships == {"green": 2, "purple": 0, "red": 0, "blue": 0}
    assert new.market["missions"] == ["MS01", "MS05", "MS02", top]
    assert new.turn.phase == "draw"
    assert not [a for a in legal_actions(new, 0) if a["type"] == "mission"]
    with pytest.raises(EngineError) as err:
        apply(new, {"type": "mission", "mission": "MS01", "tokens": {"green": 2}, "cards": []}, 0)
    assert err.value.code == "wrong_phase"


def test_overpaying_or_underpaying_is_bad_payment():
    s = game(players=2, first=0)
    s.players[0].ships = {"green": 3, "purple": 2, "red": 1, "blue": 0}
    s.market["missions"][0] = "MS07"
    s = _to_mission_step(s)
    before = state_to_json(s)
    for tokens in ({"green": 1}, {"green": 2, "red": 1}, {"green": 5}):
        with pytest.raises(EngineError) as err:
            apply(s, {"type": "mission", "mission": "MS07", "tokens": tokens, "cards": []}, 0)
        assert err.value.code == "bad_payment"
    assert state_to_json(s) == before


def test_minimal_payments_are_distinct_and_minimal():
    pays = minimal_payments(
        RED_GREEN, {"green": 2, "red": 1, "purple": 2, "blue": 0}, ["RF09", "RF10"]
    )
    keys = [(tuple(sorted(t.items())), tuple(c)) for t, c in pays]
    assert len(keys) == len(set(keys))
    assert all(is_minimal(RED_GREEN, t, c) for t, c in pays)
    # Wild cards are interchangeable: only one of them is ever offered alone.
    assert ({"red": 1, "green": 1}, []) in pays
    assert ({"red": 1}, ["RF09"]) in pays and ({"red": 1}, ["RF10"]) not in pays
    assert ({"green": 1, "purple": 2}, []) in pays


def test_mission_with_reef_reward_draws_reefs():
    s = game(players=2, first=0)
    s.players[0].ships = {"green": 0, "purple": 2, "red": 0, "blue": 0}
    s.market["missions"][0] = "MS02"  # purple x2, 1 Reef draw
    s = _to_mission_step(s)
    new, _ = apply(
        s, {"type": "mission", "mission": "MS02", "tokens": {"purple": 2}, "cards": []}, 0
    )
    assert new.pending and new.pending[0]["kind"] == "reef" and len(new.pending[0]["cards"]) == 2


def test_minimal_payments_match_a_brute_force_search():
    """The pruned search finds exactly the minimal payments an exhaustive one finds."""
    import random
    from itertools import product

    from app.engine.content import SHIP_COLOURS

    rng = random.Random(5)
    cards_pool = ["RF01", "RF02", "RF04", "RF06", "RF09", "RF10"]
    unpayable = 0
    for _ in range(40):
        mission = content().missions[f"MS{rng.randint(1, 33):02d}"]
        held = {c: rng.randint(0, 4) for c in SHIP_COLOURS}
        reefs = rng.sample(cards_pool, rng.randint(0, 3))
        fast = {
            (tuple(sorted(t.items())), tuple(c)) for t, c in minimal_payments(mission, held, reefs)
        }
        slow = set()
        for k in range(len(reefs) + 1):
            for cards in {tuple(sorted(x)) for x in product(reefs, repeat=k) if len(set(x)) == k}:
                for combo in product(*(range(held[c] + 1) for c in SHIP_COLOURS)):
                    tokens = {c: n for c, n in zip(SHIP_COLOURS, combo, strict=True) if n}
                    if is_minimal(mission, tokens, list(cards)):
                        slow.add((tuple(sorted(tokens.items())), cards))
        # The fast search offers one card of each interchangeable kind: compare by card kinds.
        assert _by_kind(fast) == _by_kind(slow)
        unpayable += not slow
    assert 0 < unpayable < 40  # both sides of the early exit for what cannot be paid at all


def _by_kind(payments):
    def kind(cid):
        card = content().reefs[cid]
        return card.kind + ",".join(sorted(card.ships))

    return {(tokens, tuple(sorted(kind(c) for c in cards))) for tokens, cards in payments}


def test_minimal_payments_asked_again_are_the_same_and_never_shared_R26():
    """The answers are kept by the question (the mission's ships, the tokens and the Reef cards
    held, in order); each call still gets its own dicts and lists, and a kept answer never
    leaks into another question."""
    from app.engine import missions

    held = {"green": 2, "red": 1, "purple": 2, "blue": 0}
    first = minimal_payments(RED_GREEN, held, ["RF09", "RF10"])
    first[0][0]["red"] = 99  # a caller changing its copy
    first[0][1].append("RF01")
    again = minimal_payments(RED_GREEN, dict(reversed(held.items())), ["RF09", "RF10"])
    assert again == missions._minimal_payments(RED_GREEN, held, ["RF09", "RF10"])
    assert again[0][0] is not first[0][0] and again[0][1] is not first[0][1]
    # The same tokens for another mission, and the cards in another order, are other questions.
    other = Mission("T1", {"red": 2}, 5, 0)
    assert minimal_payments(other, held, ["RF09", "RF10"]) == missions._minimal_payments(
        other, held, ["RF09", "RF10"]
    )
    swapped = minimal_payments(RED_GREEN, held, ["RF10", "RF09"])
    assert swapped == missions._minimal_payments(RED_GREEN, held, ["RF10", "RF09"])
    # Bounded: emptied when full.
    for n in range(missions.PAYMENTS_KEPT + 5):
        minimal_payments(RED_GREEN, {"green": n}, [])
    assert len(missions._PAYMENTS) <= missions.PAYMENTS_KEPT


def test_is_minimal_is_its_definition_over_random_payments_R26():
    """A payment is minimal when it covers the mission and it no longer does with any one token
    or any one card taken out (R-26). `is_minimal` adjusts one pool of ships rather than
    counting every card again for each test: it gives what the definition gives, for payments
    with Two-Ship, Wild and cards that pay no ship alike."""
    import random

    from app.engine.content import SHIP_COLOURS
    from app.engine.missions import payment_covers

    def by_definition(mission, tokens, cards):
        if not payment_covers(mission, tokens, cards):
            return False
        fewer_tokens = [{**tokens, c: n - 1} for c, n in tokens.items() if n]
        fewer_cards = [cards[:i] + cards[i + 1 :] for i in range(len(cards))]
        return not any(payment_covers(mission, t, cards) for t in fewer_tokens) and not any(
            payment_covers(mission, tokens, c) for c in fewer_cards
        )

    rng = random.Random(11)
    cards_pool = ["RF01", "RF02", "RF04", "RF06", "RF09", "RF10", "RF13", "RF21"]
    seen = {True: 0, False: 0}
    for _ in range(3000):
        mission = content().missions[f"MS{rng.randint(1, 33):02d}"]
        tokens = {c: rng.randint(0, 3) for c in SHIP_COLOURS if rng.random() < 0.6}
        cards = rng.sample(cards_pool, rng.randint(0, 3))
        expected = by_definition(mission, tokens, cards)
        assert is_minimal(mission, tokens, cards) == expected, (mission.id, tokens, cards)
        seen[expected] += 1
    assert seen[True] > 100 and seen[False] > 100  # both answers came up often
