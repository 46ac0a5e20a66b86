"""The code docs/rules-engine.md and docs/architecture.md name for previews, replays and
take-backs exists under those names."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
NAMED = [
    ("rules-engine.md", "preview.outcomes", "app.engine.preview", "outcomes"),
    (
        "rules-engine.md",
        "legal.card_placement_actions",
        "app.engine.legal",
        "card_placement_actions",
    ),
    ("rules-engine.md", "replay_view(state)", "app.engine", "replay_view"),
    ("rules-engine.md", "explain(state, seat, action)", "app.engine", "explain"),
    ("rules-engine.md", "explain.REASONS", "app.engine.explain", "REASONS"),
    ("rules-engine.md", "explain_unparsed(data, error)", "app.engine", "explain_unparsed"),
    ("client.md", "GET /api/games/{id}/explain", "app.web.api_previews", "explain_action"),
    ("client.md", "POST /api/games/{id}/hint", "app.web.api_hints", "game_hint"),
    ("rules-engine.md", "expansion_cards._take_back", "app.engine.expansion_cards", "_take_back"),
    ("rules-engine.md", "packed_legal(state, seat)", "app.engine", "packed_legal"),
    ("rules-engine.md", "pack_legal(actions)", "app.engine", "pack_legal"),
    ("rules-engine.md", "expand_legal(packed)", "app.engine", "expand_legal"),
    ("rules-engine.md", "realm_heads(mask)", "app.engine", "realm_heads"),
    ("rules-engine.md", "realm_head_bits(mask)", "app.engine", "realm_head_bits"),
    ("rules-engine.md", "`legal.realm_heads`", "app.engine.legal", "realm_heads"),
    ("rules-engine.md", "realm_vp(dragons, pieces, whirlpools, players)", "app.engine", "realm_vp"),
    ("rules-engine.md", "`scoring.majority_vp`", "app.engine.scoring", "majority_vp"),
    ("rules-engine.md", "ranking_key(player)", "app.engine", "ranking_key"),
    ("rules-engine.md", "reef_vp(card)", "app.engine", "reef_vp"),
    ("rules-engine.md", "reef_ships(card)", "app.engine", "reef_ships"),
    ("rules-engine.md", "reef_gold(card)", "app.engine", "reef_gold"),
    ("rules-engine.md", "`TRACKS`", "app.engine", "TRACKS"),
    ("rules-engine.md", "`BONUS_TILE_CAP`", "app.engine", "BONUS_TILE_CAP"),
    ("rules-engine.md", "`client_content()`", "app.engine", "client_content"),
    ("rules-engine.md", "tile_per(tile, players)", "app.engine", "tile_per"),
    ("rules-engine.md", "most_missions_seats(counts, vps)", "app.engine", "most_missions_seats"),
    ("rules-engine.md", "`MOST_MISSIONS_VP`", "app.engine", "MOST_MISSIONS_VP"),
    ("rules-engine.md", "`GOLD_PER_TURBULENT_SQUARE`", "app.engine", "GOLD_PER_TURBULENT_SQUARE"),
    ("rules-engine.md", "`TRIPLE_GOLD_FACTOR`", "app.engine", "TRIPLE_GOLD_FACTOR"),
    ("rules-engine.md", "`CONTACT_GOLD_PER_DRAGON`", "app.engine", "CONTACT_GOLD_PER_DRAGON"),
    ("client.md", "`app.engine.client_content`", "app.engine", "client_content"),
    ("protocol.md", "`app/engine/legal_wire.py`", "app.engine.legal_wire", "expand_legal"),
    ("rules-engine.md", "turn.undo", "app.engine.state", "Turn"),
    ("architecture.md", "app/services/play/previews.py", "app.services.play.previews", "outcomes"),
    (
        "architecture.md",
        "app/services/watching/replays.py",
        "app.services.watching.replays",
        "replay",
    ),
    ("architecture.md", "api_previews, api_replays", "app.web.api_previews", "router"),
    ("architecture.md", "api_previews, api_replays", "app.web.api_replays", "router"),
    ("architecture.md", "api_bots, api_hints", "app.web.api_hints", "router"),
    ("architecture.md", "app/services/play/hints.py", "app.services.play.hints", "hint"),
]


@pytest.mark.parametrize(("doc", "text", "module", "name"), NAMED)
def test_named_code_exists(doc, text, module, name):
    assert text in (DOCS / doc).read_text()
    assert hasattr(importlib.import_module(module), name)


def test_the_state_keeps_its_undo_list():
    from app.engine.state import Turn

    assert Turn(seat=0).undo == []
