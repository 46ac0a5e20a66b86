"""Every dotted name the docs cite (`app.x.y`, in backticks) exists: a rename breaks this test,
not the reader's trust."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# `app.realtime.codec`, `app.services.play.games.submit_action(...)`, `app.state...` is runtime
# state.
NAME = re.compile(r"`(app(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")


def _cited() -> list[tuple[str, str]]:
    found = set()
    for doc in sorted(DOCS.glob("*.md")):
        for name in NAME.findall(doc.read_text()):
            # `app.state...` and `app.include_router(...)` are a FastAPI app object in examples,
            # not this package: a name counts when it starts with one of the package's modules.
            first = name.split(".")[1]
            if (ROOT / "app" / first).is_dir() or (ROOT / "app" / f"{first}.py").is_file():
                found.add((doc.name, name))
    return sorted(found)


def _resolve(name: str) -> object:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)


def test_the_docs_cite_names() -> None:
    assert len(_cited()) > 10  # the pattern finds them (a broken pattern would pass anything)


@pytest.mark.parametrize(("doc", "name"), _cited())
def test_a_cited_name_exists(doc: str, name: str) -> None:
    try:
        _resolve(name)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"docs/{doc} cites `{name}`, which does not exist: {exc}")


# `app/realtime/hub.py`, `bench/load.py`, `static/js/lib/legal.mjs`: files the docs point to.
PATH = re.compile(r"`((?:app|bench|tests|static|templates|migrations|deploy)/[\w./-]+\.\w+)")


def _paths() -> list[tuple[str, str]]:
    return sorted(
        {(doc.name, p) for doc in DOCS.glob("*.md") for p in PATH.findall(doc.read_text())}
    )


def test_the_docs_cite_files() -> None:
    assert len(_paths()) > 10


@pytest.mark.parametrize(("doc", "path"), _paths())
def test_a_cited_file_exists(doc: str, path: str) -> None:
    assert (ROOT / path).is_file(), f"docs/{doc} points to {path}, which does not exist"
