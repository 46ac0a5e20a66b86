"""Game content loaded from the data files in `content/` (R-05..R-16)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CONTENT_DIR = Path(__file__).parent / "content"
SHIP_COLOURS = ("green", "purple", "red", "blue")
DECKS = ("S", "M", "L")  # Small (yellow), Medium (blue), Large (red) Pattern decks
# The Reward Board's three tracks, one per ship colour, in the board's order. The order
# is the one setup deals the arrows and Bonus tiles in, so it is part of every seeded game.
TRACKS = ("green", "purple", "red")


@dataclass(frozen=True)
class Mission:
    """A Mission card: ships to return by colour ("any" slots allowed) and its rewards (R-13)."""

    id: str
    ships: dict[str, int]
    vp: int
    reef: int


@dataclass(frozen=True)
class ReefCard:
    """A Reef card (R-14, R-55). `kind` decides which of the other fields matter."""

    id: str
    kind: str  # two_ships | wild_ship | hidden_dragon | gold | advance_tails | advance_tail_gold
    ships: tuple[str, ...] = ()
    realm: str = ""
    gold: int = 0
    tracks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Content:
    """Everything printed on the boards and cards, by id."""

    layouts: dict[str, tuple[str, ...]]
    shapes: dict[str, tuple[tuple[int, int], ...]]
    pattern_shape: dict[str, str]  # card id -> shape name
    pattern_deck: dict[str, str]  # card id -> "S" | "M" | "L"
    deck_cards: dict[str, tuple[str, ...]]  # deck -> card ids in printed order
    missions: dict[str, Mission]
    reefs: dict[str, ReefCard]
    base_reef_ids: tuple[str, ...]
    coral_reef_ids: tuple[str, ...]


def _reef(d: dict) -> ReefCard:
    return ReefCard(
        id=d["id"],
        kind=d["kind"],
        ships=tuple(d.get("ships", ())),
        realm=d.get("realm", ""),
        gold=d.get("gold", 0),
        tracks=tuple(d.get("tracks", ())),
    )


@cache
def content() -> Content:
    """The game content (loaded once; immutable)."""
    base = json.loads((CONTENT_DIR / "base.json").read_text())
    coral = json.loads((CONTENT_DIR / "coral_reefs.json").read_text())
    pattern_shape: dict[str, str] = {}
    pattern_deck: dict[str, str] = {}
    deck_cards: dict[str, tuple[str, ...]] = {}
    for deck in DECKS:
        cards = base["patterns"][deck]
        deck_cards[deck] = tuple(c["id"] for c in cards)
        for c in cards:
            pattern_shape[c["id"]] = c["shape"]
            pattern_deck[c["id"]] = deck
    reefs = {r["id"]: _reef(r) for r in base["reefs"] + coral}
    return Content(
        layouts={k: tuple(v) for k, v in base["layouts"].items()},
        shapes={k: tuple((r, c) for r, c in v) for k, v in base["shapes"].items()},
        pattern_shape=pattern_shape,
        pattern_deck=pattern_deck,
        deck_cards=deck_cards,
        missions={
            m["id"]: Mission(m["id"], dict(m["ships"]), m["vp"], m["reef"])
            for m in base["missions"]
        },
        reefs=reefs,
        base_reef_ids=tuple(r["id"] for r in base["reefs"]),
        coral_reef_ids=tuple(r["id"] for r in coral),
    )


@dataclass(frozen=True)
class ExpansionContent:
    """Treasures of the Deep: Hidden Treasure effects, Bonus tiles, Reward Board spaces."""

    treasures: dict[str, str]  # card id -> effect
    bonus_tiles: dict[str, dict]  # tile id -> {kind, values: [2-3 players, 4-5 players], text}
    reward_board: dict[int, dict[str, tuple[str, ...]]]  # players -> track -> spaces 1..length


@cache
def expansion_content() -> ExpansionContent:
    """The expansion's content (loaded once)."""
    treasures = json.loads((CONTENT_DIR / "treasures.json").read_text())
    tiles = json.loads((CONTENT_DIR / "bonus_tiles.json").read_text())
    board = json.loads((CONTENT_DIR / "reward_board.json").read_text())
    return ExpansionContent(
        treasures={t["id"]: t["effect"] for t in treasures},
        bonus_tiles={t["id"]: t for t in tiles},
        reward_board={
            int(n): {track: tuple(spaces) for track, spaces in tracks.items()}
            for n, tracks in board.items()
        },
    )
