"""The table feels alive (real server, two guests at a 2-player table): whose turn it is when a
card is picked out of turn, with no verdict on the board; the sounds for a move, my turn and a
chat line (only after a gesture, and never when switched off, remembered per browser); the
favicon and the title while the game waits for me; the unread-chat mark and the chat read out
to screen readers; the watch pages' sound off by default. In English at 1366x768 and in
Spanish on a phone."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import other_decision, place_with_pointer, sign_in_as_guest, wait_my_move

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

WORDS = {
    "en": {
        "looking": "Looking at {card}",
        "their_turn": "{name} is to play.",
        "only_looking": "Only looking",
        "unread": "1 new chat message",
        "said": "{name} says: {text}",
        "sound": "Sound",
    },
    "es": {
        "looking": "Mirando {card}",
        "their_turn": "Le toca a {name}.",
        "only_looking": "Solo mirando",
        "unread": "1 mensaje nuevo en el chat",
        "said": "{name} dice: {text}",
        "sound": "Sonido",
    },
}

SOUNDS = "() => window.seadragons.sound.played.map(p => p.cue)"
NO_GESTURE_YET = """Object.defineProperty(navigator, 'userActivation',
  { value: { hasBeenActive: false, isActive: false } });"""


@pytest.fixture
def server(real_server: str) -> str:
    """The real app, shared (tests/e2e/conftest.py `real_server`): each test seats new guests."""
    return real_server


def _guest(
    browser: Any, url: str, name: str, viewport: dict[str, int], lang: str
) -> tuple[Any, Any]:
    phone = viewport == PHONE
    ctx = browser.new_context(
        viewport=viewport,
        has_touch=phone,
        is_mobile=phone,
        locale="es-ES" if lang == "es" else "en-GB",
    )
    page = ctx.new_page()
    sign_in_as_guest(page, url, name)
    return ctx, page


def _play_until_not(page: Any, url: str, gid: int, seat: int, deadline: float) -> None:
    """Make `page`'s decisions while the game waits for `seat`."""
    while page.request.get(f"{url}/api/games/{gid}").json()["to_act"] == seat:
        assert time.monotonic() < deadline, "the turn did not end in time"
        snap = wait_my_move(page)
        if snap["places"]:
            place_with_pointer(page)
        else:
            other_decision(page, snap)


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", LAPTOP), ("es", PHONE)], ids=["en-1366", "es-phone"]
)
def test_whose_turn_sounds_favicon_and_unread_chat(
    browser: Any, server: str, lang: str, viewport: dict[str, int]
) -> None:
    url, words = server, WORDS[lang]
    deadline = time.monotonic() + 180
    ann_ctx, ann = _guest(browser, url, "Ann", LAPTOP, "en")
    bob_ctx, bob = _guest(browser, url, "Bob", viewport, lang)
    errors = watch_console(bob, watch_console(ann))
    game = ann.request.post(url + "/api/games", data={"players": 2}).json()
    gid = game["id"]
    assert bob.request.post(
        f"{url}/api/games/{gid}/join", data={"invite_code": game["invite_code"]}
    ).ok
    assert ann.request.post(f"{url}/api/games/{gid}/start").ok
    seat_of = {
        name: page.request.get(f"{url}/api/games/{gid}").json()["your_seat"]
        for name, page in (("Ann", ann), ("Bob", bob))
    }
    for page in (ann, bob):
        page.goto(f"{url}/games/{gid}")
        page.wait_for_selector("#hand .card.pattern", timeout=20_000)
    # The checks read Bob's page (his language, his screen) while Ann is to play.
    if ann.request.get(f"{url}/api/games/{gid}").json()["to_act"] == seat_of["Bob"]:
        _play_until_not(bob, url, gid, seat_of["Bob"], deadline)

    # The favicon and the title are not marked while Ann is to play.
    bob.wait_for_function(
        "() => { const s = window.seadragons.state;"
        " return s.doc && !window.seadragons.st.isMyTurn(s); }"
    )
    assert bob.get_attribute("link[rel=icon]", "href") == "/static/img/favicon.svg"
    # A card picked out of turn: whose turn it is, the card only looked at, no verdict.
    button = bob.locator("#sound-btn")
    assert button.inner_text() == words["sound"] and button.get_attribute("aria-pressed") == "true"
    card = bob.evaluate("() => window.seadragons.st.myHand(window.seadragons.state)[0]")
    bob.click(f"#hand button[data-card='{card}']")  # the first gesture, too
    bar = bob.locator("#actions .placing.looking")
    bar.wait_for()
    text = bar.inner_text()
    assert words["looking"].format(card=card) in text
    assert words["their_turn"].format(name="Ann") in text
    assert (
        bob.locator(
            "#actions .placing .status.bad, #actions [data-key=confirm], #actions [data-key=lock]"
        ).count()
        == 0
    )
    assert words["only_looking"] in bob.inner_text("#said-ghost")
    assert bob.evaluate("() => window.seadragons.st.lookingOnly(window.seadragons.state)") is True
    bob.locator("#board").focus()
    bob.keyboard.press("r")  # turning the card looked at works
    shot(bob, f"alive-looking-{lang}-{viewport['width']}", full_page=False)
    bob.click("#actions [data-key=cancel]")
    assert bob.evaluate("() => window.seadragons.state.selected") is None

    # Ann says something: Bob's page sounds, marks the chat unread and reads it out.
    ann.fill("#chat-input", "hello Bob")
    ann.press("#chat-input", "Enter")
    jump = bob.locator("#chat-jump")
    jump.wait_for(state="visible")
    assert jump.inner_text() == words["unread"]
    assert bob.text_content("#chat-unread") == words["unread"]
    assert words["said"].format(name="Ann", text="hello Bob") in bob.inner_text("#said")
    bob.wait_for_function(f"() => ({SOUNDS})().includes('chat')")
    shot(bob, f"alive-unread-chat-{lang}-{viewport['width']}", full_page=False)
    jump.click()
    bob.wait_for_function("() => document.getElementById('chat-jump').hidden")
    assert bob.locator("#chat-unread").is_hidden()
    bob.evaluate("() => window.scrollTo(0, 0)")

    # Ann plays her turn: Bob hears her placement, then his turn; the tab and the favicon say so.
    assert wait_my_move(ann)["places"]
    place_with_pointer(ann)
    bob.wait_for_function(f"() => ({SOUNDS})().includes('move')")
    assert "your_turn" not in bob.evaluate(SOUNDS)
    _play_until_not(ann, url, gid, seat_of["Ann"], deadline)
    bob.wait_for_function("() => window.seadragons.st.isMyTurn(window.seadragons.state)")
    bob.wait_for_function(f"() => ({SOUNDS})().includes('your_turn')")
    bob.wait_for_function(
        "() => document.querySelector('link[rel=icon]').getAttribute('href')"
        " .endsWith('favicon-turn.svg')"
    )
    assert bob.title().startswith("●")
    shot(bob, f"alive-your-turn-{lang}-{viewport['width']}", full_page=False)

    # Switched off, and remembered by this browser across a reload: nothing sounds.
    button.click()
    assert button.get_attribute("aria-pressed") == "false"
    _play_until_not(bob, url, gid, seat_of["Bob"], deadline)
    bob.reload()
    bob.wait_for_selector("#hand .card.pattern")
    assert bob.locator("#sound-btn").get_attribute("aria-pressed") == "false"
    bob.keyboard.press("Shift")  # a gesture: only the switch keeps it quiet now
    ann.fill("#chat-input", "again")
    ann.press("#chat-input", "Enter")
    bob.locator("#chat-jump").wait_for(state="visible")
    assert bob.evaluate(SOUNDS) == []
    assert not errors, errors
    ann_ctx.close()
    bob_ctx.close()


def test_no_sound_before_a_gesture_and_watch_pages_start_quiet(browser: Any, server: str) -> None:
    url = server
    ann_ctx, ann = _guest(browser, url, "Ann", LAPTOP, "en")
    # Playwright's Chromium allows audio without a gesture and reports one (userActivation):
    # Bob's browser says "no gesture yet", as a user's does on a page just opened.
    bob_ctx = browser.new_context(viewport=LAPTOP)
    bob_ctx.add_init_script(NO_GESTURE_YET)
    bob = bob_ctx.new_page()
    assert bob.request.post(url + "/api/session/guest", data={"name": "Bob"}).ok
    errors = watch_console(bob, watch_console(ann))
    game = ann.request.post(url + "/api/games", data={"players": 2}).json()
    gid = game["id"]
    assert bob.request.post(
        f"{url}/api/games/{gid}/join", data={"invite_code": game["invite_code"]}
    ).ok
    assert ann.request.post(f"{url}/api/games/{gid}/start").ok
    for page in (ann, bob):
        page.goto(f"{url}/games/{gid}")
        page.wait_for_selector("#hand .card.pattern", timeout=20_000)
    # Chat to Bob's page, which has had no gesture since it loaded: marked, not sounded.
    ann.fill("#chat-input", "psst")
    ann.press("#chat-input", "Enter")
    bob.locator("#chat-jump").wait_for(state="visible")
    assert bob.evaluate("() => window.seadragons.sound.gestured") is False
    assert bob.evaluate("() => window.seadragons.sound.on") is True
    assert bob.evaluate(SOUNDS) == []
    bob.click("#players")  # the first gesture: from now on a chat line sounds
    ann.fill("#chat-input", "now you hear me")
    ann.press("#chat-input", "Enter")
    bob.wait_for_function(f"() => ({SOUNDS})().includes('chat')")
    assert bob.evaluate("() => window.seadragons.sound.ctx.state") in ("running", "suspended")
    # A spectator's table and /tv are watch pages: sound off until switched on.
    watcher_ctx = browser.new_context(viewport=LAPTOP)
    watcher = watcher_ctx.new_page()
    watch_console(watcher, errors)
    watcher.goto(f"{url}/games/{gid}")
    watcher.wait_for_selector("#players .player")
    watcher.wait_for_function("() => window.seadragons.sound")
    assert watcher.get_attribute("#sound-btn", "aria-pressed") == "false"
    watcher.goto(f"{url}/tv")
    assert watcher.get_attribute("#sound-btn", "aria-pressed") == "false"
    watcher.click("#sound-btn")
    watcher.reload()
    assert watcher.get_attribute("#sound-btn", "aria-pressed") == "true"
    assert not errors, errors
    for ctx in (ann_ctx, bob_ctx, watcher_ctx):
        ctx.close()


def test_the_phone_lobby_puts_the_play_box_before_the_featured_game(
    browser: Any, server: str
) -> None:
    """At 390x844 the sign-in (the way to play) comes before the featured game's board, and the
    top bar is one line; in English and in Spanish."""
    url = server
    host_ctx, host = _guest(browser, url, "Ann", LAPTOP, "en")
    game = host.request.post(url + "/api/games", data={"players": 2}).json()
    gid = game["id"]
    assert host.request.post(f"{url}/api/games/{gid}/bots", data={"level": "random"}).ok
    assert host.request.post(f"{url}/api/games/{gid}/start").ok
    for lang in ("en", "es"):
        ctx = browser.new_context(
            viewport=PHONE,
            has_touch=True,
            is_mobile=True,
            locale="es-ES" if lang == "es" else "en-GB",
        )
        page = ctx.new_page()
        errors = watch_console(page)
        page.goto(url + "/")
        page.wait_for_selector("#featured:not([hidden]) canvas", timeout=20_000)
        page.wait_for_selector("#identity form")
        play, featured = page.evaluate(
            "() => ['#identity', '#featured'].map(s =>"
            " document.querySelector(s).getBoundingClientRect().top)"
        )
        assert play < featured, (play, featured)
        assert play < PHONE["height"]  # the Play box is on the first screen
        assert page.evaluate("() => document.querySelector('.topbar').offsetHeight") <= 48
        shot(page, f"alive-lobby-phone-{lang}", full_page=False)
        assert not errors, errors
        ctx.close()
    host_ctx.close()
