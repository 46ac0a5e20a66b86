"""The game state: plain dataclasses, cheap to clone, with an exact JSON round trip."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from .board import Board, build_board, mask_of
from .content import content

COLOURS = ("orange", "green", "purple", "pink", "yellow")  # seat order
MIN_PLAYERS, MAX_PLAYERS = 2, 5  # a game's size
HEADS_BY_PLAYERS = {2: 14, 3: 11, 4: 8, 5: 7}


@dataclass(frozen=True)
class GameOptions:
    """What the table chose before the game: player count, expansion, fixed layouts, first seat."""

    players: int
    expansion: bool = False
    layouts: tuple[str, ...] | None = None  # one layout id per realm (REALMS order), or random
    first_player: int | None = None  # None: drawn at random

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players}")
        if self.layouts is not None:
            # lid[:1], not lid[0]: an empty id must be refused as invalid, not crash.
            boards = sorted(lid[:1] for lid in self.layouts)
            if boards != ["1", "2", "3", "4"] or any(
                lid not in content().layouts for lid in self.layouts
            ):
                raise ValueError(f"layouts must use each board 1-4 once: {self.layouts}")
        if self.first_player is not None and not 0 <= self.first_player < self.players:
            raise ValueError(f"first_player out of range: {self.first_player}")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "players": self.players,
            "expansion": self.expansion,
            "layouts": list(self.layouts) if self.layouts else None,
            "first_player": self.first_player,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameOptions:
        """Parse the JSON form (raises ValueError on bad values)."""
        layouts = d.get("layouts")
        return cls(
            players=int(d["players"]),
            expansion=bool(d.get("expansion", False)),
            layouts=tuple(layouts) if layouts else None,
            first_player=d.get("first_player"),
        )


@dataclass(frozen=True)
class Dragon:
    """One placed Dragon: its squares, its head, the card that placed it."""

    owner: int
    cells: tuple[tuple[int, int], ...]
    head: tuple[int, int]
    card: str
    ancestral: bool = False
    mask: int = field(init=False, repr=False, compare=False)  # derived from cells

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask", mask_of(self.cells))

    @cached_property
    def view(self) -> dict[str, Any]:
        """The JSON form as views show it, built once: a Dragon never changes once placed and
        states share it (`State.clone`), so every view of every later state shares this dict
        (read-only, as views are), and a diff of two boards finds it unchanged by identity."""
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        """JSON form: public in full (views send it as it is stored)."""
        return {
            "owner": self.owner,
            "cells": [list(x) for x in self.cells],
            "head": list(self.head),
            "card": self.card,
            "ancestral": self.ancestral,
        }


@dataclass
class Player:
    """One seat's holdings. `hand`, `reefs` and `treasures` are secret (R-60)."""

    seat: int
    colour: str
    gold: int
    heads: int
    hand: list[str] = field(default_factory=list)
    reefs: list[str] = field(default_factory=list)
    ships: dict[str, int] = field(default_factory=dict)  # ship tokens held, by colour
    missions: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)  # Pattern cards played face up
    discarded: list[str] = field(default_factory=list)  # Pattern cards discarded by passing
    # Treasures of the Deep
    ancestral: bool = False  # the Ancestral Dragon Head is still in supply
    treasures: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # personal discard pile: used Reef/Treasure
    reefs_acquired: int = 0
    treasures_acquired: int = 0
    tails: dict[str, int] = field(default_factory=dict)
    pieces: int = 0  # derived: mask of this player's pieces (not serialised)

    def clone(self) -> Player:
        """A copy whose containers can be changed freely."""
        p = Player(**self.__dict__)
        p.hand = list(self.hand)
        p.reefs = list(self.reefs)
        p.ships = dict(self.ships)
        p.missions = list(self.missions)
        p.played = list(self.played)
        p.discarded = list(self.discarded)
        p.treasures = list(self.treasures)
        p.used = list(self.used)
        p.tails = dict(self.tails)
        return p


@dataclass
class Turn:
    """Where the current turn stands."""

    seat: int
    phase: str = "place"  # place -> mission -> draw; "over" once the game has ended
    number: int = 1  # turns started so far
    played_deck: str | None = None  # deck of the Pattern card played this turn
    missions_done: int = 0
    mission_limit: int = 1  # 2 with the Hidden Treasure that allows it
    treasure_used: bool = False  # at most one Hidden Treasure per turn
    effects: list[str] = field(default_factory=list)  # Hidden Treasure effects active this turn
    ancestral: bool = False  # the next placement uses the Ancestral Dragon Head
    # What `take_back` may undo, newest last: {"kind": "ancestral"} or {"kind": "treasure",
    # "card", "index" (its place in the treasures held)}. Emptied by any other action.
    undo: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class State:
    """Everything about one game. Deck order is secret from everyone (R-60)."""

    options: GameOptions
    layouts: tuple[str, ...]
    ships_on_board: dict[tuple[int, int], str]
    dragons: list[Dragon]
    players: list[Player]
    decks: dict[str, list[str]]  # S, M, L, missions, reefs, treasures: index 0 is the top
    market: dict[str, list[str]]  # S, M, L: up to 2 face up; missions: up to 4
    turn: Turn
    pending: list[dict[str, Any]] = field(default_factory=list)  # R-25, oldest first
    reward: dict[str, Any] = field(default_factory=dict)  # expansion: arrows, bonus tiles
    occupied: int = 0  # derived: mask of all pieces (not serialised)

    @property
    def board(self) -> Board:
        """The printed board of this game."""
        return board_for(self.layouts)

    @property
    def over(self) -> bool:
        """Whether the game has ended (R-30)."""
        return self.turn.phase == "over"

    def clone(self) -> State:
        """A copy that `apply` may change without touching this one."""
        return State(
            options=self.options,
            layouts=self.layouts,
            ships_on_board=dict(self.ships_on_board),
            dragons=list(self.dragons),
            players=[p.clone() for p in self.players],
            decks={k: list(v) for k, v in self.decks.items()},
            market={k: list(v) for k, v in self.market.items()},
            turn=Turn(
                **{
                    **self.turn.__dict__,
                    "effects": list(self.turn.effects),
                    "undo": list(self.turn.undo),
                }
            ),
            pending=[dict(d) for d in self.pending],
            reward=self.reward,  # fixed after setup
            occupied=self.occupied,
        )

    def add_dragon(self, dragon: Dragon) -> None:
        """Put a Dragon on the board, keeping the derived masks in step."""
        self.dragons.append(dragon)
        m = dragon.mask
        self.occupied |= m
        self.players[dragon.owner].pieces |= m


@cache
def board_for(layouts: tuple[str, ...]) -> Board:
    """The (cached) board for a choice of layouts."""
    return build_board(layouts, content().layouts)


def _sq(rc: Any) -> tuple[int, int]:
    return (int(rc[0]), int(rc[1]))


def state_to_json(state: State) -> dict[str, Any]:
    """The state as JSON-ready data (what the server stores as a snapshot)."""
    return {
        "options": state.options.to_dict(),
        "layouts": list(state.layouts),
        "ships_on_board": [[r, c, col] for (r, c), col in sorted(state.ships_on_board.items())],
        # Each Dragon's JSON is built once and shared (Dragon.view): it is the same form.
        "dragons": [d.view for d in state.dragons],
        "players": [{k: v for k, v in p.__dict__.items() if k != "pieces"} for p in state.players],
        "decks": {k: list(v) for k, v in state.decks.items()},
        "market": {k: list(v) for k, v in state.market.items()},
        "turn": _turn_json(state.turn),
        "pending": [dict(d) for d in state.pending],
        "reward": state.reward,
    }


def _turn_json(turn: Turn) -> dict[str, Any]:
    out = {**turn.__dict__, "effects": list(turn.effects), "undo": [dict(u) for u in turn.undo]}
    if not turn.undo:
        del out["undo"]  # usually empty: snapshots stay as they were before take-backs existed
    return out


def state_from_json(d: dict[str, Any]) -> State:
    """Rebuild a state from `state_to_json` output (exact round trip)."""
    state = State(
        options=GameOptions.from_dict(d["options"]),
        layouts=tuple(d["layouts"]),
        ships_on_board={(r, c): col for r, c, col in d["ships_on_board"]},
        dragons=[],
        players=[Player(**p) for p in d["players"]],
        decks={k: list(v) for k, v in d["decks"].items()},
        market={k: list(v) for k, v in d["market"].items()},
        turn=Turn(**d["turn"]),
        pending=[dict(x) for x in d["pending"]],
        reward=d["reward"],
    )
    for p in state.players:
        p.hand, p.reefs, p.missions = list(p.hand), list(p.reefs), list(p.missions)
        p.ships, p.tails = dict(p.ships), dict(p.tails)
    for x in d["dragons"]:
        state.add_dragon(
            Dragon(
                owner=x["owner"],
                cells=tuple(_sq(c) for c in x["cells"]),
                head=_sq(x["head"]),
                card=x["card"],
                ancestral=x["ancestral"],
            )
        )
    return state
