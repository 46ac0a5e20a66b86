"""The OpenAPI document says what the server enforces, so a client generated from it (or a
schemathesis run) is right first time.

FastAPI writes the schema from the models; what it cannot see is added here, once per app (the
document is built on first request and kept):

- No control character in any path or query value (`ControlCharacterMiddleware`) nor in any
  text of a request body, nested keys and values of free JSON included (`Body`): a `pattern` on
  every request string that has none, and free JSON objects as `ControlFreeJson`.
- Limits that are settings: a tutorial's `answers` (SEADRAGONS_LEARN_ANSWERS_MAX), a spectator
  delay's moves and seconds (SEADRAGONS_SPECTATOR_DELAY_MAX_MOVES / _MAX_SECONDS), a clock's
  times (SEADRAGONS_CLOCK_MAX_SECONDS, SEADRAGONS_CLOCK_MAX_EXTENSION_SECONDS), the explain
  endpoint's `action` (SEADRAGONS_EXPLAIN_ACTION_MAX_CHARS).
- The explain endpoint's `action` query value is JSON text (`contentMediaType`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI

from app.settings import Settings
from app.web.inputs import NO_CONTROL_PATTERN

Json = dict[str, Any]
FREE_JSON = "ControlFreeJson"
FREE_JSON_REF = f"#/components/schemas/{FREE_JSON}"
# Formats whose grammar admits no control character already (an email address, RFC 5321: printable
# ASCII only), so they need no pattern: a pattern beside them made a schema reader generate
# strings under the pattern until one was an address (schemathesis: 40-48 s on that one field).
FORMATS_WITHOUT_CONTROLS = frozenset({"email"})
# Any JSON value whose strings and keys, however deeply nested, hold no control character.
FREE_JSON_SCHEMA: Json = {
    "description": "any JSON value without control characters in its strings or keys",
    "anyOf": [
        {"type": "null"},
        {"type": "boolean"},
        {"type": "number"},
        {"type": "string", "pattern": NO_CONTROL_PATTERN},
        {"type": "array", "items": {"$ref": FREE_JSON_REF}},
        {
            "type": "object",
            "propertyNames": {"pattern": NO_CONTROL_PATTERN},
            "additionalProperties": {"$ref": FREE_JSON_REF},
        },
    ],
}
EXPLAIN = ("/api/games/{game_id}/explain", "get")


def install(app: FastAPI, settings: Settings) -> None:
    """Make `app.openapi()` return the schema with the server's own rules added."""
    build = app.openapi

    def openapi() -> Json:
        if app.openapi_schema is None:
            app.openapi_schema = truthful(build(), settings)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def truthful(schema: Json, settings: Settings) -> Json:
    """`schema` with the rules FastAPI cannot see (see the module doc)."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components[FREE_JSON] = FREE_JSON_SCHEMA
    for path, method, op in _operations(schema):
        for param in op.get("parameters", []):
            _ban_controls(param.get("schema", {}))
        if (path, method) == EXPLAIN:
            for param in op.get("parameters", []):
                if param["name"] == "action":
                    # JSON text, as the endpoint reads it, of at most so many characters.
                    param["schema"]["contentMediaType"] = "application/json"
                    param["schema"]["maxLength"] = settings.explain_action_max_chars
    for name in sorted(_request_components(schema)):
        _ban_controls(components[name], components)
    _setting_limits(components, settings)
    return schema


def _operations(schema: Json) -> Iterator[tuple[str, str, Json]]:
    for path, item in schema.get("paths", {}).items():
        for method, op in item.items():
            if isinstance(op, dict):
                yield path, method, op


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            yield ref.rsplit("/", 1)[1]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _request_components(schema: Json) -> set[str]:
    """The component schemas a request body uses, directly or nested."""
    components = schema["components"]["schemas"]
    todo = [
        name
        for _path, _method, op in _operations(schema)
        for name in _refs(op.get("requestBody", {}))
    ]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in components or name == FREE_JSON:
            continue
        seen.add(name)
        todo.extend(_refs(components[name]))
    return seen


def _ban_controls(node: Any, components: Json | None = None) -> None:
    """Every string in `node` gets the no-control pattern unless it has a rule of its own; free
    JSON objects become `ControlFreeJson` objects."""
    if isinstance(node, list):
        for value in node:
            _ban_controls(value, components)
        return
    if not isinstance(node, dict):
        return
    if (
        node.get("type") == "string"
        and not {"pattern", "enum", "const"} & node.keys()
        and node.get("format") not in FORMATS_WITHOUT_CONTROLS
    ):
        node["pattern"] = NO_CONTROL_PATTERN
    if node.get("type") == "object" and node.get("additionalProperties") is True:
        node["propertyNames"] = {"pattern": NO_CONTROL_PATTERN}
        node["additionalProperties"] = {"$ref": FREE_JSON_REF}
    for key, value in node.items():
        if key not in ("examples", "default", "const", "enum"):
            _ban_controls(value, components)


def _setting_limits(components: Json, settings: Settings) -> None:
    clock, extension = settings.clock_max_seconds, settings.clock_max_extension_seconds
    limits: dict[tuple[str, str], Callable[[Json], None]] = {
        ("SpectatorDelayIn", "moves"): _maximum(settings.spectator_delay_max_moves),
        ("SpectatorDelayIn", "seconds"): _maximum(settings.spectator_delay_max_seconds),
        ("LiveClockIn", "initial"): _maximum(clock),
        ("LiveClockIn", "per_turn"): _maximum(clock),
        ("LiveClockIn", "extension"): _maximum(extension),
        ("DailyClockIn", "per_turn"): _maximum(clock),
        ("DailyClockIn", "extension"): _maximum(extension),
    }
    for name, component in components.items():
        props = component.get("properties", {})
        answers = props.get("answers")
        if answers is not None and answers.get("type") == "array":
            answers["maxItems"] = min(answers.get("maxItems", 2**31), settings.learn_answers_max)
        for (owner, prop), apply in limits.items():
            if name == owner and prop in props:
                apply(props[prop])


def _maximum(limit: int) -> Callable[[Json], None]:
    def apply(prop: Json) -> None:
        for branch in prop.get("anyOf", [prop]):
            if branch.get("type") == "integer":
                branch["maximum"] = limit

    return apply
