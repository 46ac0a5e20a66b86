"""Every client name the docs cite as `module.mjs name` is defined in that module: a rename
breaks this test, not the reader's trust."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"`([A-Za-z/]+)\.mjs ([A-Za-z_][A-Za-z0-9_]*)`")


def _module(stem: str) -> Path:
    found = sorted((ROOT / "static" / "js").rglob(f"{Path(stem).name}.mjs"))
    found = [p for p in found if p.as_posix().endswith(f"{stem}.mjs")]
    assert len(found) == 1, (stem, found)
    return found[0]


def test_every_cited_client_name_is_defined_where_the_docs_say() -> None:
    cited = {m for doc in (ROOT / "docs").glob("*.md") for m in CITED.findall(doc.read_text())}
    assert ("layout", "followInputKind") in cited
    missing = []
    for stem, name in sorted(cited):
        text = _module(stem).read_text(encoding="utf-8")
        if not re.search(rf"\b(?:function|const|let|class)\s+{name}\b", text):
            missing.append(f"{stem}.mjs {name}")
    assert not missing, missing
