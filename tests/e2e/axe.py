"""axe-core in the browser tests: inject the vendored copy (tests/e2e/vendor) into a page and
run it with the WCAG 2.0, 2.1 and 2.2 A/AA rules and the best practices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VENDOR = Path(__file__).parent / "vendor"
AXE_VERSION = "4.14.1"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = ("serious", "critical")

_source: str | None = None


def axe_source() -> str:
    global _source
    if _source is None:
        _source = (VENDOR / "axe.min.js").read_text()
    return _source


RUN = """async (tags) => {
  const r = await axe.run(document,
    {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary}))}));
}"""


def run_axe(page: Any) -> list[dict[str, Any]]:
    """Every violation axe finds on the page as it is now (the page's CSP does not apply to
    Playwright's evaluate, so the pages keep their policy)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    return page.evaluate(RUN, TAGS)


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The serious and critical ones (the bar is zero of them)."""
    return [v for v in violations if v["impact"] in BLOCKING]


def assert_no_blocking(
    page: Any, where: str, log: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Run axe; fail with the serious or critical violations, listed readably. Returns all
    violations (minor and moderate ones are recorded in `log`, not failed)."""
    found = run_axe(page)
    if log is not None:
        log[where] = [
            {"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"])} for v in found
        ]
    bad = blocking(found)
    assert not bad, f"{where}: " + json.dumps(bad, indent=1)[:6000]
    return found
