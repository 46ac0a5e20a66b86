"""Emails are written in the account's language (English if it never chose one)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.notices import OutboxEmail
from app.services.notices.compose import compose

SETTINGS = SimpleNamespace(
    public_url="https://sd.example", smtp_from="sd@example.org", email_verify_hours=48
)


def _verify_mail(db: Session, user: User):
    user.email = "reader@example.org"
    row = OutboxEmail(kind="verify", user_id=user.id)
    db.add(row)
    db.commit()
    return compose(db, row, SETTINGS, "secret")


def test_a_spanish_account_reads_its_email_in_spanish(
    db: Session, make_user: Callable[[str], User]
) -> None:
    user = make_user("Lucía")
    user.language = "es"
    msg = _verify_mail(db, user)
    assert msg["Subject"] == "Confirma tu dirección de correo · Sea Dragons Online"
    body = msg.get_content()
    assert body.startswith("Hola, Lucía:")
    assert "https://sd.example/account/verify?token=" in body
    assert "48 horas" in body


def test_an_account_without_a_choice_reads_english(
    db: Session, make_user: Callable[[str], User]
) -> None:
    msg = _verify_mail(db, make_user("Ann"))
    assert msg["Subject"] == "Confirm your email address · Sea Dragons Online"
    assert msg.get_content().startswith("Hello Ann,")
