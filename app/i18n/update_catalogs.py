"""`python -m app.i18n.update_catalogs`: extract the marked text again and merge it into each
language's .po (new messages arrive empty, gone ones are dropped; docs/i18n.md)."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from app.i18n.catalogs import po_path
from app.i18n.extract import marked_messages
from app.i18n.languages import DEFAULT_LANGUAGE, LANGUAGES


def template() -> Catalog:
    """Every marked message, with where it is used."""
    catalog = Catalog(project="Sea Dragons Online", charset="utf-8")
    for filename, message, line in marked_messages():
        catalog.add(message, locations=[(filename, line)])
    return catalog


def update(language: str) -> None:
    """Merge the current template into `language`'s catalogue, keeping its translations."""
    path = po_path(language)
    if path.exists():
        with path.open("rb") as source:
            catalog = read_po(source, locale=language)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale=language, project="Sea Dragons Online", charset="utf-8")
    # No fuzzy matching: a guessed translation of a changed sentence is worse than an empty one
    # (the catalogue test then names it).
    catalog.update(template(), no_fuzzy_matching=True)
    with path.open("wb") as out:
        write_po(
            out, catalog, width=100, sort_output=True, ignore_obsolete=True, include_lineno=False
        )


def main() -> None:
    for language in LANGUAGES:
        if language != DEFAULT_LANGUAGE:
            update(language)


if __name__ == "__main__":
    main()
