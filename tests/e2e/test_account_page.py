"""The account page in the browser, against the real server with a real SMTP server beside it:
what the notices box does is said as it is, and the password can be changed from the page."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller

from tests.e2e.conftest import app_process
from tests.e2e.helpers import shot, watch_console

# The app runs in a process of this module's own (app_process), with an SMTP server beside it.
pytestmark = [pytest.mark.e2e, pytest.mark.server]

PASSWORD, NEW = "sea dragons!", "deeper waters 2"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


class _Sink:
    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        return "250 OK"


@pytest.fixture(scope="module")
def mail_server(
    tmp_path_factory: pytest.TempPathFactory, migrated_sqlite_file: Path
) -> Iterator[str]:
    """The real app with an SMTP server to send through, for this module's tests (each makes
    its own account)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(_Sink(), hostname="127.0.0.1", port=port)
    controller.start()
    data = tmp_path_factory.mktemp("mail-app")
    try:
        with app_process(data, migrated_sqlite_file, SMTP_URL=f"smtp://127.0.0.1:{port}") as url:
            yield url
    finally:
        controller.stop()


def _account_page(browser: Any, url: str, username: str, **context: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    page.goto(url + "/")
    body = {"username": username, "password": PASSWORD}
    assert page.request.post(url + "/api/users", data=body).ok
    page.goto(url + "/account")
    page.wait_for_selector("#password-form")
    return ctx, page


@pytest.mark.parametrize(("size", "context"), [("desktop", {}), ("phone", PHONE)])
def test_the_notices_box_says_what_it_does(
    browser: Any, mail_server: str, size: str, context: dict[str, Any]
) -> None:
    ctx, page = _account_page(browser, mail_server, f"nessie_{size}", **context)
    errors = watch_console(page)
    page.wait_for_selector("#email-form")
    assert page.is_checked("#notices")
    page.wait_for_selector("#mail :text('no email goes out until you add an address')")
    page.uncheck("#notices")
    page.wait_for_selector("#mail :text('Off: no emails are sent to you')")
    page.fill("#email-form input[name=email]", "nessie@example.org")
    page.check("#notices")  # redraws the section: what is typed in the address stays
    page.wait_for_selector("#mail :text('until you add an address')")
    assert page.input_value("#email-form input[name=email]") == "nessie@example.org"
    page.click("#email-form button[type=submit]")
    page.wait_for_selector("#mail :text('is not confirmed yet')")
    page.wait_for_selector("#mail :text('until you confirm nessie@example.org')")
    shot(page, f"account-mail-{size}")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    panel = page.eval_on_selector("#account", "e => e.getBoundingClientRect().right")
    for field in ("#password-form button", "#new_password", "#email-form input"):
        right = page.eval_on_selector(field, "e => e.getBoundingClientRect().right")
        assert right <= panel, (field, right, panel)  # nothing sticks out of the panel
    assert not errors, errors
    ctx.close()


def test_the_password_is_changed_from_the_page(browser: Any, mail_server: str) -> None:
    ctx, page = _account_page(browser, mail_server, "morgawr")
    errors = watch_console(page)
    page.fill("#current_password", "not my password")
    page.fill("#new_password", NEW)
    page.fill("#repeat_password", NEW)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-result [role=alert]:text('not your current password')")
    # The browser logs the refused request itself (403 wrong_password); nothing else may be.
    assert len(errors) == 1 and "403" in errors[0], errors
    errors.clear()
    page.fill("#current_password", PASSWORD)
    page.fill("#new_password", NEW)
    page.fill("#repeat_password", NEW + "x")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-result :text('The two new passwords differ')")
    page.fill("#repeat_password", NEW)
    # Refreshing the email part (the box) keeps what is typed in the password form.
    page.uncheck("#notices")
    page.wait_for_selector("#mail :text('Off: no emails')")
    assert page.input_value("#new_password") == NEW
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-result :text('Password changed')")
    assert page.input_value("#current_password") == ""
    shot(page, "account-password")
    assert page.evaluate("async () => (await fetch('/api/me')).status") == 200
    fresh = httpx.post(
        mail_server + "/api/session/login", json={"username": "morgawr", "password": NEW}
    )
    assert fresh.status_code == 200
    assert not errors, errors
    ctx.close()
