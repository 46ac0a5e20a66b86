"""The browser tests share contexts and pages (tests/e2e/contexts.py): one handed out again has
nothing of the test before it (cookies, local and session storage, listeners, routes,
permissions, the page it showed), and one a test changed for good is never handed out again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import conftest as e2e_conftest
from tests.e2e.contexts import ContextPool

pytestmark = pytest.mark.e2e

LEFT_BEHIND = """() => ({
  local: localStorage.getItem("left"),
  session: sessionStorage.getItem("left"),
  cookie: document.cookie,
})"""
# Asked of the Permissions API: the headless shell's Notification.permission stays "denied"
# whatever is granted (it shows no notifications), where the API says what the context holds.
PERMISSION = "async () => (await navigator.permissions.query({name: 'notifications'})).state"


def _leave_traces(page: Any, url: str) -> list[str]:
    """What a careless test leaves: stored data, a cookie, a listener and a route."""
    heard: list[str] = []
    page.on("console", lambda m: heard.append(m.text))
    page.route("**/rules", lambda route: route.fulfill(status=418, body="routed"))
    page.goto(url + "/static/css/app.css")
    page.evaluate(
        """() => { localStorage.setItem("left", "1"); sessionStorage.setItem("left", "1");
                   document.cookie = "left=1; path=/"; }"""
    )
    page.context.grant_permissions(["notifications"], origin=url)
    assert page.evaluate(LEFT_BEHIND) == {"local": "1", "session": "1", "cookie": "left=1"}
    assert page.evaluate(PERMISSION) == "granted"
    return heard


def test_a_context_handed_out_again_is_as_good_as_new(browser: ContextPool, stub_url: str) -> None:
    options = {"viewport": {"width": 800, "height": 600}, "locale": "es-ES"}
    first = browser.new_context(**options)
    page = first.new_page()
    real_page = page._real
    heard = _leave_traces(page, stub_url)
    first.close()

    made = browser.made
    second = browser.new_context(**options)
    again = second.new_page()
    assert browser.made == made, "a context with the same options is reused"
    assert again._real is real_page, "and so is its page"
    assert again.url == "about:blank"
    assert second.cookies() == []
    again.goto(stub_url + "/static/css/app.css")
    assert again.evaluate(LEFT_BEHIND) == {"local": None, "session": None, "cookie": ""}
    assert again.evaluate(PERMISSION) == "prompt"
    before = len(heard)
    again.evaluate("() => console.log('said after')")
    assert len(heard) == before, "the last test's listener is off"
    assert again.goto(stub_url + "/rules").status == 200, "the last test's route is off"
    assert again.evaluate("() => navigator.language") == "es-ES"
    second.close()


def test_a_context_or_page_changed_for_good_is_not_handed_out_again(
    browser: ContextPool, stub_url: str
) -> None:
    options = {"viewport": {"width": 640, "height": 480}}
    scripted = browser.new_context(**options)
    scripted.add_init_script("window.leftOver = 1")
    scripted.new_page().goto(stub_url + "/static/css/app.css")
    scripted.close()

    made = browser.made
    fresh = browser.new_context(**options)
    assert browser.made == made + 1, "the context with an init script was not reused"
    page = fresh.new_page()
    page.goto(stub_url + "/static/css/app.css")
    assert page.evaluate("() => window.leftOver") is None
    page.set_viewport_size({"width": 300, "height": 300})
    real_page = page._real
    fresh.close()

    again = browser.new_context(**options)
    assert again.new_page()._real is not real_page, "a page resized is not reused"
    again.close()

    own = browser.new_context(service_workers="block")
    assert not hasattr(own, "_pool"), "options the pool does not know: a context of its own"
    own.close()


def test_a_failed_tests_open_pages_are_saved(
    browser: ContextPool, stub_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = browser.new_context(viewport={"width": 500, "height": 400})
    done.new_page().goto(stub_url + "/rules")
    done.close()  # handed back: not this test's any more
    held = browser.new_page(viewport={"width": 500, "height": 400})
    held.goto(stub_url + "/rules")
    own = browser.new_context(service_workers="block").new_page()
    own.goto(stub_url + "/static/css/app.css")
    pages = browser.open_pages()
    assert sorted(p.url for p in pages) == sorted([held.url, own.url])

    monkeypatch.setattr(e2e_conftest, "ARTIFACTS", tmp_path)
    saved = e2e_conftest.save_failed_pages(pages, "test_x[sqlite-a/b]")
    assert [p.name for p in saved] == [
        "failed-test_x-sqlite-a-b--1.png",
        "failed-test_x-sqlite-a-b--2.png",
    ]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in saved)
