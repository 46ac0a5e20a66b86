"""Rule constants have one definition, in the engine, and everyone takes them from there: the
Reward Board's tracks (R-50), a Reef card's value while held (R-40), the realm ranking (R-43),
the final ranking key (R-44), the Ancestral head's realms (R-56), the compact legal form, the
most-missions bonus (R-41), a placement's Gold (R-22, R-54), the Bonus tiles' values (R-53). The
client gets them in /content.json (`client_content`) or in the documents the server sends."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

from app.engine import (
    TRACKS,
    GameOptions,
    apply,
    client_content,
    final_scores,
    legal_actions,
    new_game,
    ranking_key,
    realm_head_bits,
    realm_heads,
    reef_gold,
    reef_ships,
    reef_vp,
    to_act,
)
from app.engine.board import bit, realm_of, squares_of
from app.engine.content import content, expansion_content
from app.engine.shapes import placements

ROOT = Path(__file__).resolve().parents[2]
REEFS = content().reefs


def _one(kind: str) -> str:
    return next(cid for cid, card in sorted(REEFS.items()) if card.kind == kind)


def test_a_reef_cards_value_while_held_R40() -> None:
    # a Two-Ship card counts 2 ships, a Wild 1, a Gold card its 4 Gold; the others none
    # (a Coral Reef's Gold is taken when it is played, R-55).
    assert reef_vp(REEFS[_one("two_ships")]) == reef_ships(REEFS[_one("two_ships")]) == 2
    assert reef_vp(REEFS[_one("wild_ship")]) == reef_ships(REEFS[_one("wild_ship")]) == 1
    assert reef_vp(REEFS[_one("gold")]) == reef_gold(REEFS[_one("gold")]) == 4
    for kind in ("hidden_dragon", "advance_tails", "advance_tail_gold"):
        assert reef_vp(REEFS[_one(kind)]) == 0, kind


@pytest.mark.parametrize(("players", "expansion"), [(2, False), (3, True), (4, True), (5, False)])
def test_the_cards_held_at_the_end_score_their_reef_vp_R40(players: int, expansion: bool) -> None:
    """Final scoring's Gold and ships categories are exactly the Gold, the ship tokens and the
    `reef_vp` of the Reef cards still held (what the client is told a card is worth)."""
    held = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(GameOptions(players=players, expansion=expansion), seed)
        while not state.over:
            seat = to_act(state)
            acts = legal_actions(state, seat)
            keep = [a for a in acts if a["type"] not in ("cash_gold", "mission")]
            state, _ = apply(state, rng.choice(keep or acts), seat)
        scores = final_scores(state)
        for p, entry in zip(state.players, scores["players"], strict=True):
            cats = entry["categories"]
            cards = sum(reef_vp(REEFS[c]) for c in p.reefs)
            assert cats["gold"] + cats["ships"] == p.gold + sum(p.ships.values()) + cards
            held += sum(1 for c in p.reefs if reef_vp(REEFS[c]))
        assert scores["winners"] == [
            e["seat"]
            for e in scores["players"]
            if ranking_key(e) == max(map(ranking_key, scores["players"]))
        ]
    assert held > 0  # some games ended with valued cards in hand


def test_the_client_is_sent_the_engines_constants() -> None:
    sent = json.loads(json.dumps(client_content()))  # as /content.json carries it
    assert sent["tracks"] == list(TRACKS)
    assert set(TRACKS) == set(next(iter(expansion_content().reward_board.values())))
    assert {cid: r["vp"] for cid, r in sent["reefs"].items()} == {
        cid: reef_vp(card) for cid, card in REEFS.items()
    }


# Names the engine defines for these rules; a definition of any of them elsewhere is a copy.
ENGINE_ONLY = {
    "TRACKS",
    "TILE_CAP",
    "realm_heads",
    "realm_scores",
    "realm_vp",
    "majority_vp",
    "score_key",
    "ranking_key",
    "reef_vp",
    "tile_per",
    "most_missions_seats",
    "MOST_MISSIONS_VP",
    "GOLD_PER_TURBULENT_SQUARE",
    "TRIPLE_GOLD_FACTOR",
    "CONTACT_GOLD_PER_DRAGON",
    "realm_head_bits",
    "pack_legal",
    "packed_legal",
    "expand_legal",
}


def _definitions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def test_no_layer_outside_the_engine_defines_these_rules_again() -> None:
    copies = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "app").rglob("*.py"))
        if "engine" not in path.relative_to(ROOT / "app").parts[:1]
        for name in sorted(_definitions(path) & ENGINE_ONLY)
    ]
    assert copies == []


def test_the_client_keeps_no_copy_of_the_tracks_or_the_card_values() -> None:
    tracks = re.compile(r"""["']green["']\s*,\s*["']purple["']\s*,\s*["']red["']\s*\]""")
    values = re.compile(r"""(two_ships|wild_ship)["']?\s*(:|\?|===?\s*["']?\w*["']?\s*\?)\s*\d""")
    found = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "static" / "js").rglob("*.mjs"))
        if tracks.search(path.read_text()) or values.search(path.read_text())
    ]
    assert found == []


def _heads_by_realm_of(mask: int) -> tuple[tuple[int, int], ...]:
    """R-56 read straight: walk the squares in reading order, keep the first in each realm;
    on currents only, the first square."""
    heads: dict[str, tuple[int, int]] = {}
    squares = list(squares_of(mask))
    for sq in squares:
        realm = realm_of(*sq)
        if realm is not None and realm not in heads:
            heads[realm] = sq
    return tuple(heads.values()) or (squares[0],)


def test_the_ancestral_heads_of_every_placement_R56() -> None:
    """`realm_head_bits` (the bots' form) and `realm_heads` (the listed squares) are the rule
    for every placement of every shape on the board, several realms and currents included."""
    several = currents_only = 0
    for shape in content().shapes:
        for mask in placements(shape):
            want = _heads_by_realm_of(mask)
            assert realm_heads(mask) == want
            assert realm_head_bits(mask) == tuple(bit(*sq) for sq in want)
            several += len(want) > 1
            currents_only += realm_of(*want[0]) is None
    assert several > 100 and currents_only > 0
