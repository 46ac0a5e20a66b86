"""Both tutorials completed in the browser by pointer only, against the real server: every step
of every lesson is played with the table's own controls (the hand, the ghost on the board, the
decision panel), every move a step offers to try is refused with the engine's reason (the
button's, and the reason under the ghost on the board for a placement), and Back a step
returns to the step before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.i18n import translate
from app.tutorial import session
from app.tutorial.lessons import LESSONS, script
from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import CELL_CENTRE

pytestmark = pytest.mark.e2e

TIP = "#actions .reason-tip:not([hidden])"
GHOST_KEY = """() => {
  const s = window.seadragons.state;
  return window.seadragons.st.ghostCells(s).map(([r, c]) => `${r},${c}`).sort().join(' ');
}"""


def key(cells: list[list[int]]) -> str:
    return " ".join(sorted(f"{r},{c}" for r, c in cells))


def wait_step(page: Any, step: int) -> None:
    page.wait_for_function(
        f"() => document.body.dataset.step === '{step}' && !window.seadragons.state.pending",
        timeout=20000,
    )


def hover(page: Any, cell: list[int]) -> None:
    x, y = page.evaluate(CELL_CENTRE, cell)
    page.mouse.move(x, y)


def ghost_onto(page: Any, cells: list[list[int]]) -> list[int]:
    """Turn (Rotate, Mirror) and move the ghost by pointer until it covers `cells`; the anchor."""
    want = key(cells)
    # The ghost's pivot is always one of its squares (lib/geometry.mjs pivotOf).
    anchors = list(cells)
    for _mirrored in (False, True):
        for _turn in range(4):
            for anchor in anchors:
                hover(page, anchor)
                if page.evaluate(GHOST_KEY) == want:
                    return anchor
            page.click(".placing button[data-key=rotate]")
        page.click(".placing button[data-key=mirror]")
    raise AssertionError(f"the ghost never covered {want}")


def try_moves(page: Any, move: dict[str, Any], pos: session.Position) -> None:
    """Each move the step offers to try: refused with the engine's reason (R-21, R-22, R-27)."""
    for i, t in enumerate(move.get("tries", [])):
        expected = session.explain_here(pos, t["action"])
        assert expected is not None and expected.code == t["reason"]
        shown = translate(expected.text)  # as players read it: no ruling's id (docs/i18n.md)
        assert "(R-" in expected.text and "(R-" not in shown
        if t["action"]["type"] == "place":
            card = t["action"]["card"]
            if page.evaluate("() => window.seadragons.state.selected") != card:
                page.click(f"#hand button[data-card='{card}']")
            # The ghost on the tried squares: the same reason, in the decision panel.
            ghost_onto(page, t["action"]["cells"])
            page.wait_for_function(
                "(t) => document.querySelector('#actions .reason-tip:not([hidden])')"
                "?.textContent === t",
                arg=shown,
                timeout=15000,
            )
        page.click(f"#lesson-more button[data-key=try-{i}]")
        refusal = page.wait_for_selector(f".lesson-refusal[data-code={t['reason']}]", timeout=15000)
        assert shown in refusal.inner_text()


def off_script(page: Any, move: dict[str, Any]) -> bool:
    """Play, by pointer, a legal move the step does not ask for: the lesson refuses it."""
    action = move["action"]
    if action["type"] == "place":
        if page.evaluate("() => window.seadragons.state.selected") != action["card"]:
            page.click(f"#hand button[data-card='{action['card']}']")
        for _ in range(3):
            page.click(".placing button[data-key=next]")  # the next legal spot
            if page.evaluate(GHOST_KEY) != key(action["cells"]):
                break
        else:
            return False
        page.click(".placing button[data-key=lock]")
        page.click(".placing button[data-key=confirm]")
    elif action["type"] == "draw":
        others = page.locator("#actions .act-draw:not(.lesson-target)")
        if not others.count():
            return False
        others.first.click()
    else:
        return False
    page.wait_for_selector(".lesson-refusal[data-code=lesson_step]", timeout=15000)
    page.keyboard.press("Escape")
    return True


def click_target(page: Any, where: str = "") -> None:
    """Click the first visible control the lesson marks (in `where`, if given)."""
    page.locator(f"{where} .lesson-target:visible".strip()).first.click()


TARGET_BEATS = """() => [...document.querySelectorAll('canvas.board-layer:not([hidden])')]
  .flatMap(c => c.getAnimations()).map(a => a.effect.getComputedTiming().iterations)"""
# Every animation on the page, the marked controls' outlines with the board's layers.
PAGE_BEATS = """() => document.getAnimations().map(a => [a.effect.target.tagName,
  a.effect.getComputedTiming().iterations])"""


def play_step(page: Any, move: dict[str, Any]) -> None:
    action = move["action"]
    kind = action["type"]
    # Nothing on the page pulses endlessly: not the board's target, not a marked control.
    beats = page.evaluate(PAGE_BEATS)
    assert all(isinstance(n, int) and n <= 6 for _, n in beats), beats
    if kind == "place":
        if page.evaluate("() => window.seadragons.state.selected") != action["card"]:
            page.click(f"#hand button[data-card='{action['card']}']")
        anchor = ghost_onto(page, action["cells"])
        x, y = page.evaluate(CELL_CENTRE, anchor)
        page.mouse.click(x, y)  # fix the ghost on the legal spot
        page.wait_for_selector(".placing button[data-key=head]")
        target = page.evaluate("() => window.seadragons.lesson().pos.target")
        # The target's outline pulses a few beats on a layer over the board, never endlessly.
        beats = page.evaluate(TARGET_BEATS)
        assert all(isinstance(n, int) and n <= 6 for n in beats), beats
        if target.get("head"):
            hx, hy = page.evaluate(CELL_CENTRE, target["head"])
            page.mouse.click(hx, hy)  # the Ancestral head on the marked square
        page.click(".placing button[data-key=confirm]")
    elif kind == "mission":
        page.click(f"[data-key=mission-{action['mission']}]")
        page.wait_for_selector("[data-key=mission-confirm]")
        if page.locator("#actions [data-key^=pay-].lesson-target").count():
            page.locator("#actions [data-key^=pay-].lesson-target").first.click()
        page.click("[data-key=mission-confirm]")
    elif kind == "pass":
        page.click("[data-key=pass-open]")
        page.locator("#actions .pass-discard.lesson-target").first.click()
        page.locator("#actions .pass-draw.lesson-target").first.click()
        page.click("[data-key=pass-confirm]")
    else:
        # A draw, a kept card, a tail, a treasure, the Ancestral head, decline: the marked one
        # (in the decision panel when it is there, else in the hand).
        in_panel = page.locator("#actions .lesson-target:visible").count() > 0
        click_target(page, "#actions" if in_panel else "")


def complete(page: Any, url: str, lesson: str, errors: list[str]) -> None:
    page.goto(f"{url}/learn?lesson={lesson}")
    wait_step(page, 0)
    moves = [m for m in script(lesson)["moves"] if "step" in m]
    answers: list[dict[str, Any]] = []
    refused_off_script = 0
    for i, move in enumerate(moves):
        pos = session.position(lesson, answers)
        text = page.inner_text("#lesson")
        assert session.fill(pos, _step_text(move["step"]).do)[:40] in text
        assert page.locator(".lesson-target").count() >= 1, move["step"]  # the step marks where
        try_moves(page, move, pos)
        refused_off_script += off_script(page, move)
        if i == 0:
            shot(page, f"learn-{lesson}-first-step", full_page=False)
        if lesson == "deep" and move["step"] == "ancestral_place":
            # Show me: the ghost fixed on the marked squares, the head on the marked square.
            page.click("#lesson-more button[data-key=show-me]")
            assert page.evaluate(GHOST_KEY) == key(move["action"]["cells"])
            head = page.evaluate("() => window.seadragons.st.headCell(window.seadragons.state)")
            assert head == move["action"]["head"]
            page.keyboard.press("Escape")
        play_step(page, move)
        wait_step(page, i + 1)
        assert not page.locator(".lesson-refusal").count(), page.inner_text("#lesson")
        answers.append(move["action"])
        if lesson == "base" and i == 2:
            # Back a step: the position before the last move, the same step's words again.
            page.click("[data-key=lesson-back]")
            wait_step(page, 2)
            assert page.evaluate("() => window.seadragons.lesson().answers.length") == 2
            play_step(page, move)
            wait_step(page, 3)
    # Every lesson refuses a legal move it does not ask for, with its own reason.
    assert refused_off_script >= 2
    done = page.wait_for_selector("[data-key=lesson-done]")
    expected = session.done_text(session.position(lesson, answers))
    assert done.inner_text() == expected
    shot(page, f"learn-{lesson}-done", full_page=False)
    # A tried move is refused: its 422 is the lesson's point, anything else is a bug.
    assert [e for e in errors if "status of 422" not in e] == []


def _step_text(kind: str) -> Any:
    from app.tutorial.lessons import STEPS

    return STEPS[kind]


@pytest.mark.timeout(1200)  # 32 steps by pointer, on a shared machine
def test_both_tutorials_by_pointer(browser: Any, real_server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(real_server + "/")
    page.click("a[data-key=learn-link]")
    page.wait_for_selector("[data-lesson=base]")
    assert [
        a.get_attribute("data-lesson") for a in page.query_selector_all("[data-lesson]")
    ] == list(LESSONS)
    shot(page, "learn-index", full_page=False)
    for lesson in LESSONS:
        complete(page, real_server, lesson, errors)
    # The ending is the rulebook's Starfish example: the engine's figures, shown at the end.
    page.goto(f"{real_server}/learn?lesson=ending")
    page.wait_for_selector("[data-key=lesson-done]")  # kept in sessionStorage: still done
    assert "21 VP" in page.inner_text("[data-key=lesson-done]")
    realms = page.inner_text("#realms")
    assert "Starfish" in realms or "starfish" in realms.lower()
    ctx.close()


def test_a_lesson_answer_history_from_elsewhere_starts_again(
    browser: Any, real_server: str
) -> None:
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    page = ctx.new_page()
    page.goto(f"{real_server}/learn")
    bogus = json.dumps([{"type": "pass", "discard": None, "draw": None}])
    page.evaluate(f"() => sessionStorage.setItem('seadragons.learn.base', {json.dumps(bogus)})")
    page.goto(f"{real_server}/learn?lesson=base")
    wait_step(page, 0)
    ctx.close()


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize(("label", "options"), [("phone", PHONE), ("desktop", {})])
def test_the_pages_fit_and_a_step_is_played_by_taps(
    browser: Any, real_server: str, label: str, options: dict[str, Any]
) -> None:
    ctx = browser.new_context(**(options or {"viewport": {"width": 1280, "height": 800}}))
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(real_server + "/learn")
    page.wait_for_selector("[data-lesson=deep]")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.goto(real_server + "/learn?lesson=base")
    wait_step(page, 0)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    first = next(m for m in script("base")["moves"] if "step" in m)["action"]
    if label == "phone":
        # A tap on the hand card, the Next spot button until the ghost is on the step's squares,
        # a tap on it to fix it, then Place Dragon.
        page.locator(f"#hand button[data-card='{first['card']}']").tap()
        for _ in range(200):
            if page.evaluate(GHOST_KEY) == key(first["cells"]):
                break
            page.locator(".placing button[data-key=next]").tap()
        page.locator(".placing button[data-key=lock]").tap()
        page.locator(".placing button[data-key=confirm]").tap()
        wait_step(page, 1)
    shot(page, f"learn-base-{label}", full_page=False)
    page.goto(real_server + "/rules")
    page.wait_for_selector("figure.example canvas[data-drawn=true]", timeout=30000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    shot(page, f"rules-{label}", full_page=False)
    assert errors == []
    ctx.close()
