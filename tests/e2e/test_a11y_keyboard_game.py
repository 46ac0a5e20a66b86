"""A whole game played with the keyboard alone, reading only the accessible tree: a guest on the
real server (uvicorn, temp SQLite, the server's own bot runner) against a random bot, 2 players,
with the page in English and in Spanish (the browser's Accept-Language).

No mouse event reaches the page and nothing of the page's script state is read: the test reads
roles, names, states (aria-busy, disabled, pressed) and live regions (Playwright's get_by_role
and aria snapshots) and presses keys. Every text it looks for is the language's own catalogue
entry (static/i18n/*.json, and the templates' gettext catalogue), never a guess at a wording.
Controls are reached with Tab or the table's own keys (D: the decisions, B: the board, 1-9 a
card, N next legal spot, R/F turn, H head, Enter fix and place). On the way it checks that
- the ghost's status line reads the engine's outcome (cost, Gold) before placing;
- every move is announced in the live log region, built from the server's log frames (the
  player's own placement with its squares, the bot's by its name);
- the text board says "your Dragon" on exactly the squares the announcement named;
- the clock's extra time is asked for by keyboard once, and the button then goes;
- the final scores and realm majorities are tables with named column headers.

After each action the test waits for the decision panel to change and then for it not to be
busy (aria-busy, set while an action waits for the server's answer): a panel read before that
still offers the turn that was just played, and keys pressed then act on it. Two tests on the
stub server pin what the game relies on: the panel is busy exactly until the answer, and its
"pick a card" line comes back on each placing turn (it once stayed away after a turn of the
bot's, so the game passed instead of placing)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ROOT
from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

COLUMNS = "ABCDEFGHIJKLMNO"
# An aria snapshot line of a button; YAML quotes the whole line when the name has a colon.
BUTTON = re.compile(r'^\s*- \'?button "((?:[^"\\]|\\.)*)"(.*)$', re.M)
SQUARE = r"[A-O]\d+"
NAME = "Nessie"
# The keys help of the table and the tutorials (templates/partials/board_bar.html).
KEYS_HELP = (
    "1/2 pick a card · arrows move · R rotate · F mirror · N next legal spot · Enter fix, then"
    " Enter place · H next head square · Esc back · M majorities on the board · D to the"
    " decisions · B to the board · Tab through buttons"
)


class Words:
    """The page's texts in one language: the client's catalogue (static/i18n/<lang>.json) and
    the templates' (app/i18n/locale), worded as the client words them (`{name}` places)."""

    def __init__(self, lang: str) -> None:
        from app.i18n.catalogs import translations

        self.lang = lang
        self.cat = json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text())
        self.po = translations(lang).gettext

    def t(self, key: str, **params: Any) -> str:
        return re.sub(
            r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), self.cat[key]
        )

    def pattern(self, key: str, **parts: str) -> str:
        """The regex of a catalogue text: its words as they are, each `{name}` the regex
        `parts[name]` (any text when not given)."""
        out = []
        for piece in re.split(r"(\{\w+\})", self.cat[key]):
            name = piece[1:-1] if re.fullmatch(r"\{\w+\}", piece) else None
            out.append(f"(?:{parts.get(name, '.+?')})" if name else re.escape(piece))
        return "".join(out)

    def squares(self) -> str:
        """Squares in reading order as the page says them: "D7, D8 and E8"."""
        return f"{SQUARE}(?:, {SQUARE})*(?:{re.escape(self.t('speech.and'))}{SQUARE})?"

    def placed(self, who: str) -> str:
        """How another player's placement announcement starts (`who`: their name)."""
        return self.t("log.placed").split("{card}")[0].replace("{who}", who)

    def mine(self) -> str:
        """How my own placement's announcement starts: the viewer's own form (`_mine`)."""
        return self.t("log.placed_mine").split("{card}")[0]


def focused_name(page: Any) -> str:
    """The accessible name of the focused control, from its aria snapshot."""
    focus = page.locator(":focus")
    if not focus.count():
        return ""  # nothing focused yet (the page itself)
    snap = focus.first.aria_snapshot()
    m = re.match(r'\s*- \'?\w+ "((?:[^"\\]|\\.)*)"', snap)
    return m.group(1) if m else snap


def tab_to(page: Any, pattern: str, limit: int = 200, start: str | None = None) -> str:
    """Press Tab (after the key `start`, if any) until the focused control's name matches."""
    if start:
        page.keyboard.press(start)
    for _ in range(limit):
        name = focused_name(page)
        if re.search(pattern, name):
            return name
        page.keyboard.press("Tab")
    raise AssertionError(f"no control named like {pattern!r} within {limit} Tabs")


def buttons(region: Any) -> list[tuple[str, bool, bool]]:
    """(name, enabled, pressed) of every button in a region, in reading order."""
    out = []
    for m in BUTTON.finditer(region.aria_snapshot()):
        flags = m.group(2)
        out.append((m.group(1), "[disabled]" not in flags, "[pressed]" in flags))
    return out


def said(log: Any) -> list[str]:
    """The lines of the live log region (what a screen reader was told happened)."""
    return [t.strip() for t in log.locator("p").all_inner_texts()]


# What the decision panel tells a screen reader, as one string: its busy state, its text and
# each button's enabled and pressed states. It changes with every key's effect on the panel.
PANEL = """el => [el.getAttribute('aria-busy'), el.innerText,
  ...[...el.querySelectorAll('button')].map(b => `${b.disabled}${b.getAttribute('aria-pressed')}`)
].join('|')"""


def answered(page: Any, decisions: Any, before: str) -> None:
    """Wait for the panel to change from `before` (the key took effect), then for it not to be
    busy (the server's answer, when the key sent an action, is shown)."""
    handle = decisions.element_handle()
    page.wait_for_function(
        f"([el, old]) => ({PANEL})(el) !== old", arg=[handle, before], timeout=20000
    )
    page.wait_for_function(
        "el => el.getAttribute('aria-busy') !== 'true'", arg=handle, timeout=20000
    )


def place_by_keyboard(page: Any, w: Words, decisions: Any, report: dict[str, Any]) -> None:
    """Choose a card, move the ghost to a legal spot, hear its outcome, fix it, place it."""
    ghost = page.get_by_role("status", name=w.po("The Dragon you are placing"))
    hand = page.get_by_role("region", name=w.po("My hand"))
    log = page.get_by_role("log", name=w.po("What happened"))
    # The Pattern cards (S.., M.., L..): the hand also lists Reef and Gold cards.
    cards = [n.split()[0] for n, _, _ in buttons(hand) if re.match(r"[SML]\d+\b", n)]
    # The title names the card and how many legal spots it has (the whole title: the card's
    # name alone is an element of its own).
    count = "|".join(
        w.pattern(f"actions.legal_spots.{form}", n=r"(\d+)") for form in ("one", "other")
    )
    page.keyboard.press("b")  # to the board
    chosen = None
    for i, card in enumerate(cards):
        page.keyboard.press(str(i + 1))
        title = re.compile("^" + re.escape(w.t("actions.placing", card=card)) + f" · (?:{count})$")
        found = decisions.get_by_text(title)
        found.wait_for()
        spots = int(next(n for n in title.search(found.inner_text()).groups() if n is not None))
        if spots > 0:
            chosen = card
            break
    # The panel offered a placement, so one card has a legal spot.
    assert chosen, (cards, decisions.inner_text(), report)
    page.keyboard.press("r")  # rotate and mirror: the next legal spot keeps to the listed ones
    page.keyboard.press("f")
    page.keyboard.press("ArrowDown")
    # The engine's outcome of exactly the ghost's squares, read before deciding.
    outcome = f"{w.pattern('outcomes.cost')}|{re.escape(w.t('outcomes.no_cost'))}"
    legal = "^" + w.pattern("speech.ghost_at", card=re.escape(chosen), squares=w.squares())
    legal += f" {re.escape(w.t('speech.legal'))} (?:{outcome})"
    free = f" {re.escape(w.t('speech.legal'))} {re.escape(w.t('outcomes.no_cost'))}"
    heard = ""
    # N, the next legal spot, a few times until one costs nothing (so the game goes on with
    # Gold for more placements): each spot is a listed one, with the engine's outcome.
    for _ in range(min(spots, 6)):
        page.keyboard.press("n")
        if heard:
            expect(ghost).not_to_have_text(heard)  # another spot
        expect(ghost).to_have_text(re.compile(legal), timeout=30000)
        heard = ghost.inner_text()
        if re.search(free, heard):
            break
    report.setdefault("ghost", []).append(heard)
    before = said(log)  # the region keeps its last lines only: new ones are told by their text
    page.keyboard.press("Enter")  # fix it
    fixed = w.pattern("speech.locked", head=SQUARE)
    expect(ghost).to_have_text(re.compile(fixed), timeout=10000)
    page.keyboard.press("h")
    page.keyboard.press("Enter")  # place it
    page.wait_for_function(
        """([el, start, old]) => [...el.querySelectorAll('p')].map(p => p.textContent.trim())
             .some(t => t.startsWith(start) && !old.includes(t))""",
        arg=[log.element_handle(), w.mine(), before],
        timeout=20000,
    )
    mine = next(t for t in said(log) if t.startswith(w.mine()) and t not in before)
    report.setdefault("placed", []).append(mine)
    covers = re.search(
        w.pattern("speech.placed_on", squares=f"({w.squares()})", head=f"({SQUARE})") + "$", mine
    )
    assert covers, mine
    squares, head = re.findall(SQUARE, covers.group(1)), covers.group(2)
    # The text board, kept in sync with the canvas: those squares are mine now, the head where
    # the announcement said.
    table = page.get_by_role("table", name=re.compile("^" + w.pattern("speech.caption")))
    for sq in squares:
        words = w.t("speech.head_mine" if sq == head else "speech.dragon_mine")
        expect(table.locator(f"td[data-square='{sq}']")).to_have_text(
            re.compile(f"^{re.escape(words)}")
        )


def other_decision(page: Any, w: Words, decisions: Any, report: dict[str, Any]) -> None:
    """Every other decision through the decision panel's controls, by D, Tab and Enter."""
    offered = buttons(decisions)
    live = [(n, pressed) for n, on, pressed in offered if on]
    names = [n for n, _ in live]
    report.setdefault("decisions", []).append(names[:6])
    passing = decisions.get_by_role("group", name=w.t("decide.pass"), exact=True)
    complete = w.pattern("decide.complete", mission=r"M\w+")
    confirm = next((n for n in names if re.fullmatch(complete, n)), None)
    if passing.count():
        # The pass as two choices: a card to discard (a hand card, or nothing), then a draw.
        hand = {n for n, _, _ in buttons(page.get_by_role("region", name=w.po("My hand")))}
        hand.add(w.t("cards.nothing"))
        parts = buttons(passing)
        send = next((n for n, on, _ in parts if n.startswith(w.t("decide.pass")) and on), None)
        discards = [(n, p) for n, on, p in parts if on and n in hand]
        draws = [
            n
            for n, on, _ in parts
            if on
            and n not in hand
            and n != w.t("actions.cancel")
            and not n.startswith(w.t("decide.pass"))
        ]
        if send:
            target = send
        elif not any(p for _, p in discards):
            target = discards[0][0]
        else:
            target = draws[0]
        tab_to(page, "^" + re.escape(target) + "$", start="d")
    elif confirm:
        tab_to(page, "^" + re.escape(confirm) + "$", start="d")
    else:
        keys = ("actions.cancel", "actions.undo", "actions.hand_over", "actions.step_away")
        skip = "|".join(re.escape(w.t(k)) for k in keys)
        name = tab_to(page, f"^(?!(?:{skip})$).+", start="d")
        report.setdefault("pressed", []).append(name)
    page.keyboard.press("Enter")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_whole_game_by_keyboard_and_screen_reader(
    browser: Any, real_server: str, lang: str
) -> None:
    url = real_server
    w = Words(lang)
    ctx = browser.new_context(locale=lang, viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(url + "/")
    assert page.get_attribute("html", "lang") == lang
    # Sign in as a guest by keyboard: the name field, typed, Enter. ("Play now" below it has a
    # name field of its own for a guest; the sign-in's comes first in the tab order.)
    page.locator("#identity").get_by_role("textbox", name=w.t("join.your_name")).wait_for()
    tab_to(page, "^" + re.escape(w.t("join.your_name")) + "$", limit=40)
    page.keyboard.type(NAME)
    page.keyboard.press("Enter")
    page.get_by_role("heading", name=re.compile(NAME)).wait_for()
    # The table (2 players, a random bot, a daily clock with an hour's extra time on request)
    # through the API with the page's own session: the test is about playing it.
    cookies = {c["name"]: c["value"] for c in ctx.cookies()}
    api = httpx.Client(base_url=url, cookies=cookies, headers={"Origin": url}, timeout=20)
    clock = {"mode": "daily", "per_turn": 86400, "extension": 3600}
    game = api.post("/api/games", json={"players": 2, "first_player": 0, "clock": clock}).json()
    gid = game["id"]
    assert api.post(f"/api/games/{gid}/bots", json={"level": "random"}).status_code == 200
    assert api.post(f"/api/games/{gid}/start").status_code == 200
    page.goto(f"{url}/games/{gid}")
    decisions = page.get_by_role("region", name=w.po("Your decisions"))
    decisions.wait_for()
    caption = re.compile("^" + w.pattern("speech.caption"))
    page.get_by_role("table", name=caption).wait_for(state="attached")

    # The clock's extra time, by keyboard: offered on my turn, once.
    extend = w.t("clock.extend", time=w.t("clock.setting_hours", n=1))
    page.get_by_role("button", name=extend).wait_for()
    tab_to(page, "^" + re.escape(extend) + "$")
    page.keyboard.press("Enter")
    page.get_by_role("region", name=w.po("Clock")).get_by_role("status").filter(
        has_text=w.t("clock.granted", time=w.t("clock.setting_hours", n=1))
    ).wait_for()
    page.get_by_role("button", name=extend).wait_for(state="hidden")
    state = api.get(f"/api/games/{gid}/state").json()["clock"]
    assert state["extended"] == state["turn"] == 1

    report: dict[str, Any] = {}
    log = page.get_by_role("log", name=w.po("What happened"))
    final = page.get_by_role("heading", name=w.t("scores.title"))
    # My turn, its answer shown: the panel is not busy, says so and offers a control or a
    # card to pick (the bot's turn and my last action's wait never match).
    ready = (
        decisions.and_(page.locator("[aria-busy=false]"))
        .filter(has_text=w.t("actions.your_turn"))
        .filter(
            has=page.get_by_role("button", disabled=False).or_(
                page.get_by_text(w.t("actions.pick_card_click"))
            )
        )
    )
    deadline = time.monotonic() + 480
    turns = 0
    heard: set[str] = set()  # every line the live region held, over the game
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"the game did not end in time: {report}"
        final.or_(ready).first.wait_for(timeout=left * 1000)
        heard.update(said(log))
        if final.is_visible():
            break
        before = page.evaluate(PANEL, decisions.element_handle())
        if w.t("actions.pick_card_click") in decisions.inner_text():
            place_by_keyboard(page, w, decisions, report)
            turns += 1
        else:
            other_decision(page, w, decisions, report)
        answered(page, decisions, before)
    # A seat with a head and Gold nearly always has a placement (the engine lists them): most
    # turns are placed, a few passed.
    assert turns >= 3, report
    shot(page, f"a11y-keyboard-game-over-{lang}", full_page=False)
    (ROOT / "test-artifacts" / f"a11y-keyboard-game-{lang}.json").write_text(json.dumps(report))

    # Every move was announced: mine and the bot's, by name, from the server's log frames.
    heard.update(said(log))
    seats = api.get(f"/api/games/{gid}").json()["seats"]
    bot = next(s["bot_name"] for s in seats if s["bot_level"])
    covers = w.pattern("speech.placed_on")
    assert any(t.startswith(w.placed(bot)) and re.search(covers, t) for t in heard), heard
    assert any(t.startswith(w.mine()) for t in heard), heard
    assert w.t("log.game_over") in heard, heard
    # Scores and realm majorities as tables with named headers.
    category = w.t("scores.category")
    scores = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name=category))
    assert scores.count() == 1
    heads = [h.strip() for h in scores.get_by_role("columnheader").all_inner_texts()]
    assert heads[0] == category and any(NAME in h for h in heads) and any(bot in h for h in heads)
    realms = page.get_by_role("region", name=w.po("Realm majorities")).get_by_role("table")
    assert realms.get_by_role("rowheader").count() == 4
    assert not errors, errors
    print(f"\nkeyboard game ({lang}): {turns} placements, {len(report.get('decisions', []))} other")
    print("heard before placing:", report["ghost"][0])
    print("announced:", report["placed"][0])
    print("the bot:", next(t for t in heard if t.startswith(w.placed(bot))))
    api.close()
    ctx.close()


def test_the_decision_panel_is_busy_until_the_server_answers(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """A placement sent by keyboard: until the server's answer is shown the decision panel is
    aria-busy and its buttons wait (what it shows is the turn just played); then it is not.
    The stub answers only when the test lets the request through."""
    import random

    from tests.e2e.stub_server import Table

    t = Table(4, 7)
    t.advance(40, random.Random(7))
    stub_tables[1] = t
    played = len(t.actions)
    w = Words("en")
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors = watch_console(page)
    held: list[Any] = []
    page.route("**/api/games/1/actions", lambda route: held.append(route))
    page.goto(f"{stub_url}/games/1")
    decisions = page.get_by_role("region", name=w.po("Your decisions"))
    expect(decisions.get_by_text(w.t("actions.pick_card_click"))).to_be_visible()
    expect(decisions).to_have_attribute("aria-busy", "false")
    ghost = page.get_by_role("status", name=w.po("The Dragon you are placing"))
    for key in ("b", "1", "n"):
        page.keyboard.press(key)
    expect(ghost).to_contain_text(w.t("speech.legal"))
    page.keyboard.press("Enter")  # fix it
    expect(ghost).to_have_text(re.compile(w.pattern("speech.locked", head=SQUARE)))
    with page.expect_request(lambda r: r.url.endswith("/api/games/1/actions")):
        page.keyboard.press("Enter")  # place it
    expect(decisions).to_have_attribute("aria-busy", "true")
    place = decisions.get_by_role("button", name=w.t("actions.confirm"))
    expect(place).to_be_disabled()
    assert len(held) == 1 and len(t.actions) == played  # nothing reached the server yet
    held[0].continue_()
    expect(decisions).to_have_attribute("aria-busy", "false")
    assert len(t.actions) == played + 1 and t.actions[-1][1]["type"] == "place"
    assert not errors, errors
    page.close()


def test_the_pick_a_card_line_comes_back_on_the_next_placing_turn(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """A document that brings placements after one without any, with no action of the page's
    in between (the other seat's move, as a bot's on the real server): the decision panel says
    again to pick a card, the line the keyboard game waits for."""
    from tests.e2e.stub_server import Table

    t = Table.find(2, lambda s, acts: bool(acts) and all(a["type"] == "draw" for a in acts))
    stub_tables[1] = t
    w = Words("en")
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    decisions = page.get_by_role("region", name=w.po("Your decisions"))
    pick = decisions.get_by_text(w.t("actions.pick_card_click"))
    decisions.get_by_role("button").first.wait_for()
    version = page.evaluate("() => window.seadragons.state.version")
    expect(pick).to_have_count(0)  # a draw to choose: nothing to place
    # The draw made outside the page; its next poll reads the next seat's placement.
    from app.engine import legal_actions, to_act

    seat = to_act(t.state)
    t.act(seat, legal_actions(t.state, seat)[0])
    assert any(a["type"] == "place" for a in legal_actions(t.state, to_act(t.state)))
    page.wait_for_function("v => window.seadragons.state.version > v", arg=version)
    expect(pick).to_be_visible()
    assert not errors, errors
    page.close()


def test_the_tutorial_takes_the_tables_keys(browser: Any, real_server: str) -> None:
    """The tutorial's table has the game's keys (one copy, ui/placementkeys.mjs) and says so in
    its keys help: a card by its number, N onto a listed spot, D to the decisions, B back to
    the board."""
    from app.tutorial.lessons import LESSONS

    w = Words("en")
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors = watch_console(page)
    page.goto(f"{real_server}/learn?lesson={next(iter(LESSONS))}")
    decisions = page.get_by_role("region", name=w.po("Your decisions"))
    expect(decisions.get_by_text(w.t("actions.pick_card_click"))).to_be_visible(timeout=20000)
    # The keys help, hidden until Keys shows it: the game page's words, D and B included.
    help_ = " ".join(page.locator("#keys").text_content().split())
    assert help_.endswith(w.po(KEYS_HELP)), help_
    page.keyboard.press("1")
    expect(decisions.get_by_text(re.compile("^" + w.pattern("actions.placing")))).to_be_visible()
    page.keyboard.press("n")
    status = decisions.get_by_role("status")
    expect(status).to_have_text(re.compile("^" + re.escape(w.t("actions.legal_click"))))
    page.keyboard.press("d")
    expect(decisions.locator(":focus")).to_have_count(1)
    page.keyboard.press("b")
    expect(page.locator("#board")).to_be_focused()
    assert not errors, errors
    page.close()
