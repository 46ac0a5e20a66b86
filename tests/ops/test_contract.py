"""One API contract: the OpenAPI schema names the real error statuses, shapes
and limits, and a bounded schemathesis run with every check against a real server on Postgres
finds no 5xx, no status the schema does not list, and no request the schema and the server
judge differently."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.ops.servers import serve, server_env

ERROR_REF = "#/components/schemas/ErrorOut"


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("openapi")
    settings = Settings(database_url=f"sqlite:///{tmp / 'o.db'}", data_dir=tmp, secret_key="x")
    app = create_app(settings)
    schema = TestClient(app).get("/openapi.json").json()
    app.state.engine.dispose()
    return schema


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if path.startswith("/api/")
    ]


def test_every_error_status_has_the_error_shape(openapi: dict[str, Any]) -> None:
    for path, method, op in _operations(openapi):
        errors = {s: r for s, r in op["responses"].items() if s[0] in "45"}
        assert errors, (method, path)
        for status, response in errors.items():
            ref = response["content"]["application/json"]["schema"]["$ref"]
            assert ref == ERROR_REF, (method, path, status)
        if op.get("parameters") or op.get("requestBody"):
            assert "422" in errors, (method, path)  # and FastAPI's own 422 shape is gone
        assert "503" in errors, (method, path)
        assert "500" not in errors


def test_the_statuses_each_endpoint_can_answer_are_listed(openapi: dict[str, Any]) -> None:
    def statuses(path: str, method: str) -> set[str]:
        return set(openapi["paths"][path][method]["responses"])

    assert {"401", "429"} <= statuses("/api/session/login", "post")
    assert {"409", "429"} <= statuses("/api/session/guest", "post")
    assert {"409", "429"} <= statuses("/api/users", "post")
    assert {"401", "403", "404", "409", "413"} <= statuses("/api/games/{game_id}/actions", "post")
    assert {"401", "429"} <= statuses("/api/games", "post")
    assert {"404"} <= statuses("/api/games/{game_id}", "get")
    assert {"503"} <= statuses("/readyz", "get")


def test_the_schema_states_the_real_limits(openapi: dict[str, Any]) -> None:
    schemas = openapi["components"]["schemas"]
    assert schemas["GuestIn"]["properties"]["name"]["maxLength"] == 24
    assert schemas["CredentialsIn"]["properties"]["username"]["maxLength"] == 24
    assert schemas["CredentialsIn"]["properties"]["password"]["maxLength"] == 128
    params = openapi["paths"]["/api/games/{game_id}/log"]["get"]["parameters"]
    bounds = {p["name"]: p["schema"] for p in params}
    assert bounds["game_id"]["maximum"] == 2**31 - 1
    assert bounds["since"]["maximum"] == 2**31 - 1


# Schemathesis's own generation is the work (139 s alone on a slow day of this machine, 343 s
# beside the rest of the suite): both runs share one deadline inside the test's timeout.
SCHEMATHESIS_SECONDS = 840


@pytest.mark.server
@pytest.mark.timeout(SCHEMATHESIS_SECONDS + 60)
def test_schemathesis_finds_no_server_error_undocumented_status_or_mismatch(
    tmp_path: Path, make_postgres_db: Callable[[], str]
) -> None:
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if st is None:
        pytest.fail("schemathesis is missing: install the dev extras")
    env = server_env(tmp_path, DATABASE_URL=make_postgres_db(), BOT_DELAY_SECONDS="0")
    with serve(env, tmp_path / "server.log") as server:
        # A signed-in caller with a table of each kind, so ids in generated requests may exist.
        with server.client() as c:
            c.post("/api/session/guest", json={"name": "Fuzzer"})
            for body in ({"players": 2}, {"players": 3, "visibility": "private"}):
                assert c.post("/api/games", json=body).status_code == 201
            cookie = f"sd_session={c.cookies['sd_session']}"
        common = [
            st,
            "run",
            f"{server.url}/openapi.json",
            # Every check, the schema's truth about requests too: a value it allows is taken
            # (positive_data_acceptance), one it forbids is refused (negative_data_rejection).
            "--checks",
            "all",
            "--max-examples",
            "12",
            "--workers",
            "1",
            "--seed",
            "11",
            "--no-shrink",
            "--phases",
            "examples,coverage,fuzzing",
            "--request-timeout",
            "20",
        ]
        # Signing in, out or up replaces the session: fuzz those without it, and the rest
        # with the signed-in cookie, so that the rest is not all answered 401.
        identity = "^/api/(session/(login|logout)|users)$"
        runs = [
            ["--include-path-regex", identity, "--report-dir", str(tmp_path / "r1")],
            [
                *("--exclude-path-regex", identity, "--header", f"Cookie: {cookie}"),
                *("--report-dir", str(tmp_path / "r2")),
            ],
        ]
        deadline = time.monotonic() + SCHEMATHESIS_SECONDS
        results = [
            subprocess.run(
                [*common, *extra],
                capture_output=True,
                text=True,
                timeout=max(1.0, deadline - time.monotonic()),
                cwd=tmp_path,
            )
            for extra in runs
        ]
        log = server.log_text()
    for result in results:
        assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
        assert " passed" in result.stdout and "generated" in result.stdout
    assert "Traceback" not in log, log[-4000:]
