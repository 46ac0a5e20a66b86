"""No click without a choice: a step whose only answer is listed goes on by itself (against the
engine-backed stub), and R-58 still holds on the frames the others receive.

Twin tables, as in tests/engine/test_secret_steps.py: in world A the seat to act holds the
treasure that may answer the step (draw four Reef cards, or move any tail) and clicks
"Continue (use no treasure)"; world B is A with that card exchanged for a plain treasure from
the deck, so the seat has nothing to choose and the page sends `decline` without a click. Every
frame the other seats and a spectator receive (their view after each action, and each event as
worded for them) must be the same in both worlds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.engine import event_for, legal_actions, to_act, view_for
from app.engine.content import expansion_content
from tests.e2e.helpers import shot, watch_console
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
XC = expansion_content()
SECRET_FLOW = {"reef": "reef4", "advance": "any_tail"}

# Records every "nothing to choose" note the page shows, however briefly (the step goes on
# 0.7 s later): a MutationObserver installed before the page's own scripts.
NOTE_RECORDER = """
window.__notes = [];
new MutationObserver(() => {
  for (const n of document.querySelectorAll('.forced-note')) {
    if (!window.__notes.includes(n.textContent)) window.__notes.push(n.textContent);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""

# The page has nothing left to send by itself: no action in flight, and not a lone
# decline / choose_tail listed (the same rule as lib/decisions.mjs forcedStep).
SETTLED = """() => {
  const s = window.seadragons.state;
  const legal = s.doc?.legal_actions ?? [];
  const forced = legal.length === 1 && ['decline', 'choose_tail'].includes(legal[0].type);
  return !s.pending && !forced;
}"""


def _at_step(kind: str) -> Table:
    """A 3-player expansion table at a `kind` step where the seat holds the answering treasure."""

    def want(s: Any, acts: list[dict[str, Any]]) -> bool:
        uses = [a for a in acts if a["type"] == "use_treasure"]
        return (
            bool(s.pending)
            and s.pending[0]["kind"] == kind
            and {a["type"] for a in acts} == {"use_treasure", "decline"}
            and all(XC.treasures[a["card"]] == SECRET_FLOW[kind] for a in uses)
        )

    return Table.find(3, want, expansion=True)


def twins(kind: str) -> tuple[Table, Table, int, str, str]:
    """(A, B, seat, secret, plain): B is A with the seat's secret-flow treasure exchanged for a
    plain one still in the treasure deck (so B's seat has only `decline`)."""
    a, b = _at_step(kind), _at_step(kind)  # Table.find is deterministic: the same position
    seat = to_act(a.state)
    (secret,) = [c for c in a.state.players[seat].treasures if XC.treasures[c] == SECRET_FLOW[kind]]
    plain = next(
        c for c in b.state.decks["treasures"] if XC.treasures[c] not in SECRET_FLOW.values()
    )
    hand, deck = b.state.players[seat].treasures, b.state.decks["treasures"]
    hand[hand.index(secret)], deck[deck.index(plain)] = plain, secret
    assert legal_actions(b.state, seat) == [{"type": "decline"}]
    assert {x["type"] for x in legal_actions(a.state, seat)} == {"use_treasure", "decline"}
    return a, b, seat, secret, plain


def _swap(obj: Any, x: str, y: str) -> Any:
    if obj == x:
        return y
    if obj == y:
        return x
    if isinstance(obj, list):
        return [_swap(v, x, y) for v in obj]
    if isinstance(obj, dict):
        return {k: _swap(v, x, y) for k, v in obj.items()}
    return obj


def record_frames(t: Table, others: list[int | None]) -> list[dict[str, Any]]:
    """What each of `others` receives: the view now, then after each action the page sends,
    the new view and the action's events as worded for them."""

    def frames(events: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            str(who): {
                "view": view_for(t.state, who),
                "events": [event_for(e, who) for e in events],
            }
            for who in others
        }

    out = [frames([])]
    act = t.act

    def recording_act(seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        events = act(seat, action)
        out.append(frames(events))
        return events

    t.act = recording_act  # type: ignore[method-assign]
    return out


def _open(
    browser: Any, url: str, viewport: dict[str, int], locale: str
) -> tuple[Any, Any, list[str]]:
    phone = viewport == PHONE
    ctx = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone, locale=locale)
    ctx.add_init_script(NOTE_RECORDER)
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(f"{url}/games/1")
    page.wait_for_selector("#players .player")
    return ctx, page, errors


CASES = [
    ("reef", DESKTOP, "en-GB", "Nothing to choose: the game goes on by itself."),
    ("advance", PHONE, "es-ES", "No hay nada que elegir: la partida sigue sola."),
    ("advance", DESKTOP, "en-GB", "Nothing to choose: the game goes on by itself."),
]


@pytest.mark.parametrize(
    ("kind", "viewport", "locale", "note"), CASES, ids=["reef-en", "advance-es-phone", "advance-en"]
)
def test_nothing_to_choose_goes_on_and_others_see_the_same_frames(
    browser: Any,
    stub_url: str,
    stub_tables: dict[int, Any],
    kind: str,
    viewport: dict[str, int],
    locale: str,
    note: str,
) -> None:
    """R-58 with the step sent by itself: world A clicks Continue, world B clicks nothing."""
    a, b, seat, secret, plain = twins(kind)
    others: list[int | None] = [x for x in range(3) if x != seat] + [None]
    seen: dict[str, list[dict[str, Any]]] = {}
    for world, t in (("A", a), ("B", b)):
        stub_tables[1] = t
        frames = record_frames(t, others)
        ctx, page, errors = _open(browser, stub_url, viewport, locale)
        if world == "A":
            # Holding the treasure is a choice: nothing is sent until the player answers.
            button = page.locator("#actions button.act-decline")
            button.wait_for()
            assert page.locator("#actions button.act-use_treasure").count() == 1
            assert page.locator("#actions .forced-note").count() == 0
            button.click()
        page.wait_for_function("v => window.seadragons.state.version >= v", arg=1)
        page.wait_for_function(SETTLED)
        assert t.actions[0] == (seat, {"type": "decline"})
        if world == "B":
            # Sent by the page with no click: the note said so while it waited.
            assert page.evaluate("() => window.__notes") == [note]
            shot(page, f"forced-{kind}-{locale}-{viewport['width']}", full_page=False)
        else:
            assert page.evaluate("() => window.__notes") == []
        assert errors == []
        seen[world] = frames
        ctx.close()
    assert len(seen["A"]) == len(seen["B"]) >= 2
    for i, (fa, fb) in enumerate(zip(seen["A"], seen["B"], strict=True)):
        assert fa == _swap(fb, secret, plain), f"frame {i} differs for the others"


def test_the_docs_say_the_wait_the_page_keeps() -> None:
    """docs/client.md's "0.7 s" is the page's FORCED_STEP_MS."""
    root = Path(__file__).resolve().parents[2]
    script = (root / "static" / "js" / "ui" / "forcedstep.mjs").read_text()
    assert "const FORCED_STEP_MS = 700;" in script
    assert "sends that action 0.7 s later" in (root / "docs" / "client.md").read_text()
