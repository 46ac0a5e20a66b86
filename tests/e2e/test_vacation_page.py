"""Vacation days in the browser: started and ended from the account page, and shown at the
table ("On vacation until ...", the seat's time bank), in English and in Spanish."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import watch_console

pytestmark = [pytest.mark.e2e, pytest.mark.server]

PASSWORD = "sea dragons!"


def test_a_vacation_from_the_account_page_shows_at_the_table(
    browser: Any, real_server: str
) -> None:
    url = real_server
    ctx = browser.new_context()
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(url + "/")
    assert page.request.post(
        url + "/api/users", data={"username": "nessie", "password": PASSWORD}
    ).ok
    page.goto(url + "/account")
    page.wait_for_selector("#vacation-form")
    page.wait_for_selector("#vacation :text('Live games are not affected')")
    page.wait_for_selector("#vacation :text('30 of 30 days left')")
    page.fill("#vacation-days", "3")
    page.click("#vacation-form button[type=submit]")
    page.wait_for_selector("#vacation :text('You are on vacation until')")
    page.wait_for_selector("#vacation :text('27 of 30 days left')")

    spec = {"mode": "daily", "per_turn": 86400, "bank_cap": 3600}
    game = page.request.post(
        url + "/api/games", data={"players": 2, "first_player": 0, "clock": spec}
    ).json()
    gid = game["id"]
    assert page.request.post(f"{url}/api/games/{gid}/bots", data={"level": "random"}).ok
    assert page.request.post(f"{url}/api/games/{gid}/start").ok
    page.goto(f"{url}/games/{gid}")
    page.wait_for_selector(".clock-row[data-seat='0'] .clock-vacation:text('On vacation until')")
    page.wait_for_selector(".clock-row[data-seat='1'] .clock-bank:text('bank')")
    assert page.locator(".clock-row[data-seat='1'] .clock-vacation").count() == 0

    spanish = browser.new_context(locale="es-ES")
    watcher = spanish.new_page()
    watcher.goto(f"{url}/games/{gid}")
    watcher.wait_for_selector(
        ".clock-row[data-seat='0'] .clock-vacation:text('De vacaciones hasta el')"
    )
    watcher.wait_for_selector(".clock-row[data-seat='1'] .clock-bank:text('reserva')")
    spanish.close()

    page.goto(url + "/account")
    page.wait_for_selector("#vacation-end")
    page.click("#vacation-end")
    page.wait_for_selector("#vacation-form")
    page.wait_for_selector("#vacation :text('29 of 30 days left')")  # one day begun counts
    page.goto(f"{url}/games/{gid}")
    page.wait_for_selector(".clock-row[data-seat='0'] .clock-time")
    assert page.locator(".clock-vacation").count() == 0
    assert not errors, errors
    ctx.close()
