"""The OpenAPI document says what the server enforces: a value the schema allows is taken, a
value it forbids is refused (the mismatches a schemathesis run over the whole schema found:
control characters, the tutorials' answers, the spectator delay's one-of rule, explain's JSON
action, the name pattern's `\\w`, a repeated query parameter)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.main import create_app
from app.services.accounts import users
from app.services.watching import spectator_delay
from app.settings import Settings
from app.shared.errors import ServiceError
from app.web.inputs import has_control
from app.web.openapi_truth import FORMATS_WITHOUT_CONTROLS, FREE_JSON

Factory = Callable[..., TestClient]


@pytest.fixture(scope="module")
def app_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    tmp = tmp_path_factory.mktemp("truth")
    # Limits away from their defaults: the schema must follow the settings, not the code's.
    return Settings(
        database_url=f"sqlite:///{tmp / 'o.db'}",
        data_dir=tmp,
        secret_key="x",
        learn_answers_max=7,
        spectator_delay_max_moves=5,
        spectator_delay_max_seconds=90,
        clock_max_seconds=7200,
        clock_max_extension_seconds=300,
        explain_action_max_chars=500,
    )


@pytest.fixture(scope="module")
def openapi(app_settings: Settings) -> dict[str, Any]:
    app = create_app(app_settings)
    schema = TestClient(app).get("/openapi.json").json()
    app.state.engine.dispose()
    return schema


def _validator(openapi: dict[str, Any], name: str) -> Any:
    """A validator of one component schema, with the document's other components in reach."""
    schema = {**openapi["components"]["schemas"][name], "components": openapi["components"]}
    return jsonschema_rs.validator_for(schema)


def test_request_text_anywhere_bans_control_characters(openapi: dict[str, Any]) -> None:
    action_in = _validator(openapi, "ActionIn")
    assert action_in.is_valid({"version": 0, "action": {"type": "pass", "x": [{"y": "z"}]}})
    for action in ({"type": "pa\x00ss"}, {"t\x1b": 1}, {"a": [{"b": ["\x7f"]}]}):
        assert has_control(action)
        assert not action_in.is_valid({"version": 0, "action": action}), action
    join = _validator(openapi, "JoinIn")
    assert join.is_valid({"invite_code": "MPjd-GpGyhcT"})
    assert not join.is_valid({"invite_code": "ab\x00"})
    for path, item in openapi["paths"].items():
        for op in item.values():
            for param in op.get("parameters", []):
                kinds = param.get("schema", {}).get("anyOf", [param.get("schema", {})])
                for kind in kinds:
                    if kind.get("type") == "string" and "enum" not in kind:
                        assert re.fullmatch(kind["pattern"], "ok"), (path, param["name"])
                        assert not re.fullmatch(kind["pattern"], "a\x01"), (path, param["name"])


def test_an_email_is_said_by_its_format_which_admits_no_control_character(
    openapi: dict[str, Any],
) -> None:
    """The address's format already bans control characters (RFC 5321: printable ASCII), so it
    carries no pattern beside it; a validator that holds to formats refuses each kind."""
    [text, _] = openapi["components"]["schemas"]["EmailIn"]["properties"]["email"]["anyOf"]
    assert text["format"] in FORMATS_WITHOUT_CONTROLS and "pattern" not in text
    email = jsonschema_rs.validator_for(text, validate_formats=True)
    assert email.is_valid("nessie@example.org")
    for bad in ("nes\x01sie@example.org", "nessie@exa\x7fmple.org", '"a\x1b"@b.org', "a@b.org\x85"):
        assert has_control(bad) and not email.is_valid(bad), repr(bad)


def test_the_limits_that_are_settings_are_the_settings(
    openapi: dict[str, Any], app_settings: Settings
) -> None:
    schemas = openapi["components"]["schemas"]
    for name in ("AnswersIn", "ActIn", "OutcomesIn"):
        answers = schemas[name]["properties"]["answers"]
        assert answers["maxItems"] == app_settings.learn_answers_max, name
    delay = schemas["SpectatorDelayIn"]["properties"]
    assert delay["moves"]["anyOf"][0]["maximum"] == app_settings.spectator_delay_max_moves
    assert delay["seconds"]["anyOf"][0]["maximum"] == app_settings.spectator_delay_max_seconds


@pytest.mark.parametrize(
    "raw",
    [
        {"moves": 3},
        {"seconds": 60},
        {"moves": 3, "seconds": None},
        {"moves": None, "seconds": 60},
        {"moves": 3, "seconds": 60},
        {},
        {"moves": None, "seconds": None},
        {"moves": 6},
        {"seconds": 91},
    ],
)
def test_the_spectator_delay_schema_takes_what_the_service_takes(
    openapi: dict[str, Any], app_settings: Settings, raw: dict[str, Any]
) -> None:
    try:
        spectator_delay.check_option(
            raw,
            rated=True,
            clock=None,
            max_moves=app_settings.spectator_delay_max_moves,
            max_seconds=app_settings.spectator_delay_max_seconds,
        )
        taken = True
    except ServiceError:
        taken = False
    assert _validator(openapi, "SpectatorDelayIn").is_valid(raw) is taken
    create = _validator(openapi, "CreateGameIn")
    body = {"players": 2, "rated": True, "spectator_delay": raw}
    assert create.is_valid(body) is taken
    # Only for rated tables, and not daily ones (the service says so too).
    assert not create.is_valid({**body, "rated": False})
    assert not create.is_valid({"players": 2, "spectator_delay": raw})
    daily = {"mode": "daily", "per_turn": 86400}
    assert not create.is_valid({**body, "clock": daily})


# Code points that Python's Unicode database (14.0 in 3.11) leaves unassigned are left out: the
# schema's validator carries newer tables (U+1E4D0, Nag Mundari, is a letter since Unicode 15),
# so for those the two disagree by the Unicode version, not by the pattern; the server (older
# tables) refuses them, which is the safe side. Surrogates (Cs) cannot be sent as text at all.
@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cn", "Cs")), max_size=24))
def test_the_name_pattern_reads_as_the_server_reads_it(name: str) -> None:
    """The schema's dialect reads `\\w` as ASCII: the schema spells out what Python's means."""
    schema = jsonschema_rs.validator_for({"type": "string", "pattern": users.NAME_SCHEMA})
    assert schema.is_valid(name) is bool(re.fullmatch(users.NAME_INPUT, name)), repr(name)


@pytest.mark.parametrize("name", ["José", "李小龍", "Ана", "Nessie 2"])
def test_names_of_other_scripts_match_the_schema(openapi: dict[str, Any], name: str) -> None:
    assert _validator(openapi, "GuestIn").is_valid({"name": name})
    users.clean_display_name(name)


def test_explain_says_its_action_is_json_text(
    openapi: dict[str, Any], app_settings: Settings
) -> None:
    params = openapi["paths"]["/api/games/{game_id}/explain"]["get"]["parameters"]
    [action] = [p for p in params if p["name"] == "action"]
    assert action["schema"]["contentMediaType"] == "application/json"
    assert action["schema"]["maxLength"] == app_settings.explain_action_max_chars
    assert FREE_JSON in openapi["components"]["schemas"]


def test_clock_times_are_the_settings(openapi: dict[str, Any], app_settings: Settings) -> None:
    schemas = openapi["components"]["schemas"]
    live, daily = schemas["LiveClockIn"]["properties"], schemas["DailyClockIn"]["properties"]
    for prop in (live["initial"], live["per_turn"], daily["per_turn"]):
        assert prop["maximum"] == app_settings.clock_max_seconds
    for prop in (live["extension"], daily["extension"]):
        assert prop["maximum"] == app_settings.clock_max_extension_seconds


def test_a_query_parameter_given_twice_is_refused(client_factory: Factory) -> None:
    ann = client_factory("Ann")
    game = ann.post("/api/games", json={"players": 2}).json()
    assert ann.get(f"/api/games/{game['id']}/log?since=0").status_code == 200
    r = ann.get(f"/api/games/{game['id']}/log?since=0&since=5")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", r.text
    assert "since" in r.json()["error"]["message"]


def test_docs_api_md_states_the_repeated_query_rule() -> None:
    text = " ".join((Path(__file__).parents[2] / "docs" / "api.md").read_text().split())
    assert "A query parameter given twice" in text
