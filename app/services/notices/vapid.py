"""The server's VAPID key (RFC 8292): it signs every push, and browsers subscribe to it.

Given by SEADRAGONS_VAPID_PRIVATE_KEY (a PEM, or the raw key in base64url), else generated once
into the data directory beside the secret key, so subscriptions survive restarts: a new key
would orphan every subscription made with the old one.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

from app.settings import Settings

KEY_FILE = "vapid_private_key.pem"


@dataclass(frozen=True)
class VapidKeys:
    """The signing key and what the browsers need of it."""

    signer: Vapid02
    # The public key as an uncompressed P-256 point, base64url without padding: the
    # `applicationServerKey` a browser subscribes with.
    public_key: str
    subject: str


def _load(text: str) -> Vapid02:
    text = text.strip()
    if text.startswith("-----BEGIN"):
        return Vapid02.from_pem(text.encode())
    return Vapid02.from_string(private_key=text)


def _public_b64(signer: Vapid02) -> str:
    raw = signer.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def vapid_keys(settings: Settings) -> VapidKeys:
    """The configured key, or the data directory's (created with mode 0600 on first use)."""
    if settings.vapid_private_key:
        signer = _load(settings.vapid_private_key)
    else:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        path = settings.data_dir / KEY_FILE
        text = path.read_text() if path.exists() else ""
        if text.strip():
            signer = _load(text)
        else:
            signer = Vapid02()
            signer.generate_keys()
            # Whoever reads it can push to every subscribed browser in the server's name.
            path.touch(mode=0o600, exist_ok=True)
            path.write_bytes(signer.private_pem())
    public = settings.public_url or ""
    # Push services accept only a mailto: or https: contact (RFC 8292 section 2.1).
    subject = settings.vapid_subject or (
        public if public.startswith("https://") else "mailto:admin@localhost"
    )
    return VapidKeys(signer, _public_b64(signer), subject)
