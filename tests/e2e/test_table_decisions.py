"""a placement panel that describes the ghost under the pointer, and
decisions made on the pieces (mission cards and payments, the pass as two choices, a tail by
its track, kept cards as faces), each reachable by keyboard. Against the engine-backed stub."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.engine import legal_actions, preview, to_act
from app.engine.content import content
from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import CELL_CENTRE, PLACEABLE_CARDS
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e

STATUS = "#actions .placing .status"


def _open(browser: Any, url: str, width: int = 1280, height: int = 800) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = watch_console(page)
    page.goto(f"{url}/games/1")
    page.wait_for_selector("#players .player")
    return page, errors


def _wait_action(t: Table, count: int, page: Any) -> dict[str, Any]:
    """Wait until the stub received action number `count`; return it."""
    page.wait_for_function("v => window.seadragons.state.version >= v", arg=count)
    assert len(t.actions) >= count
    return t.actions[count - 1][1]


def test_the_placement_panel_describes_the_ghost_under_the_pointer(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 1: after "Next spot", moving the mouse onto an illegal spot says so at once."""
    t = Table(2, 9)
    stub_tables[1] = t
    page, errors = _open(browser, stub_url)
    page.wait_for_selector("#hand .card.pattern.can")
    card = page.evaluate(PLACEABLE_CARDS)[0]
    page.click(f"#hand button[data-card='{card}']")
    page.click("#actions button[data-key=next]")
    page.wait_for_selector(f"{STATUS}.ok")
    legal_anchor = page.evaluate("() => window.seadragons.state.anchor")
    assert page.is_enabled("#actions button[data-key=lock]")
    # A corner far from the island: no first Dragon may lie there.
    page.mouse.move(*page.evaluate(CELL_CENTRE, [1, 1]))
    page.wait_for_selector(f"{STATUS}.bad", timeout=5000)
    assert page.inner_text(STATUS).startswith("Not legal here")
    assert not page.is_enabled("#actions button[data-key=lock]")
    assert not page.is_enabled("#actions button[data-key=confirm]")
    # No numbers for a spot that is not legal (the engine has none), not the last legal spot's.
    assert page.inner_text("#actions .preview") == "The outcome shows on a legal spot."
    assert page.evaluate("() => window.seadragons.state.anchor") == [1, 1]
    shot(page, "placement-pointer-illegal", full_page=False)
    # Back on the legal spot: legal again, and "Fix here" fixes it.
    page.mouse.move(*page.evaluate(CELL_CENTRE, legal_anchor))
    page.wait_for_selector(f"{STATUS}.ok", timeout=5000)
    assert page.inner_text(STATUS).startswith("Legal here")
    # Legal again: the engine's outcome of exactly these squares (GET .../outcomes).
    page.wait_for_selector("#actions .preview[data-ready=true]")
    cells = page.evaluate("() => window.seadragons.st.currentAction(window.seadragons.state).cells")
    (want,) = [
        o
        for o in preview.outcomes(t.state, to_act(t.state), card)
        if sorted(map(tuple, o["action"]["cells"])) == sorted(map(tuple, cells))
    ]
    cost_text = page.inner_text("#actions .preview .cost")
    assert cost_text == (f"Cost {want['cost']} Gold" if want["cost"] else "No cost")
    page.click("#actions button[data-key=lock]")
    page.wait_for_selector("#actions button[data-key=head]")
    assert page.is_enabled("#actions button[data-key=confirm]")
    page.click("#actions button[data-key=confirm]")
    action = _wait_action(t, 1, page)
    assert action["type"] == "place" and action["card"] == card
    assert not errors, errors
    page.close()


def _several_payments(state: Any, acts: list[dict[str, Any]]) -> bool:
    ids = [a["mission"] for a in acts if a["type"] == "mission"]
    with_card = any(a.get("cards") for a in acts if a["type"] == "mission")
    return with_card and any(ids.count(m) >= 3 for m in ids)


def _cost(action: dict[str, Any]) -> tuple[int, int]:
    worth = {"two_ships": 2, "wild_ship": 1}
    cards = [content().reefs[c].kind for c in action.get("cards", [])]
    tokens = sum(action.get("tokens", {}).values())
    return tokens + sum(worth.get(k, 0) for k in cards), tokens + len(cards)


def test_a_mission_is_completed_by_its_card_with_a_chosen_payment(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 4: click the mission card; the cheapest payment is chosen; swap, then confirm."""
    t = Table.find(3, _several_payments)
    stub_tables[1] = t
    listed = [a for a in legal_actions(t.state, to_act(t.state)) if a["type"] == "mission"]
    ids = [a["mission"] for a in listed]
    mission = max(dict.fromkeys(ids), key=ids.count)
    payments = [a for a in listed if a["mission"] == mission]
    page, errors = _open(browser, stub_url, 1400, 900)
    page.click(f"#markets button.card.mission[data-mission='{mission}']")
    rows = page.locator("#actions button.payment")
    rows.first.wait_for()
    assert rows.count() == len(payments)
    shown = [json.loads(rows.nth(i).get_attribute("data-action")) for i in range(rows.count())]
    assert sorted(map(json.dumps, shown)) == sorted(map(json.dumps, payments))  # only listed ones
    # The cheapest (fewest VP of ships given up) is chosen already.
    assert rows.first.get_attribute("aria-pressed") == "true"
    assert _cost(shown[0]) == min(_cost(a) for a in payments)
    # Tokens are drawn as tokens: ship chips and Reef cards, not a sentence per payment.
    tokens = sum(sum(a["tokens"].values()) for a in shown)
    assert page.locator("#actions button.payment .chip").count() >= tokens
    assert page.locator("#actions .act-mission").count() == 1  # one confirm, not a wall
    shot(page, "mission-payment-chooser", full_page=False)
    # Swap to the last payment by keyboard, then confirm by keyboard.
    last = rows.count() - 1
    page.focus(f"#actions button.payment[data-key='pay-{last}']")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#actions button.payment[data-key='pay-{last}'][aria-pressed=true]")
    assert rows.first.get_attribute("aria-pressed") == "false"
    page.focus("#actions button.act-mission")
    page.keyboard.press("Enter")
    assert _wait_action(t, 1, page) == shown[last]
    page.wait_for_selector("#actions .chooser", state="detached")
    assert not errors, errors
    page.close()


def test_a_pass_is_two_small_choices_by_keyboard(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 4: which card to discard, then which deck to draw from; then the listed pass."""
    t = Table(3, 4)
    stub_tables[1] = t
    seat = to_act(t.state)
    passes = [a for a in legal_actions(t.state, seat) if a["type"] == "pass"]
    hand = t.state.players[seat].hand
    page, errors = _open(browser, stub_url)
    page.focus("#actions button.pass-open")
    page.keyboard.press("Enter")
    page.wait_for_selector("#actions .pass-group .pass-discard")
    assert page.locator("#actions .pass-discard").count() == len(set(hand))
    assert not page.is_enabled("#actions button.act-pass")
    # A click on the card in the hand chooses it too; then the keyboard changes it.
    page.click(f"#hand button[data-card='{hand[0]}']")
    page.wait_for_selector(f"#actions .pass-discard[data-card='{hand[1]}'][aria-pressed=false]")
    page.focus(f"#actions .pass-discard[data-card='{hand[1]}']")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#actions .pass-discard[data-card='{hand[1]}'][aria-pressed=true]")
    page.focus("#actions .pass-draw[data-draw='deck:M']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#actions .pass-draw[data-draw='deck:M'][aria-pressed=true]")
    # Two small rows of choices instead of one button per combination.
    choices = page.locator("#actions .pass-group button").count()
    assert choices < len(passes), (choices, len(passes))
    assert page.inner_text("#actions button.act-pass") == (
        f"Pass: discard {hand[1]}, draw from the Medium deck"
    )
    shot(page, "pass-chooser", full_page=False)
    page.focus("#actions button.act-pass")
    page.keyboard.press("Enter")
    sent = _wait_action(t, 1, page)
    want = {"type": "pass", "discard": hand[1], "draw": {"source": "deck", "deck": "M"}}
    assert sent == want and want in passes
    assert not errors, errors
    page.close()


def test_a_tail_is_chosen_by_its_track_beside_the_decision(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 4: a dark blue ship's tail choice shows the Reward Board in the decision panel."""
    # Two tracks or more: with one, there is nothing to choose (test_table_truth.py).
    t = Table.find(3, lambda s, acts: sum(a["type"] == "choose_tail" for a in acts) > 1, True)
    stub_tables[1] = t
    seat = to_act(t.state)
    tracks = [a["track"] for a in legal_actions(t.state, seat) if a["type"] == "choose_tail"]
    page, errors = _open(browser, stub_url, 1400, 900)
    board = page.wait_for_selector("#actions .reward.in-decision")
    buttons = page.locator("#actions button.rw-track.act-choose_tail")
    assert buttons.count() == len(tracks)
    assert page.locator("#actions .rw-track").count() == 3  # the whole board, open tracks live
    assert not page.is_visible("#reward")  # the board moved beside the decision
    box = board.bounding_box()
    assert box and box["y"] + box["height"] <= 900, box  # in view with the decision
    shot(page, "tail-choice-on-the-board", full_page=False)
    pick = tracks[-1]
    before = t.state.players[seat].tails[pick]
    page.focus(f"#actions button.rw-track[data-track='{pick}']")
    page.keyboard.press("Enter")
    assert _wait_action(t, 1, page) == {"type": "choose_tail", "track": pick}
    assert t.state.players[seat].tails[pick] > before
    page.wait_for_selector("#reward .rw-track")  # back in its usual place
    assert not errors, errors
    page.close()


def test_kept_cards_are_card_faces(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 4: choosing which Reef card to keep is a click on a card face."""
    t = Table.find(3, lambda s, acts: sum(a["type"] == "keep_reef" for a in acts) >= 2)
    stub_tables[1] = t
    keeps = [a for a in legal_actions(t.state, to_act(t.state)) if a["type"] == "keep_reef"]
    page, errors = _open(browser, stub_url)
    faces = page.locator("#actions button.card.reef-card.act-keep_reef")
    faces.first.wait_for()
    assert faces.count() == len(keeps)
    card = keeps[-1]["card"]
    page.click(f"#actions button.act-keep_reef[data-card='{card}']")
    assert _wait_action(t, 1, page) == {"type": "keep_reef", "card": card}
    assert not errors, errors
    page.close()


def test_a_treasure_that_answers_a_choice_is_offered_beside_decline(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 4: before a Reef draw, the draw-four treasure and Decline sit side by side."""

    def offered(state: Any, acts: list[dict[str, Any]]) -> bool:
        types = {a["type"] for a in acts}
        return {"decline", "use_treasure"} <= types

    t = Table.find(3, offered, True)
    use = next(a for a in legal_actions(t.state, to_act(t.state)) if a["type"] == "use_treasure")
    stub_tables[1] = t
    page, errors = _open(browser, stub_url)
    group = page.wait_for_selector("#actions .pick-group")
    assert group.query_selector("button.act-decline")
    page.click(f"#actions .pick-group button.act-use_treasure[data-card='{use['card']}']")
    assert _wait_action(t, 1, page) == use
    assert not errors, errors
    page.close()
