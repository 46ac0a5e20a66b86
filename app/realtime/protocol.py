"""The socket protocol: client messages parsed once at the edge, server frames built as JSON text.

Client input never raises: `parse_client` returns either a typed message or a `ProtocolError`
value, which the endpoint turns into an `error` frame (the socket stays usable). See
docs/protocol.md for every frame with examples.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)
from pydantic.functional_validators import PlainValidator
from pydantic_core import PydanticCustomError

from app.i18n import translate, translate_reason
from app.metrics import count_error
from app.services.tables.chat import CHAT_MAX_CHARS

# A frame larger than this is refused before any parsing (an `error` frame, the socket stays).
MAX_FRAME_BYTES = 16 * 1024
# Larger than this is not a mistake but abuse: the socket is closed (1009, "message too big").
ABSURD_FRAME_BYTES = 256 * 1024

# Close codes (RFC 6455 section 7.4.1).
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008  # bad origin, no access, flooding
CLOSE_TOO_BIG = 1009
CLOSE_INTERNAL = 1011
CLOSE_RESTARTING = 1012  # the server is restarting (or shutting down): reconnect at once
CLOSE_TRY_AGAIN = 1013  # this socket fell too far behind: reconnect and resync

# An action's id is echoed in its answer, so it must be one the server can write back: a
# string of at most 64 characters, or an integer in the signed 64-bit range (what orjson, which
# writes the frames, can encode, and what most clients' JSON readers hold as an integer).
ACTION_ID_MAX_CHARS = 64
ACTION_ID_MIN = -(2**63)
ACTION_ID_MAX = 2**63 - 1


def readable_id(value: object) -> str | int | None:
    """A frame's `id` if an answer may echo it (within the bounds above), else None."""
    if isinstance(value, str):
        return value if 0 < len(value) <= ACTION_ID_MAX_CHARS else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value if ACTION_ID_MIN <= value <= ACTION_ID_MAX else None
    return None


def _action_id(value: object) -> str | int:
    checked = readable_id(value)
    if checked is None:
        raise PydanticCustomError(
            "action_id",
            "an id is a string of 1 to {chars} characters or an integer from {low} to {high}",
            {"chars": ACTION_ID_MAX_CHARS, "low": ACTION_ID_MIN, "high": ACTION_ID_MAX},
        )
    return checked


ActionId = Annotated[str | int, PlainValidator(_action_id)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ActionMsg(_Message):
    """Play `action` (one of `legal_actions`) against `version`; answered by ack or error."""

    type: Literal["action"]
    id: ActionId
    version: StrictInt = Field(ge=0)
    action: dict[str, Any]


class ResyncMsg(_Message):
    """The client holds the document at `version`; send what it missed (patches or a state)."""

    type: Literal["resync"]
    version: StrictInt = Field(ge=-1)


class ChatMsg(_Message):
    """A chat line for everyone watching the game."""

    type: Literal["chat"]
    # Trimmed and checked again by app.services.tables.chat.
    text: StrictStr = Field(max_length=CHAT_MAX_CHARS * 2)


class PingMsg(_Message):
    """Application-level keepalive; answered by `pong` (frames are answered in order)."""

    type: Literal["ping"]


ClientMessage = Annotated[ActionMsg | ResyncMsg | ChatMsg | PingMsg, Field(discriminator="type")]
_client_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES = frozenset({"action", "resync", "chat", "ping"})


@dataclass(frozen=True)
class ProtocolError:
    """Input we refuse; `close` set means the socket is closed with that code after the reply."""

    code: str
    message: str
    id: str | int | None = None
    close: int | None = None


def frame_size(data: str | bytes) -> int:
    """The size of a frame in bytes, computed without encoding it when it cannot matter."""
    if isinstance(data, bytes):
        return len(data)
    # One character takes 1 to 4 bytes in UTF-8: only encode when the answer is not obvious.
    if len(data) * 4 <= MAX_FRAME_BYTES or len(data) > ABSURD_FRAME_BYTES:
        return len(data)
    return len(data.encode("utf-8", "surrogatepass"))


def check_size(data: str | bytes) -> ProtocolError | None:
    """Refuse frames over the cap (and close on absurd ones) before anything parses them."""
    size = frame_size(data)
    if size > ABSURD_FRAME_BYTES:
        return ProtocolError("frame_too_large", f"{size} bytes is far over the limit", None, 1009)
    if size > MAX_FRAME_BYTES:
        return ProtocolError(
            "frame_too_large", f"a frame may have at most {MAX_FRAME_BYTES} bytes, not {size}"
        )
    return None


def parse_client(data: str | bytes) -> ClientMessage | ProtocolError:
    """Parse one client frame into a typed message, or the error to answer it with."""
    too_big = check_size(data)
    if too_big is not None:
        return too_big
    if isinstance(data, bytes):
        return ProtocolError("bad_message", "send JSON as text frames, not binary")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        return ProtocolError("bad_json", "the frame is not valid JSON")
    if not isinstance(raw, dict):
        return ProtocolError("bad_message", "a message is a JSON object with a `type`")
    msg_id = readable_id(raw.get("id"))
    kind = raw.get("type")
    if kind not in CLIENT_TYPES:
        known = ", ".join(sorted(CLIENT_TYPES))
        return ProtocolError("unknown_type", f"unknown message type {kind!r}; use {known}", msg_id)
    try:
        return _client_adapter.validate_python(raw)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"][1:]) or "message"
        return ProtocolError("bad_message", f"{kind}: {where}: {err['msg']}", msg_id)


# --- server frames: built once per viewer kind and sent as the same text to many sockets -------


def dumps(frame: dict[str, Any]) -> str:
    """Compact JSON text for a frame (orjson: a move's frames are most of what the live core
    encodes, and it writes them several times faster than the standard library)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def state_frame(
    game_id: int, version: int, status: str, seat: int | None, to_act: int | None, doc: dict
) -> str:
    """The full document: sent on connect, on resync, and when the viewer's seat changes."""
    return dumps(
        {
            "type": "state",
            "game_id": game_id,
            "version": version,
            "status": status,
            "seat": seat,
            "to_act": to_act,
            **doc,
        }
    )


def frames_frame(frames: list[str]) -> str:
    """The frames one change brings a socket, as one frame `{"type": "frames", "frames": [...]}`
    (in order; a single frame goes as it is): one write per socket per change, since each write
    costs the server more than the bytes it carries."""
    if len(frames) == 1:
        return frames[0]
    return '{"type":"frames","frames":[' + ",".join(frames) + "]}"


def unbundled(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """A received frame as the frames it carries, in order (a `frames` frame's; else itself):
    for Python clients (tests, benchmarks, bots)."""
    return frame["frames"] if frame.get("type") == "frames" else [frame]


def patch_frame(base: int, version: int, ops: list[dict[str, Any]]) -> str:
    """RFC 6902 ops turning the document at `base` into the one at `version`."""
    return dumps({"type": "patch", "base": base, "version": version, "ops": ops})


def ack_frame(msg_id: str | int, version: int, events: list[dict[str, Any]]) -> str:
    """An accepted (committed) action."""
    return dumps({"type": "ack", "id": msg_id, "version": version, "events": events})


MAX_ERROR_MESSAGE = 300  # an error's text may quote the input: never echo it at length


def error_frame(
    code: str,
    message: str,
    msg_id: str | int | None = None,
    retry_after: float | None = None,
    reason: dict[str, Any] | None = None,
) -> str:
    """A refused message; nothing changed. `retry_after` (seconds): try again, it may work then.
    `reason`: which rule refused an action, `{code, facts, text}` (app/engine/explain.py)."""
    count_error(code, "ws")
    # In the socket's language: the endpoint runs inside the connection's language context.
    message = translate(message)
    if len(message) > MAX_ERROR_MESSAGE:
        message = message[: MAX_ERROR_MESSAGE - 1] + "…"
    frame: dict[str, Any] = {"type": "error", "id": msg_id, "code": code, "message": message}
    if retry_after is not None:
        frame["retry_after"] = retry_after
    if reason is not None:
        frame["reason"] = translate_reason(reason)
    return dumps(frame)


def status_frame(game_id: int, status: str, version: int) -> str:
    """The game's lifecycle status (open, live, finished, cancelled)."""
    return dumps({"type": "status", "game_id": game_id, "status": status, "version": version})


def your_turn_frame(game_id: int, version: int, seat: int) -> str:
    """Sent to the seat that must decide now."""
    return dumps({"type": "your_turn", "game_id": game_id, "version": version, "seat": seat})


def pong_frame(now_ms: int) -> str:
    """The answer to `ping`, with the server's time (ms since the epoch): clients count turn
    clocks down to the server's deadlines, correcting their own clock by it."""
    return dumps({"type": "pong", "now": now_ms})
