"""What importing the app costs a process at its start, for one or more checkouts side by side.

Every server, worker and CLI process (and every test that starts one) pays `import app.main`
before it does anything. Each round runs a fresh interpreter per checkout, in turn, and reads
the process CPU of the import alone; also reported: whether libraries the app should load only
when it uses them were imported (aiohttp, brought by pywebpush).

    .venv/bin/python bench/app_import.py --rounds 15 . ../other-checkout
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys, time
sys.path.insert(0, ".")
start = time.process_time()
import app.main
cpu = time.process_time() - start
print(json.dumps({"cpu": cpu, "late": sorted(m for m in LATE if m in sys.modules)}))
"""
# Imported only where used: a process that never sends a push never needs them.
LATE = ("aiohttp", "pywebpush")


def measure(tree: Path) -> tuple[float, list[str]]:
    """The import's process CPU in `tree`, and which of LATE it loaded."""
    code = f"LATE = {LATE!r}\n{PROBE}"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return float(result["cpu"]), list(result["late"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trees", nargs="+", type=Path, help="checkouts to compare")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    cpu: dict[Path, list[float]] = {tree: [] for tree in args.trees}
    late: dict[Path, list[str]] = {}
    for tree in args.trees:  # warm the file cache and the bytecode
        measure(tree)
    for _ in range(args.rounds):
        for tree in args.trees:
            seconds, late[tree] = measure(tree)
            cpu[tree].append(seconds)
    first = statistics.median(cpu[args.trees[0]])
    print(f"{args.rounds} rounds, `import app.main` in a fresh interpreter, process CPU")
    print("| checkout | median | min | max | ratio to the first | loaded early |")
    print("| --- | --- | --- | --- | --- | --- |")
    for tree in args.trees:
        med = statistics.median(cpu[tree])
        print(
            f"| {tree} | {med:.3f} s | {min(cpu[tree]):.3f} | {max(cpu[tree]):.3f} "
            f"| {med / first:.2f} | {', '.join(late[tree]) or 'none'} |"
        )


if __name__ == "__main__":
    main()
