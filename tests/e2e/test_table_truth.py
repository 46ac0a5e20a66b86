"""The table tells the whole truth (client side), against the engine-backed stub: the neutral
step says Continue, the words follow what the engine lists (a single tail, the decks open after
the same-deck treasure, no mission to complete), the Convert treasure on the ship tokens, what
is switched on for a placement (and its Undo), tails and realm counts in the final scores, an
idle page that repaints nothing, the phone's layout and the small things. Each test saves
screenshots at desktop (1280x800) and phone (390x844) sizes under test-artifacts/."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.engine import final_scores, legal_actions, preview, to_act, view_for
from app.engine.content import expansion_content
from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import CELL_CENTRE, PLACEABLE_CARDS, place_with_keyboard
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _open(
    browser: Any, url: str, viewport: dict[str, int], init: str | None = None, **opts: Any
) -> tuple[Any, list[str]]:
    phone = viewport == PHONE
    ctx = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone, **opts)
    if init:
        ctx.add_init_script(init)
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(f"{url}/games/1")
    page.wait_for_selector("#players .player")
    page.wait_for_function("() => window.seadragons.state.doc && !window.seadragons.state.pending")
    return page, errors


def _wait_action(t: Table, count: int, page: Any) -> dict[str, Any]:
    """Wait until the stub received action number `count`; return it."""
    page.wait_for_function("v => window.seadragons.state.version >= v", arg=count)
    assert len(t.actions) >= count
    return t.actions[count - 1][1]


def _effect(card: str) -> str:
    return expansion_content().treasures[card]


def _types(acts: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [a for a in acts if a["type"] == kind]


def _neutral_step_table() -> Table:
    """A table at R-58's neutral step: Decline listed, no treasure that could answer it."""
    return Table.find(
        3,
        lambda s, acts: bool(_types(acts, "decline")) and not _types(acts, "use_treasure"),
        expansion=True,
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_neutral_step_says_continue_and_goes_on_by_itself(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], viewport: dict[str, int]
) -> None:
    """With no treasure to use, one "Continue" button (R-58's neutral step), which the page
    presses by itself: there is nothing to choose (tests/e2e/test_forced_steps.py for R-58)."""
    t = stub_tables[1] = _neutral_step_table()
    page, errors = _open(browser, stub_url, viewport)
    assert _wait_action(t, 1, page) == {"type": "decline"}
    assert errors == []


def test_a_press_survives_a_switch_from_finger_to_mouse(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """On a touch screen the panel speaks of taps; a mouse press switches it to clicks. The
    switch must not rebuild the buttons between the press and its release, or the click is
    lost (a frame drawn between the two, as on a busy machine or a slow phone)."""
    t = stub_tables[1] = _treasure_or_not_table()
    page, errors = _open(browser, stub_url, PHONE)
    button = page.locator("#actions button.act-decline")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Two frames drawn while the button is held down: any rebuild they schedule happens now.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.mouse.up()
    assert _wait_action(t, 1, page) == {"type": "decline"}
    assert errors == []


def _treasure_or_not_table() -> Table:
    """A table where a held treasure may answer the step: Continue or use it (a real choice)."""
    return Table.find(
        3,
        lambda s, acts: bool(_types(acts, "decline")) and bool(_types(acts, "use_treasure")),
        expansion=True,
    )


def test_a_treasure_that_may_answer_comes_second(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Holding a treasure that answers the choice, Continue first and the treasure next."""
    stub_tables[1] = _treasure_or_not_table()
    page, errors = _open(browser, stub_url, DESKTOP)
    buttons = page.locator("#actions [data-slot=pick] .buttons button")
    assert buttons.nth(0).inner_text() == "Continue (use no treasure)"
    assert buttons.nth(1).inner_text().startswith("Use HT")
    shot(page, "truth-continue-or-treasure-1280", full_page=False)
    assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_one_track_to_move_is_one_button(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], viewport: dict[str, int]
) -> None:
    """When only one tail can move there is nothing to choose: one button says which, and the
    page presses it by itself."""
    # Rare in random games: seed 207 is the first to reach it (206 games before it: 7-10 s).
    t = Table.find(
        3, lambda s, acts: len(_types(acts, "choose_tail")) == 1, expansion=True, start=207
    )
    stub_tables[1] = t
    (only,) = _types(legal_actions(t.state, to_act(t.state)), "choose_tail")
    # The buttons shown, however briefly: the page presses this one 0.7 s after it shows.
    recorder = """window.__tails = [];
    new MutationObserver(() => {
      const buttons = document.querySelectorAll('#actions button.act-choose_tail');
      const texts = [...buttons].map(b => b.textContent);
      if (texts.length) window.__tails.push(texts);
    }).observe(document, { subtree: true, childList: true });"""
    page, errors = _open(browser, stub_url, viewport, init=recorder)
    assert _wait_action(t, 1, page) == only
    shown = page.evaluate("() => window.__tails")
    assert shown and all(texts == [f"Advance the {only['track']} tail"] for texts in shown)
    assert errors == []


def test_after_the_same_deck_treasure_the_text_names_the_open_deck(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """The deck just played is offered, and the text says so (not "not from")."""
    t = Table.find(
        3,
        lambda s, acts: any(
            a["type"] == "use_treasure" and _effect(a["card"]) == "same_deck" for a in acts
        ),
        expansion=True,
    )
    seat = to_act(t.state)
    use = next(
        a
        for a in legal_actions(t.state, seat)
        if a["type"] == "use_treasure" and _effect(a["card"]) == "same_deck"
    )
    t.act(seat, use)
    # Go on to the draw if a mission could still be completed first.
    while t.state.turn.phase == "mission" and not _types(legal_actions(t.state, seat), "draw"):
        t.act(seat, legal_actions(t.state, seat)[0])
    played = t.state.turn.played_deck
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, DESKTOP)
    note = page.inner_text("#actions .draw-group .deck-note")
    assert "open too" in note and "not from" not in note, note
    decks = {"S": "Small", "M": "Medium", "L": "Large"}
    assert decks[played] in note
    shot(page, "truth-same-deck-1280", full_page=False)
    assert errors == []


def test_no_mission_to_complete_says_draw(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """In the mission phase with no mission payable, the turn line says draw."""
    t = Table.find(
        3,
        lambda s, acts: s.turn.phase == "mission" and not s.pending and not _types(acts, "mission"),
    )
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, DESKTOP)
    line = page.inner_text("#actions [data-slot=turn]")
    assert "draw a Pattern card" in line and "complete a mission" not in line, line
    assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_convert_treasure_is_chosen_on_the_ship_tokens(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], viewport: dict[str, int]
) -> None:
    """No wall of buttons: the ship to give up, then its new colour, then Convert."""
    t = Table.find(
        4,
        lambda s, acts: any(a["type"] == "use_treasure" and "convert" in a for a in acts),
        expansion=True,
    )
    stub_tables[1] = t
    seat = to_act(t.state)
    converts = [a for a in legal_actions(t.state, seat) if "convert" in a]
    page, errors = _open(browser, stub_url, viewport)
    assert page.locator("#actions button[data-action*=convert]").count() == 0  # no wall
    page.locator("#actions button.convert-open").first.click()
    page.wait_for_selector("#actions .ship-choices button.ship-choice")  # drawn after the click
    src = converts[0]["convert"][0]
    dst = next(a["convert"][1] for a in converts if a["convert"][0] == src)
    froms = page.locator("#actions .ship-choices").first.locator("button.ship-choice")
    assert {froms.nth(i).get_attribute("data-colour") for i in range(froms.count())} == {
        a["convert"][0] for a in converts
    }
    if froms.count() > 1:
        page.click(f"#actions button[data-key=convert-from-{src}]")
    page.click(f"#actions button[data-key=convert-to-{dst}]")
    page.wait_for_selector("#actions button[data-key=convert-confirm]:not([disabled])")
    confirm = page.locator("#actions button[data-key=convert-confirm]")
    want = next(a for a in converts if a["convert"] == [src, dst])
    assert json.loads(confirm.get_attribute("data-action")) == want
    shot(page, f"truth-convert-{viewport['width']}", full_page=False)
    ships_before = dict(t.state.players[seat].ships)
    confirm.click()
    assert _wait_action(t, 1, page) == want
    assert t.state.players[seat].ships[dst] == ships_before[dst] + 1
    assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_ancestral_head_switched_on_shows_and_can_be_taken_back(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], viewport: dict[str, int]
) -> None:
    """After "Use the Ancestral head" the panel and the ghost say it is on; Undo sends
    the engine's take_back (offered by the view's turn until the placement) and the head is
    back in supply."""
    t = Table.find(3, lambda s, acts: bool(_types(acts, "use_ancestral")), expansion=True)
    seat = to_act(t.state)
    t.act(seat, {"type": "use_ancestral"})
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, viewport)
    active = page.locator("#actions .active-now")
    assert "Switched on:" in active.inner_text(), active.inner_html()
    assert page.locator("#actions .active-now [data-active=ancestral]").count() == 1
    assert "ON for this placement" in page.inner_text(f"#players .player[data-seat='{seat}']")
    # The ghost carries the caption: the canvas differs from the same ghost without it.
    card = page.evaluate(PLACEABLE_CARDS)[0]
    page.click(f"#hand button[data-card='{card}']")
    page.click("#actions button[data-key=next]")
    shot(page, f"truth-ancestral-on-{viewport['width']}", full_page=False)
    assert page.evaluate(
        "() => window.seadragons.st.activeNow(window.seadragons.state)[0].key"
    ) == ("ancestral")
    assert view_for(t.state, seat)["turn"]["take_back"] == {"kind": "ancestral"}
    page.click("#actions button[data-key=take-back]")
    assert _wait_action(t, 2, page) == {"type": "take_back"}
    page.wait_for_function("() => !document.querySelector('#actions .active-now')")
    assert t.state.players[seat].ancestral and not t.state.turn.ancestral
    assert errors == []


def _finished_expansion(seed: int = 3) -> Table:
    t = Table(3, seed, expansion=True)
    t.advance(2000, random.Random(seed))
    assert t.state.over
    return t


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_final_scores_show_each_tail_and_what_a_realm_count_includes(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], viewport: dict[str, int]
) -> None:
    """Per track the Bonus tile's value, full or half, and the VP (the engine's)."""
    t = _finished_expansion()
    t.bots[1] = {"level": "greedy", "stand_in": True}
    stub_tables[1] = t
    scores = final_scores(t.state)
    page, errors = _open(browser, stub_url, viewport)
    page.wait_for_selector("#scores tr.tail-row")
    for p in scores["players"]:
        for d in p["tails_detail"]:
            cell = page.locator(f"#scores tr.tail-row[data-track='{d['track']}'] td").nth(p["seat"])
            reach = "full" if d["full"] else "half" if d["half"] else "not reached"
            assert cell.inner_text().split() == f"{d['vp']} VP tile {d['tile']} · {reach}".split()
        for realm, cell in p["realm_detail"].items():
            text = page.locator(f"#scores tr.sub[data-realm='{realm}'] td").nth(p["seat"])
            if cell["count"] and cell["hidden"]:
                assert f"incl. {cell['hidden']} hidden" in text.inner_text()
    # The game is over, so nobody "plays" any more.
    badge = page.inner_text("#players .player[data-seat='1']")
    assert "bot (casual) played" in badge and "plays" not in badge
    page.locator("#scores").scroll_into_view_if_needed()
    shot(page, f"truth-final-tails-{viewport['width']}", full_page=False)
    assert errors == []


IDLE_ANIMATIONS = """() => document.getAnimations()
  .filter(a => a.playState === 'running')
  .map(a => ({name: a.animationName || a.constructor.name,
              iterations: a.effect.getComputedTiming().iterations}))"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_an_idle_table_runs_no_endless_animation(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], motion: str
) -> None:
    """ "Your turn" pulses a few times (never with reduced motion), "to play" not at all;
    then nothing is animated. The CPU it saves is measured in bench/idle_page_cpu.py."""
    t = Table(3, 7)
    t.advance(12, random.Random(7))
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, DESKTOP, reduced_motion=motion)
    page.wait_for_selector("#turn-banner:not([hidden])")
    page.wait_for_selector("#players .turn-dot")
    running = page.evaluate(IDLE_ANIMATIONS)
    assert all(a["iterations"] != float("inf") and a["iterations"] is not None for a in running)
    if motion == "reduce":
        assert running == []
    # The few pulses end by themselves (a wait for the condition, not a timed sleep).
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    assert errors == []


COUNT_DRAWS = """() => {
  const b = window.seadragons.board, draw = b.draw.bind(b);
  window.__draws = 0;
  b.draw = () => { window.__draws += 1; draw(); };
}"""
LAYER = "document.querySelector('canvas.board-layer')"


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_newest_dragon_pulses_without_drawing_the_board_again(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], motion: str
) -> None:
    """The newest Dragon's outline pulses on a layer of its own over the board, as an opacity
    animation the compositor plays (still, with reduced motion), and goes when the highlight
    expires. The board is drawn again only when something changes: drawn anew for each frame
    of the pulse, as it was, a table page with a new Dragon took most of a core."""
    t = Table(2, 9)
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, DESKTOP, reduced_motion=motion)
    page.wait_for_selector("#hand .card.pattern.can")
    page.evaluate(COUNT_DRAWS)
    place_with_keyboard(page)
    page.wait_for_function(f"() => {LAYER} && !{LAYER}.hidden")
    states = page.evaluate(f"() => {LAYER}.getAnimations().map(a => a.playState)")
    assert states == ([] if motion == "reduce" else ["running"])
    draws = page.evaluate("() => window.__draws")
    # The outline goes by itself when the highlight expires (2.5 s): a wait for that condition.
    page.wait_for_function(f"() => {LAYER}.hidden", timeout=15000)
    # About 150 frames of 2.5 s at 60 frames a second drew the board anew each; now the expiry
    # draws it once (a few more may come from the page's own updates, never one per frame).
    assert page.evaluate("() => window.__draws") - draws <= 5
    assert page.evaluate(f"() => {LAYER}.getAnimations().length") == 0
    assert errors == []


def test_the_small_things_on_the_table(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """The board's label names the square as every page does (column letter, row from 1: "G7");
    a "How to play" link on the table."""
    t = Table(2, 9)
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, DESKTOP)
    page.wait_for_selector("#hand .card.pattern.can")
    card = page.evaluate(PLACEABLE_CARDS)[0]
    page.click(f"#hand button[data-card='{card}']")
    page.click("#actions button[data-key=next]")
    anchor = page.evaluate("() => window.seadragons.state.anchor")
    # The label is written with the next frame the board paints: wait for it, then read it.
    want = f"at {'ABCDEFGHIJKLMNO'[anchor[1]]}{anchor[0] + 1},"
    page.wait_for_function(
        "w => (document.getElementById('board').getAttribute('aria-label') || '').includes(w)",
        arg=want,
    )
    label = page.get_attribute("#board", "aria-label")
    assert want in label and "row" not in label and "column" not in label, label
    link = page.locator("#rules-link")
    assert link.inner_text() == "How to play" and link.get_attribute("href") == "/rules"
    assert errors == []


CUT = """sel => [...document.querySelectorAll(sel)].filter(e => e.getBoundingClientRect().width
  && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible')
  .map(e => e.className + ': ' + e.textContent.slice(0, 40))"""


def test_the_phone_table_shows_names_counts_and_big_enough_squares(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """At 390x844 (touch): the header's name, the treasure counts and the Reward Board
    track names are whole; squares of 24 px at least; the sheet leaves most of the screen; the
    prompts speak of taps."""
    t = Table(4, 5, expansion=True)
    t.advance(30, random.Random(5))
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, PHONE)
    # The top bar is one line; its links scroll sideways inside it (the nav), nothing is cut.
    assert page.evaluate(CUT, ".topbar *:not(nav), #players *, #reward *") == []
    assert page.evaluate("() => document.querySelector('.topbar').offsetHeight") <= 48
    assert page.inner_text("#me") == "Tester" and page.locator("#me").is_visible()
    # The board's bar is one line (it scrolls sideways): wrapped, it took the board's height.
    assert page.evaluate("() => document.querySelector('.board-bar').scrollHeight") < 48
    assert page.evaluate("() => window.seadragons.board.layout.cell") >= 24
    sheet = page.evaluate("() => document.getElementById('sheet').getBoundingClientRect().height")
    assert sheet <= 0.3 * PHONE["height"] + 1, sheet
    assert "Tap a card" in page.inner_text("#actions")
    assert "click" not in page.inner_text("#actions").lower()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "truth-phone-table-390", full_page=False)
    assert errors == []


def test_the_create_table_form_fits_its_panel(browser: Any, stub_url: str) -> None:
    """At 1280 px (and on the phone) every control of "Create a table" is inside it."""
    for viewport in (DESKTOP, PHONE):
        page = browser.new_page(viewport=viewport)
        page.goto(f"{stub_url}/")
        page.wait_for_selector("#create:not([hidden])")
        outside = page.evaluate(
            """() => { const box = document.getElementById('create').getBoundingClientRect();
              return [...document.querySelectorAll('#create-form *')].filter(e => {
                const r = e.getBoundingClientRect();
                return r.width && (r.right > box.right + 0.5 || r.left < box.left - 0.5); })
              .map(e => e.tagName + '.' + e.className); }"""
        )
        assert outside == [], (viewport, outside)
        assert "slow to think" in page.inner_text("#bot-levels")  # the levels explained
        shot(page.locator("#create"), f"truth-create-{viewport['width']}")
        page.close()


def _after_treasure(effect: str, players: int = 4) -> tuple[Table, int]:
    """A table right after the seat to act used a before-placing treasure with `effect`."""

    def usable(s: Any, acts: list[dict[str, Any]]) -> bool:
        return any(a["type"] == "use_treasure" and _effect(a["card"]) == effect for a in acts)

    t = Table.find(players, usable, expansion=True)
    seat = to_act(t.state)
    use = next(
        a
        for a in legal_actions(t.state, seat)
        if a["type"] == "use_treasure" and _effect(a["card"]) == effect
    )
    t.act(seat, use)
    return t, seat


# The preview describes the ghost as it is now, with the engine's numbers in.
PREVIEW_READY = """() => {
  const p = document.querySelector('#actions .preview');
  return !!p && p.dataset.ready === 'true' && p.dataset.ghost === window.seadragons.ghostKey();
}"""

PREVIEW_NOW = """() => ({
  cells: window.seadragons.st.currentAction(window.seadragons.state)?.cells ?? null,
  text: document.querySelector('#actions .preview')?.textContent ?? null,
})"""


def _outcome_for(t: Table, seat: int, card: str, cells: list[list[int]]) -> dict[str, Any]:
    """The engine's outcome of placing `card` on exactly `cells`."""
    want = sorted(map(tuple, cells))
    return next(
        o
        for o in preview.outcomes(t.state, seat, card)
        if sorted(map(tuple, o["action"]["cells"])) == want
    )


@pytest.mark.parametrize("effect", ["triple_gold", "contact_gold"])
def test_the_preview_is_the_engines_outcome_and_placing_gives_it(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], effect: str
) -> None:
    """With the triple-Gold or the 2-Gold-per-touching-Dragon treasure on, the preview
    of each spot says the engine's cost and Gold (squares, treasure, Reward Board) and placing
    the spot gives exactly the previewed Gold."""
    t, seat = _after_treasure(effect)
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, DESKTOP)
    card = page.evaluate(PLACEABLE_CARDS)[0]
    page.click(f"#hand button[data-card='{card}']")
    best = None
    for _ in range(25):
        page.click("#actions button[data-key=next]")
        page.wait_for_function(PREVIEW_READY)
        now = page.evaluate(PREVIEW_NOW)
        o = _outcome_for(t, seat, card, now["cells"])
        assert (f"Cost {o['cost']} Gold" if o["cost"] else "No cost") in now["text"]
        if o["gold"]["total"]:
            assert f"+{o['gold']['total']} Gold" in now["text"], (now, o["gold"])
        if o["gold"]["treasures"]:
            assert f"{o['gold']['treasures']} from the treasure" in now["text"]
            best = best or (now["cells"], o)
    assert t.outcome_requests == [(t.version, card)]  # one request per version and card
    if best is None:
        pytest.fail(f"no spot in 25 where {effect} adds Gold: choose another position")
    while page.evaluate(PREVIEW_NOW)["cells"] != best[0]:
        page.click("#actions button[data-key=next]")
    page.wait_for_function(PREVIEW_READY)
    shot(page, f"truth-preview-{effect}-1280", full_page=False)
    page.click("#actions button[data-key=lock]")
    page.click("#actions button[data-key=confirm]")
    action = _wait_action(t, 2, page)
    assert sorted(map(tuple, action["cells"])) == sorted(map(tuple, best[0]))
    assert t.state.players[seat].gold == best[1]["gold_after"]
    assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_extra_body_treasure_places_a_dragon_of_five_squares(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], viewport: dict[str, int]
) -> None:
    """After the extra-body treasure a square is added to the ghost by hand (Edit
    squares, then a click or tap on a square), the spot is legal and the Dragon placed has it."""
    t, seat = _after_treasure("extra_body")
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, viewport)
    card = page.evaluate(PLACEABLE_CARDS)[0]
    acts = [a for a in legal_actions(t.state, seat) if a["type"] == "place" and a["card"] == card]
    five = next(a for a in acts if len(a["cells"]) == len(acts[0]["cells"]) + 1)
    four = next(
        a
        for a in acts
        if len(a["cells"]) == len(five["cells"]) - 1 and all(c in five["cells"] for c in a["cells"])
    )
    extra = next(c for c in five["cells"] if c not in four["cells"])
    press = page.tap if viewport == PHONE else page.click  # a phone is used by touch throughout
    press(f"#hand button[data-card='{card}']")
    page.wait_for_selector("#actions button[data-key=next]")  # the placing bar, drawn after
    # "Next spot" up to the card-shaped spot, then one square more by hand.
    target = sorted(map(tuple, four["cells"]))
    for _ in range(len(acts) + 1):
        if sorted(map(tuple, page.evaluate(PREVIEW_NOW)["cells"] or [])) == target:
            break
        press("#actions button[data-key=next]")
    press("#actions button[data-key=edit-squares]")
    page.locator("#board").scroll_into_view_if_needed()
    xy = page.evaluate(CELL_CENTRE, extra)
    if viewport == PHONE:
        page.touchscreen.tap(*xy)
    else:
        page.mouse.click(*xy)
    page.wait_for_function(
        "n => window.seadragons.st.ghostCells(window.seadragons.state).length === n",
        arg=len(five["cells"]),
    )
    page.wait_for_function(PREVIEW_READY)
    assert page.inner_text("#actions .placing .status").startswith(f"{len(five['cells'])} squares")
    shot(page, f"truth-extra-body-{viewport['width']}", full_page=False)
    press("#actions button[data-key=lock]")
    press("#actions button[data-key=confirm]")
    action = _wait_action(t, 2, page)
    assert sorted(map(tuple, action["cells"])) == sorted(map(tuple, five["cells"]))
    assert f"({len(five['cells'])} squares)" in t.log[-1]["text"][0]
    assert errors == []


def test_next_spot_reaches_the_free_shapes(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """With the free-shape treasure, "Next spot" lands on listed placements whose
    squares are not the card's shape (never on "not legal")."""
    t, _ = _after_treasure("free_shape")
    stub_tables[1] = t
    page, errors = _open(browser, stub_url, DESKTOP)
    card = page.evaluate(PLACEABLE_CARDS)[0]
    page.click(f"#hand button[data-card='{card}']")
    free = 0
    for _ in range(30):
        page.click("#actions button[data-key=next]")
        page.wait_for_selector("#actions .placing .status.ok")
        free += page.evaluate("() => !!window.seadragons.state.freeCells")
    assert free > 0
    assert errors == []
