"""The pages are ready for `script-src 'self'; style-src 'self'` (a CSP is coming): no inline
script, no inline event handler, no style attribute in the templates, and no script that
writes a style attribute (setting `el.style.prop` through the CSSOM is allowed). The browser
tests also serve the stub's pages under that policy (tests/e2e/stub_server.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").glob("*.html"))
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.mjs"))


def test_templates_have_no_inline_script_handler_or_style() -> None:
    assert TEMPLATES
    for path in TEMPLATES:
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, f"{path.name}: inline script {tag}"
        handlers = re.findall(r"<[^>]*\son[a-z]+\s*=", html)
        assert not handlers, f"{path.name}: inline event handler {handlers}"
        assert not re.search(r"<[^>]*\sstyle\s*=", html), f"{path.name}: style attribute"
        assert "<style" not in html, f"{path.name}: inline <style>"
        assert "javascript:" not in html, f"{path.name}: javascript: URL"


def test_scripts_never_write_a_style_attribute() -> None:
    assert SCRIPTS
    bad = re.compile(r"""setAttribute\(\s*["']style["']|\.cssText\s*=|\binnerHTML\s*=""")
    for path in SCRIPTS:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            assert not bad.search(line), f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
