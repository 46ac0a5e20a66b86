"""Every text for people exists in both languages, with the same places for values."""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.engine.events import ENGLISH, MINE
from app.i18n.catalogs import po_path
from app.i18n.extract import ROOT, marked_messages, placeholders

STATIC = ROOT / "static"
CLIENT_CATALOGUES = {lang: STATIC / "i18n" / f"{lang}.json" for lang in ("en", "es")}
# t("key"), tn("key", n), tParts("key") and tnParts("key", n) in the client's modules.
CLIENT_KEY = re.compile(r"""\bt(n|Parts|nParts)?\(\s*["']([\w.-]+)["']""")


@pytest.fixture(scope="module")
def spanish():
    with po_path("es").open("rb") as source:
        return read_po(source, locale="es")


@pytest.fixture(scope="module")
def marked():
    return list(marked_messages())


def test_the_code_marks_text_for_translation(marked) -> None:
    # A sanity floor: if extraction silently found nothing, every later check would pass.
    assert len(marked) > 100


def test_every_marked_message_has_a_spanish_translation(marked, spanish) -> None:
    missing = []
    for filename, message, line in marked:
        ids = message if isinstance(message, tuple) else (message,)
        entry = spanish.get(ids[0])
        strings = entry.string if entry is not None else None
        ok = all(strings) if isinstance(strings, tuple) else bool(strings)
        if entry is None or not ok or entry.fuzzy:
            missing.append(f"{filename}:{line}: {ids[0]!r}")
    assert not missing, "not translated into Spanish:\n" + "\n".join(missing)


def test_spanish_translations_keep_the_placeholders(spanish) -> None:
    wrong = []
    for entry in spanish:
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            # A singular form may leave out the count ("un barco"), never add a name.
            if text and not placeholders(text) <= wanted:
                wrong.append(f"{ids[0]!r} -> {text!r}")
        if strings[-1] and placeholders(strings[-1]) != placeholders(ids[-1]):
            wrong.append(f"{ids[-1]!r} -> {strings[-1]!r}")
    assert not wrong, "\n".join(wrong)


def _service_error_messages(tree: ast.AST):
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "ServiceError"
            and len(node.args) >= 2
        ):
            yield node.args[1]


def test_no_refusal_is_built_by_an_f_string() -> None:
    # An f-string cannot be looked up in a catalogue: t_("... {name}", name=...) can.
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for message in _service_error_messages(tree):
            if isinstance(message, ast.JoinedStr):
                found.append(f"{path.relative_to(ROOT)}:{message.lineno}")
    assert not found, "f-string messages: " + ", ".join(found)


def _client_catalogue(lang: str) -> dict[str, str]:
    return json.loads(CLIENT_CATALOGUES[lang].read_text(encoding="utf-8"))


def test_the_client_catalogues_have_the_same_keys() -> None:
    english, spanish_keys = _client_catalogue("en"), _client_catalogue("es")
    assert sorted(set(english) - set(spanish_keys)) == [], "missing in es.json"
    assert sorted(set(spanish_keys) - set(english)) == [], "missing in en.json"
    assert all(isinstance(v, str) and v for v in english.values())
    assert all(isinstance(v, str) and v for v in spanish_keys.values())


def test_the_client_catalogues_keep_the_placeholders() -> None:
    english, spanish_map = _client_catalogue("en"), _client_catalogue("es")
    wrong = [
        key
        for key, text in english.items()
        if key in spanish_map and placeholders(spanish_map[key]) - placeholders(text)
    ]
    assert not wrong, f"Spanish text names a value English does not give: {wrong}"


def test_every_key_the_client_uses_is_in_the_catalogue() -> None:
    english = _client_catalogue("en")
    missing = []
    for path in sorted((STATIC / "js").rglob("*.mjs")):
        for plural, key in CLIENT_KEY.findall(path.read_text(encoding="utf-8")):
            present = f"{key}.other" in english if plural.startswith("n") else key in english
            if not present:
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert not missing, "\n".join(missing)


def test_the_catalogue_files_are_where_the_docs_say(tmp_path: Path) -> None:
    docs = (ROOT / "docs" / "i18n.md").read_text(encoding="utf-8")
    for named in ("app/i18n/locale/es/LC_MESSAGES/messages.po", "static/i18n/es.json", "babel.cfg"):
        assert named in docs
        assert (ROOT / named).exists()


# Keys a module builds from a literal stem, which CLIENT_KEY cannot see: whose piece it is
# (`whose("speech.dragon", who)`: `_mine` / `_of`) and the ghost's square (`speech.ghost...`).
WHOSE_KEY = re.compile(r"""\bwhose\(\s*["']([\w.]+)["']""")


def test_every_key_the_screen_reader_builds_is_in_both_catalogues() -> None:
    english, spanish_map = _client_catalogue("en"), _client_catalogue("es")
    speech = (STATIC / "js" / "lib" / "speech.mjs").read_text(encoding="utf-8")
    stems = WHOSE_KEY.findall(speech)
    assert {"speech.dragon", "speech.head", "speech.ancestral_head"} <= set(stems)
    built = [f"{stem}_{form}" for stem in stems for form in ("mine", "of")]
    built += [
        f"speech.{h}_{legal}" for h in ("ghost", "ghost_head") for legal in ("legal", "illegal")
    ]
    # The log's clauses about the viewer (`_mine`, lib/logline.mjs): English is the engine's.
    built += [key for key in ENGLISH if key.endswith(MINE)]
    missing = [key for key in built if key not in english or key not in spanish_map]
    assert not missing, missing


def test_the_code_docs_i18n_names_exists() -> None:
    docs = (ROOT / "docs" / "i18n.md").read_text(encoding="utf-8")
    named = [
        ("app.engine.events.own_key", "app.engine.events", "own_key"),
        ("app.engine.text.N_", "app.engine.text", "N_"),
        ("app.i18n.translate_outcome", "app.i18n", "translate_outcome"),
        ("tests/js/speech_spanish.test.mjs", None, None),
        ("tests/i18n/test_own_lines.py", None, None),
    ]
    for text, module, name in named:
        assert text in docs, text
        if module is None:
            assert (ROOT / text).exists(), text
        else:
            assert hasattr(importlib.import_module(module), name), text
    assert "renderLine(pieces, { me })" in docs
    assert "export function renderLine(pieces, options = {})" in (
        STATIC / "js" / "lib" / "logline.mjs"
    ).read_text(encoding="utf-8")


def test_every_rating_variant_has_a_name_in_both_catalogues() -> None:
    """The profile and the leaderboard name a variant by `variant.<id>` (`variantName`)."""
    from typing import get_args

    from app.web.api_ratings import RatingOut

    variants = get_args(RatingOut.model_fields["variant"].annotation)
    assert set(variants) == {"base", "expansion"}
    for lang in ("en", "es"):
        names = _client_catalogue(lang)
        assert all(f"variant.{v}" in names for v in variants), lang
