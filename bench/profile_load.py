"""Profile the server under bench/load.py's game load with yappi (CPU clock, every thread), or
with py-spy (`--spy`: samples of the thread holding the GIL, the server untouched).

Run: .venv/bin/python bench/profile_load.py [--games 20] [--budget 40] [--top 40] [--save FILE]
     .venv/bin/python bench/profile_load.py --spy [--games 20] [--top 60]
Starts `seadragons serve`'s app (under yappi, or as `seadragons serve` with py-spy attached) on a
fresh Postgres database, plays the games, stops the server and prints the functions that used
the most CPU (yappi: own and total time; py-spy: the share of the GIL's samples in which each
function was on the stack, and its own share). yappi slows the server several times and so
distorts the split between Python and the C it calls; py-spy (`pip install py-spy`) does not.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402


def serve_profiled(port: int, out: Path, sort: str, top: int, save: str | None = None) -> None:
    """(In the child process) run the app under yappi until SIGTERM, then write the stats."""
    import signal

    import uvicorn
    import yappi

    from app.main import create_app
    from app.settings import get_settings

    yappi.set_clock_type("cpu")
    app = create_app()
    # As `seadragons serve` runs it: compression only when the setting asks for it.
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_per_message_deflate=get_settings().ws_compression,
    )
    server = uvicorn.Server(config)
    yappi.start(builtins=False, profile_threads=True)

    def stop(*_: object) -> None:
        server.should_exit = True

    signal.signal(signal.SIGTERM, stop)
    server.run()
    yappi.stop()
    stats = yappi.get_func_stats()
    total = sum(s.tsub for s in stats)
    lines = [f"total CPU in profiled functions: {total:.2f} s"]
    for key in ("tsub", "ttot"):
        stats.sort(key, "desc")
        lines.append(f"\n== by {key} ==")
        for s in list(stats)[:top]:
            where = f"{Path(s.module).name}:{s.lineno} {s.name}"
            lines.append(
                f"{s.tsub:8.2f} {s.ttot:8.2f} {100 * s.tsub / total:5.1f}%  {s.ncall:8d}  {where}"
            )
    # The project's own functions by total time: where a move's CPU goes, module by module.
    lines.append("\n== project functions by ttot ==")
    stats.sort("ttot", "desc")
    own = [s for s in stats if "/app/" in s.module][:top]
    for s in own:
        where = f"{Path(s.module).parent.name}/{Path(s.module).name}:{s.lineno} {s.name}"
        lines.append(f"{s.tsub:8.2f} {s.ttot:8.2f} {s.ncall:8d}  {where}")
    out.write_text("\n".join(lines))
    if save:
        # For callers and callees: python -c "import pstats; pstats.Stats(FILE).print_callers('X')"
        stats.save(save, type="pstat")


async def drive(port: int, games: int, budget: int) -> dict:
    made = await load.make_games(f"http://127.0.0.1:{port}", games)
    return await load.play_games(port, made, budget)


def spy_profile(games: int, budget: int, top: int, save: str | None = None) -> None:
    """The load step with py-spy sampling the server's GIL holder; the top functions.
    `save`: also copy py-spy's raw stacks there (one "frame;frame;... count" per line)."""
    dbs = load.Databases()
    workdir = Path(tempfile.mkdtemp(prefix="seadragons-spy-"))
    raw = workdir / "spy.txt"
    server = load.project_server(dbs.create("spy"), workdir, 1, None)
    try:

        async def play() -> dict:
            made = await load.make_games(f"http://127.0.0.1:{server.port}", games)
            spy = subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "py-spy"),
                    *("record", "--pid", str(server.proc.pid), "--gil", "--nonblocking"),
                    *("--rate", "250", "--format", "raw", "--output", str(raw)),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                return await load.play_games(server.port, made, budget, server=server)
            finally:
                spy.send_signal(subprocess.signal.SIGINT)
                spy.wait(60)

        result = asyncio.run(play())
        print({k: v for k, v in result.items() if not k.startswith("_")})
        print(spy_summary(raw.read_text(), top))
        if save:
            shutil.copyfile(raw, save)
    finally:
        server.stop()
        dbs.drop_all()
        shutil.rmtree(workdir, ignore_errors=True)


def spy_summary(raw: str, top: int) -> str:
    """py-spy's raw stacks ("frame;frame;... count" per line) as each function's share of the
    samples: on the stack (inclusive) and at its top (own)."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [f.split(" (")[0] + " (" + f.rsplit("/", 1)[-1] for f in stack.split(";")]
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + n
        own[frames[-1]] = own.get(frames[-1], 0) + n
    lines = [f"{total} samples of the thread holding the GIL", "== on the stack =="]
    for frame, n in sorted(inclusive.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"{100 * n / total:5.1f}%  {frame}")
    lines.append("== own ==")
    for frame, n in sorted(own.items(), key=lambda kv: -kv[1])[: top // 2]:
        lines.append(f"{100 * n / total:5.1f}%  {frame}")
    return "\n".join(lines)


def main() -> None:
    """Profile one load step."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budget", type=int, default=40)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--save", help="also write the profile here (pstats; --spy: raw stacks)")
    parser.add_argument("--spy", action="store_true", help="py-spy on the GIL, not yappi")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spy:
        spy_profile(args.games, args.budget, args.top, args.save)
        return
    if args.child:
        serve_profiled(int(args.child[0]), Path(args.child[1]), "tsub", args.top, args.save)
        return
    dbs = load.Databases()
    workdir = Path(tempfile.mkdtemp(prefix="seadragons-profile-"))
    proc = None
    try:
        url = dbs.create("profile")
        port = load.free_port()
        env = load.server_env(url, workdir)  # as bench/load.py runs its servers
        out = workdir / "profile.txt"
        args_child = [
            sys.executable,
            __file__,
            "--top",
            str(args.top),
            *(["--save", str(Path(args.save).resolve())] if args.save else []),
            "--child",
            str(port),
            str(out),
        ]
        proc = load.Proc(args_child, env, port, workdir / "server.log")
        proc.wait_ready("/healthz", timeout=300)  # yappi slows the start-up several times
        result = asyncio.run(drive(port, args.games, args.budget))
        proc.proc.send_signal(subprocess.signal.SIGTERM)
        proc.proc.wait(120)
        print(result)
        print(out.read_text() if out.exists() else (workdir / "server.log").read_text()[-3000:])
    finally:
        if proc is not None:
            proc.stop()  # a failed start must not leave the server behind
        dbs.drop_all()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
