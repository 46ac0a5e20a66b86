"""Importing the app loads no library it needs only for a push (bench/app_import.py): pywebpush
and the aiohttp it brings cost every process's start (docs/benchmarks.md, "Importing the app")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.app_import import LATE

ROOT = Path(__file__).resolve().parents[1]


def test_the_app_imports_push_libraries_only_when_it_sends_a_push() -> None:
    code = (
        "import json, sys; import app.main; "
        f"print(json.dumps(sorted(m for m in {LATE!r} if m in sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
