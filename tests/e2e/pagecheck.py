"""A page-wide check of what a reader sees: English-only words on a Spanish page, and labels
whose text does not fit their box.

English-only words. The site's own vocabulary decides: a word is English-only when it occurs
in the English text (`static/i18n/en.json`'s values, the gettext catalogue's msgids, the pages
written per language: `templates/**/en.html`) and never in the Spanish text (`es.json`'s values,
the catalogue's msgstrs, `templates/**/es.html`). A word both languages use
("no", "Sea", "VP"...) is never flagged, nor a word neither catalogue knows (a player's name, a
card id). So a Spanish page fails when it shows a word the site only ever writes in English:
an untranslated catalogue entry, a literal left in a template or a module, a server message
that skipped the catalogue.

`ALLOWED` lists the words a Spanish page may show although only the English text uses them:
proper names (the game's name, the players' names of the tests and the tutorial) and the
tokens of formats that are not words. Numbers and single letters are never words here, nor is
text marked as another language (`lang="en"`: the language switch's "English").

Clipped labels. An element that holds text directly (not through a child) is clipped when its
text is wider or taller than its box: `scrollWidth > clientWidth` or `scrollHeight >
clientHeight` (by more than a pixel, for rounding) while it is not a scrolling panel (a log or
a list that scrolls on purpose: `overflow` auto or scroll), or when an ellipsis is drawn. The
board's canvas draws no text through the DOM; the Reward Board, the chart's SVG and every panel
are DOM and checked. SVG `<text>` is clipped when its box leaves the `<svg>`'s box.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "es")
# A word: two letters or more, not part of a token with digits or underscores (card ids such as
# "HT14", "M01" and codes are not words).
WORD = re.compile(r"(?<![\w])[^\W\d_]{2,}(?![\w])", re.UNICODE)
# A `{name}` place, a `%(name)s` one, a tag or a template's code: not words of either language.
PLACE = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)[sd]|<[^>]*>|\{[{%].*?[%}]\}", re.DOTALL)

# Words a Spanish page may show though only the English text has them (lower case):
ALLOWED = {
    # the game's and the site's names
    "sea",
    "dragons",
    "online",
    # the players' names: the tests' guests and bots, the tutorial's and the examples' players
    "nessie",
    "moray",
    "alice",
    "bob",
    "ann",
    "bo",
    "cy",
    "kraken",
    "triton",
    "ondina",
    # tokens of formats: e-mail placeholders, units
    "example",
    "com",
    "px",
}


def _vocabulary(texts: list[str]) -> set[str]:
    words: set[str] = set()
    for text in texts:
        words.update(w.lower() for w in WORD.findall(PLACE.sub(" ", text)))
    return words


@cache
def english_only_words() -> frozenset[str]:
    """Words the site writes in English and never in Spanish (see the module's docstring)."""
    en = json.loads((ROOT / "static/i18n/en.json").read_text())
    es = json.loads((ROOT / "static/i18n/es.json").read_text())
    po = ROOT / "app/i18n/locale/es/LC_MESSAGES/messages.po"
    with po.open("rb") as source:
        catalog = read_po(source, locale="es")
    msgids: list[str] = []
    msgstrs: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strs = message.string if isinstance(message.string, tuple) else (message.string,)
        msgids.extend(ids)
        msgstrs.extend(s for s in strs if s)
    pages = {
        lang: [p.read_text() for p in ROOT.glob(f"templates/**/{lang}.html")] for lang in LANGS
    }
    english = _vocabulary([*en.values(), *msgids, *pages["en"]])
    spanish = _vocabulary([*es.values(), *msgstrs, *pages["es"]])
    return frozenset(english - spanish - ALLOWED)


# Every visible text node (its own text, with the element that holds it) and the visible
# elements' title / aria-label / placeholder / alt.
VISIBLE_TEXTS = """() => {
  const seen = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden') return false;
    }
    return el.getClientRects().length > 0;
  };
  const where = (el) => {
    const id = el.closest('[id]');
    const cls = typeof el.className === 'string' && el.className ? el.className : '';
    const tag = el.tagName.toLowerCase() + (cls ? '.' + cls.split(' ').join('.') : '');
    return (id ? '#' + id.id + ' ' : '') + tag;
  };
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!text || !el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName)) continue;
    // Text marked as another language (the language switch's "English") is meant so.
    if (el.closest('[lang]').lang !== document.documentElement.lang) continue;
    // Screen-reader text is read although not seen: its words count too.
    if (el.closest('.sr-only') || seen(el)) out.push([where(el), text]);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (!seen(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = (el.getAttribute(a) || '').trim();
      if (v) out.push([where(el) + '@' + a, v]);
    }
  }
  return out;
}"""

# Elements whose own text does not fit their box (see the module's docstring).
CLIPPED = """() => {
  const out = [];
  const own = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const where = (el) => {
    const id = el.closest('[id]');
    const cls = typeof el.className === 'string' && el.className ? el.className : '';
    const tag = el.tagName.toLowerCase() + (cls ? '.' + cls.split(' ').join('.') : '');
    return (id ? '#' + id.id + ' ' : '') + tag;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!own(el) || !el.getClientRects().length) continue;
    if (el.closest('.sr-only')) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'inline' || s.display === 'contents') continue;
    if (el instanceof SVGElement) {
      if (el.tagName !== 'text') continue;
      const svg = el.ownerSVGElement.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      const outX = r.left < svg.left - 1 || r.right > svg.right + 1;
      if (outX || r.top < svg.top - 1 || r.bottom > svg.bottom + 1) {
        out.push([where(el), el.textContent.trim()]);
      }
      continue;
    }
    const scrolls = /(auto|scroll)/.test(s.overflowX + ' ' + s.overflowY);
    if (scrolls) continue;
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1 && s.overflowY !== 'visible';
    if (wide || tall || (s.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)) {
      out.push([where(el), el.textContent.trim().slice(0, 60)]);
    }
  }
  return out;
}"""


def english_words_on(page: Any) -> list[tuple[str, str, str]]:
    """(where, word, text) for every English-only word the page shows."""
    banned = english_only_words()
    found = []
    for where, text in page.evaluate(VISIBLE_TEXTS):
        for word in WORD.findall(text):
            if word.lower() in banned:
                found.append((where, word, text[:80]))
    return found


RULE_ID = re.compile(r"\bR-\d+\b")


def rule_ids_on(page: Any) -> list[tuple[str, str]]:
    """(where, text) for every visible text citing a ruling's id ("R-21"): those are for the
    code, its tests and the docs, never for players."""
    return [(w, text[:80]) for w, text in page.evaluate(VISIBLE_TEXTS) if RULE_ID.search(text)]


def clipped_on(page: Any) -> list[tuple[str, str]]:
    """(where, text) for every element whose text overflows its box."""
    return [tuple(x) for x in page.evaluate(CLIPPED)]


def assert_page_reads_right(page: Any, name: str, spanish: bool = True) -> None:
    """Fail with the findings when the page shows an English-only word (a Spanish page), a
    clipped label or a ruling's id."""
    english = english_words_on(page) if spanish else []
    clipped = clipped_on(page)
    rules = rule_ids_on(page)
    assert not english and not clipped and not rules, (
        f"{name}: English-only words {english}; clipped labels {clipped}; rulings' ids {rules}"
    )
