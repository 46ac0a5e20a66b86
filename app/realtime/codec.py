"""Bus messages, typed both ways: what instances tell each other about games and sessions.

Every message travels in an envelope naming the instance that sent it, first, so an instance
recognises its own messages by their first bytes and drops them before decoding anything (it has
delivered them locally already: local delivery comes first, then the bus). Anything unreadable
decodes to None and is dropped with a warning: messages are hints, the database is the truth.

    {"from": "3f2a...", "kind": "changed", "game_id": 7, "version": 12, "move": {...} | null}
    {"from": ..., "kind": "chat", "message": {id, user_id, name, seat, text, at}}
    {"from": ..., "kind": "presence", "seats": {"0": 1}, "spectators": 2, "hello": false}
    {"from": ..., "kind": "revoked", "sessions": [sha256, ...]}
    {"kind": "reconnected"}   (from the bus itself, after its subscription came back; or from
                               an instance whose publishing on the channel failed, once it works)
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import orjson

from app.realtime.bus import RECONNECTED

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MoveNotice:
    """A committed move, enough for an instance one version behind to replay it (the engine
    is deterministic) instead of reading the game back."""

    seat: int
    action: dict[str, Any]  # canonical
    bots: tuple[str | None, ...]
    clock: dict[str, Any]
    timeout: bool
    at: str | None


@dataclass(frozen=True)
class Changed:
    """Game `game_id` is at `version` (with the move that made it, if it was a move)."""

    game_id: int
    version: int
    move: MoveNotice | None = None


@dataclass(frozen=True)
class ChatLine:
    """A stored chat line, as clients receive it."""

    message: dict[str, Any]


@dataclass(frozen=True)
class Presence:
    """One instance's counts of a game's sockets; `hello`: please answer with yours."""

    seats: dict[int, int]
    spectators: int
    hello: bool = False


@dataclass(frozen=True)
class Revoked:
    """These sessions ended (sign-out, sign-in elsewhere): close their sockets."""

    sessions: tuple[str, ...]


@dataclass(frozen=True)
class Reconnected:
    """The bus lost its subscription and has it again: messages may have been missed."""


BusMessage = Changed | ChatLine | Presence | Revoked | Reconnected


@dataclass(frozen=True)
class Received:
    """A decoded message and the instance that sent it (None: the bus itself)."""

    origin: str | None
    message: BusMessage


class Codec:
    """Encodes this instance's messages and decodes the others'."""

    def __init__(self, instance: str) -> None:
        self.instance = instance
        self._own = f'{{"from":{json.dumps(instance)},'

    def encode(self, message: BusMessage) -> str:
        """The message's text, in an envelope naming this instance."""
        body: dict[str, Any]
        if isinstance(message, Changed):
            move = message.move
            body = {
                "kind": "changed",
                "game_id": message.game_id,
                "version": message.version,
                "move": None
                if move is None
                else {
                    "seat": move.seat,
                    "action": move.action,
                    "bots": list(move.bots),
                    "clock": move.clock,
                    "timeout": move.timeout,
                    "at": move.at,
                },
            }
        elif isinstance(message, ChatLine):
            body = {"kind": "chat", "message": message.message}
        elif isinstance(message, Presence):
            body = {
                "kind": "presence",
                "seats": {str(k): v for k, v in message.seats.items()},
                "spectators": message.spectators,
                "hello": message.hello,
            }
        elif isinstance(message, Revoked):
            body = {"kind": "revoked", "sessions": list(message.sessions)}
        else:
            return RECONNECTED
        return orjson.dumps({"from": self.instance, **body}).decode()

    def is_own(self, text: str) -> bool:
        """Whether this instance sent `text` (told from its first bytes, nothing decoded)."""
        return text.startswith(self._own)

    def decode(self, text: str) -> Received | None:
        """Another instance's message (or the bus's own), typed; None for our own or junk."""
        if self.is_own(text):
            return None
        try:
            data = orjson.loads(text)
            kind = data["kind"]
            origin = data.get("from")
            if origin is not None and not isinstance(origin, str):
                raise TypeError("origin")
            return Received(origin, _decode(kind, data))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("unreadable bus message (%s): %.80s", exc, text)
            return None


def _decode(kind: str, data: dict[str, Any]) -> BusMessage:
    if kind == "changed":
        move = data.get("move")
        notice = None
        if move is not None:
            notice = MoveNotice(
                _int(move["seat"]),
                _dict(move["action"]),
                tuple(_level(b) for b in move["bots"]),
                _dict(move.get("clock") or {"mode": "none"}),
                bool(move.get("timeout")),
                move.get("at") if isinstance(move.get("at"), str) else None,
            )
        return Changed(_int(data["game_id"]), _int(data["version"]), notice)
    if kind == "chat":
        return ChatLine(_dict(data["message"]))
    if kind == "presence":
        seats = {int(k): _int(v) for k, v in _dict(data.get("seats", {})).items()}
        return Presence(seats, _int(data.get("spectators", 0)), bool(data.get("hello")))
    if kind == "revoked":
        return Revoked(tuple(str(h) for h in data["sessions"]))
    if kind == "reconnected":
        return Reconnected()
    raise ValueError(f"unknown kind {kind!r}")


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("not an integer")
    return value


def _dict(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("not an object")
    return value


def _level(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError("not a bot level")
    return value
