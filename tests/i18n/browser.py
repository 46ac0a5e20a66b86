"""The browser's log renderer (`static/js/lib/logline.mjs`) run under Node on a corpus, so a
test can compare its lines with the server's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each item of the corpus is [pieces, me]: the line's pieces and the viewer's seat (or null).
RENDER_JS = """
globalThis.document = { documentElement: { lang: process.argv[2] } };
const { renderLine } = await import(process.argv[3]);
const { readFile } = await import("node:fs/promises");
const corpus = JSON.parse(await readFile(process.argv[4], "utf8"));
process.stdout.write(JSON.stringify(corpus.map(([pieces, me]) => renderLine(pieces, { me }))));
"""


def browser_lines(
    corpus: list[tuple[list[Any], int | None]], language: str, tmp: Path
) -> list[str]:
    """The browser's text of each [pieces, me] in `language` (skips the test without Node)."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("SEADRAGONS_REQUIRE_SERVICES") == "1":
            pytest.fail("node is required (SEADRAGONS_REQUIRE_SERVICES=1) but is not installed")
        pytest.skip("node is not installed: the browser's renderer cannot run")
    data = tmp / "corpus.json"
    data.write_text(json.dumps(corpus))
    script = tmp / "render.mjs"
    script.write_text(RENDER_JS)
    module = (ROOT / "static/js/lib/logline.mjs").as_uri()
    out = subprocess.run(
        [node, str(script), language, module, str(data)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)
