"""The compose stack's proxy (deploy/Caddyfile) run for real on loopback, in front of upstreams a
test or bench chooses: the same file, with only the site address and the upstreams replaced."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests import tiers
from tests.ops.private_services import _listening, free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "deploy" / "Caddyfile"
STACK_UPSTREAMS = "web1:8000 web2:8000"


def caddy_binary() -> str | None:
    """Debian's caddy (`apt-get install caddy`), if installed."""
    return shutil.which("caddy")


def local_caddyfile(port: int, upstreams: list[str], *, route_games: bool = True) -> str:
    """deploy/Caddyfile listening on plain HTTP at 127.0.0.1:`port` (no certificates, no admin
    API), proxying to `upstreams`; `route_games=False` swaps the game hash for round robin, the
    stack before games met on one instance (for the bench's comparison)."""
    text = CADDYFILE.read_text()
    assert "{$SEADRAGONS_DOMAIN}" in text and STACK_UPSTREAMS in text
    text = text.replace("{$SEADRAGONS_DOMAIN}", f"http://127.0.0.1:{port}")
    text = text.replace(STACK_UPSTREAMS, " ".join(upstreams))
    if not route_games:
        assert "lb_policy header X-Seadragons-Game" in text
        text = text.replace("lb_policy header X-Seadragons-Game", "lb_policy round_robin")
    return "{\n\tadmin off\n}\n" + text


class PrivateCaddy:
    """Caddy on a free port with `local_caddyfile`; started, stopped by the caller."""

    def __init__(self, upstreams: list[str], *, route_games: bool = True) -> None:
        exe = caddy_binary()
        if exe is None:
            raise FileNotFoundError("caddy is not installed (apt-get install caddy)")
        self.exe = exe
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="seadragons-caddy-"))
        self.config = self.dir / "Caddyfile"
        self.config.write_text(local_caddyfile(self.port, upstreams, route_games=route_games))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> PrivateCaddy:
        tiers.starts("server", "a private caddy")
        env = {**os.environ, "HOME": str(self.dir), "XDG_DATA_HOME": str(self.dir / "data")}
        env["XDG_CONFIG_HOME"] = str(self.dir / "config")
        self.proc = subprocess.Popen(
            [self.exe, "run", "--config", str(self.config), "--adapter", "caddyfile"],
            env=env,
            stdout=open(self.dir / "caddy.log", "ab"),  # noqa: SIM115 - lives as long as caddy
            stderr=subprocess.STDOUT,
        )
        proc = self.proc

        def up() -> bool:
            if proc.poll() is not None:
                raise AssertionError((self.dir / "caddy.log").read_text()[-2000:])
            return _listening(self.port)

        wait_until(up, 30, "caddy to listen")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.dir, ignore_errors=True)
