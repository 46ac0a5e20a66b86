"""Static evaluation: each seat's expected final VP, and the change one placement makes to it.

The objective of a seat is its own estimate minus the opponents' (their best and their mean),
so Gold handed to opponents (R-24) and whirlpools they would have scored count against a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from app.engine import (
    CONTACT_GOLD_PER_DRAGON,
    GOLD_PER_TURBULENT_SQUARE,
    MOST_MISSIONS_VP,
    TRIPLE_GOLD_FACTOR,
    most_missions_seats,
    realm_vp,
    reef_gold,
    reef_ships,
)
from app.engine.board import CURRENTS, REALMS, neighbours
from app.engine.content import content
from app.engine.missions import minimal_payments

from .position import REALM_LIST, Position
from .reward import Reward


@dataclass(frozen=True)
class Weights:
    """Tunable constants of the evaluation, in VP."""

    ship_potential: float = 0.8  # what a ship may add through a future Mission, beyond its 1 VP
    blue_bonus: float = 0.4  # dark blue ships are the scarcest and pay the best Missions
    reef_draw: float = 3.0  # a Reef draw: keep the better of two cards
    unknown_reef: float = 2.5  # a Reef card an opponent holds, unseen
    realm_hard_min: float = 0.35  # weight of the current realm ranking at the start of the game
    most_missions: float = float(MOST_MISSIONS_VP)  # the rule's VP


DEFAULT = Weights()


@cache
def _hidden_realm(cid: str) -> str | None:
    card = content().reefs[cid]
    return card.realm if card.kind == "hidden_dragon" else None


@cache
def _held_worth(cid: str) -> tuple[tuple[str, ...], int]:
    """What a Reef card held at the end scores (R-40), as the engine counts it: the ships it
    counts as (a Wild's colour is open: valued as dark blue, the best) and its Gold."""
    card = content().reefs[cid]
    ships = reef_ships(card)
    return (card.ships or ("blue",) * ships) if ships else (), reef_gold(card)


@lru_cache(maxsize=4096)
def _payments(
    mission_id: str, ships: tuple[tuple[str, int], ...], reefs: tuple[str, ...]
) -> list[tuple[dict[str, int], list[str]]]:
    """The engine's minimal payments, cached: rollouts ask the same questions again and again."""
    return minimal_payments(content().missions[mission_id], dict(ships), list(reefs))


class Evaluator:
    """Values of the seats in one Position, and fast deltas for candidate placements."""

    def __init__(self, pos: Position, weights: Weights = DEFAULT) -> None:
        self.pos = pos
        self.w = weights
        n = pos.n
        board = pos.board
        self.turbulent = board.whirlpools | CURRENTS
        lam = weights.realm_hard_min + (1 - weights.realm_hard_min) * pos.progress
        self.lam = lam
        hidden = [[0] * n for _ in REALMS]
        for cid in pos.mine.reefs or ():
            realm = _hidden_realm(cid)
            if realm:
                hidden[REALMS.index(realm)][pos.me] += 1
        # The Ancestral head counts as two Dragons in the realm of its head.
        for d in pos.view["board"]["dragons"]:
            if d.get("ancestral"):
                hb = 1 << (d["head"][0] * 15 + d["head"][1])
                for i, rm in enumerate(REALM_LIST):
                    if hb & rm:
                        hidden[i][d["owner"]] += 1
        self.hidden = hidden
        turn = pos.view["turn"]
        mine = turn["seat"] == pos.me
        self.effects = set(turn.get("effects") or ()) if mine else set()
        # Declared, or forced: with only the Ancestral head left, placing uses it.
        me_view = pos.view["players"][pos.me]
        self.ancestral_now = mine and (
            bool(turn.get("ancestral")) or (me_view.get("ancestral") and pos.mine.heads == 1)
        )
        self.reward = Reward(pos) if pos.view.get("expansion") else None
        self._tail_cache: dict[tuple[str, ...], float] = {}
        self.counts = []
        self.pieces = []
        self.whirl = []
        for i, rm in enumerate(REALM_LIST):
            self.counts.append(
                [
                    sum(1 for dm in p.dragon_masks if dm & rm) + hidden[i][p.seat]
                    for p in pos.players
                ]
            )
            self.pieces.append([(p.pieces & rm).bit_count() for p in pos.players])
            self.whirl.append((board.whirlpools & rm & ~pos.occupied).bit_count())
        self.realm_vals = [
            self.realm_value(self.counts[i], self.pieces[i], self.whirl[i]) for i in range(4)
        ]
        self._mission_cache: dict[tuple[str, ...], float] = {}
        self.base = [self.seat_value(s) for s in range(n)]
        self.objective0 = self.objective(self.base)

    # --- values ------------------------------------------------------------------------------

    def realm_value(self, counts: list[int], pieces: list[int], whirl: int) -> list[float]:
        """Blend of the current ranking and a presence share: early leads are not yet safe."""
        n = self.pos.n
        hard = realm_vp(counts, pieces, whirl, n)
        total = sum(counts)
        if not total:
            return hard
        pool = 2.0 * whirl if n == 2 else 4.5 * whirl
        lam = self.lam
        return [lam * hard[s] + (1 - lam) * pool * counts[s] / total for s in range(n)]

    def ship_value(self, seat: int, colour: str) -> float:
        """A ship's worth: 1 VP at the end, plus its Mission potential while turns remain."""
        heads = self.pos.players[seat].heads
        pot = self.w.ship_potential * min(1.0, heads / 4)
        return 1.0 + pot + (self.w.blue_bonus * pot if colour == "blue" else 0.0)

    def reef_value(self, seat: int, cid: str) -> float:
        """A Reef card held by the seat, outside realm presence (counted in the realms)."""
        ships, gold = _held_worth(cid)
        if gold:
            return float(gold)
        if ships:
            return sum(self.ship_value(seat, c) for c in ships)
        card = content().reefs[cid]
        if card.tracks and self.reward is not None:  # Coral Reef: tail steps and Gold
            return card.gold + max(0.0, self.reward.gain(seat, card.tracks))
        return 0.0

    def missions_vp(self, seat: int) -> float:
        """Printed VP of the seat's Missions."""
        missions = content().missions
        return float(sum(missions[m].vp for m in self.pos.players[seat].missions))

    def most_missions_bonus(self, mission_lists: list[list[str]]) -> list[float]:
        """R-41 under the current Missions, as VP per seat."""
        missions = content().missions
        counts = [len(m) for m in mission_lists]
        out = [0.0] * len(counts)
        if max(counts) == 0:
            return out
        vps = [sum(missions[m].vp for m in ms) for ms in mission_lists]
        for s in most_missions_seats(counts, vps):
            out[s] = self.w.most_missions
        return out

    def seat_value(self, seat: int) -> float:
        """Expected final VP of a seat in the current position."""
        p = self.pos.players[seat]
        v = float(p.gold) + self.missions_vp(seat)
        v += sum(self.ship_value(seat, c) * k for c, k in p.ships.items())
        if p.reefs is not None:
            v += sum(self.reef_value(seat, c) for c in p.reefs)
        else:
            v += self.w.unknown_reef * p.reef_count
        v += sum(rv[seat] for rv in self.realm_vals)
        v += self.most_missions_bonus([q.missions for q in self.pos.players])[seat]
        if self.reward is not None:
            v += self.reward.seat_value(seat)
        if seat == self.pos.view["turn"]["seat"]:
            # Choices still to resolve belong to the seat whose turn it is.
            v += self._pending_tail_steps(seat)
            pending = [d for d in self.pos.view["pending"] if d["kind"] == "reef"]
            v += self.w.reef_draw * len([d for d in pending if not d.get("cards")])
            v += sum(
                max(self.reef_value(seat, c) for c in d["cards"]) for d in pending if d.get("cards")
            )
        return v

    def _pending_tail_steps(self, seat: int) -> float:
        """Tail steps still owed: ships waiting at an `advance` step, dark blue choices (R-50)."""
        if self.reward is None:
            return 0.0
        steps: list[str] = []
        for d in self.pos.view["pending"]:
            if d["kind"] == "advance":
                steps.extend(d.get("ships") or ())
            elif d["kind"] == "tail":
                steps.append("blue")  # "blue" takes the best open track
        return self.reward.gain(seat, tuple(steps)) if steps else 0.0

    def objective(self, values: list[float]) -> float:
        """Own value minus the opponents' (half their best, half their mean)."""
        me = self.pos.me
        others = [v for s, v in enumerate(values) if s != me]
        if not others:
            return values[me]
        return values[me] - 0.5 * max(others) - 0.5 * sum(others) / len(others)

    # --- placements --------------------------------------------------------------------------

    def tail_gain(self, ships: tuple[str, ...]) -> float:
        """VP the viewer's tails gain from these ships (expansion; 0 in base games)."""
        if self.reward is None or not ships:
            return 0.0
        if ships not in self._tail_cache:
            self._tail_cache[ships] = self.reward.gain(self.pos.me, ships)
        return self._tail_cache[ships]

    def place_delta(
        self, mask: int, mission_now: bool = True, head: int = 0, effects: frozenset = frozenset()
    ) -> float:
        """Objective change when the viewer places a Dragon on `mask` (R-22..R-24, R-54, R-56).

        `head` (a square bit) matters when the Ancestral head is declared; `effects` are Hidden
        Treasure effects assumed on top of the turn's own (for a lookahead).
        """
        pos = self.pos
        board = pos.board
        me = pos.me
        n = pos.n
        deltas = [0.0] * n
        effects = self.effects | effects if effects else self.effects
        gain = (mask & board.gold_spaces).bit_count()
        cost = GOLD_PER_TURBULENT_SQUARE * (mask & self.turbulent).bit_count()
        if effects:
            if "no_cost" in effects:
                cost = 0
            if "triple_gold" in effects:
                gain *= TRIPLE_GOLD_FACTOR
        d = float(gain - cost)
        ships = mask & pos.ship_mask
        gained: list[str] = []
        while ships:
            low = ships & -ships
            gained.append(pos.ship_at[low])
            ships ^= low
        for col in gained:
            d += self.ship_value(me, col)
        if gained and self.reward is not None:
            d += self.tail_gain(tuple(gained))
        if self.reward is not None:
            d += self.reward.place_tile_gain(me, mask)
        if gained and mission_now:
            d += self.mission_now_gain(tuple(sorted(gained))) - self.mission_now_gain(())
        d += self.w.reef_draw * (mask & board.reef_spaces).bit_count()
        deltas[me] = d
        ring = neighbours(mask) & ~mask
        if ring & pos.occupied:
            for p in pos.players:
                if p.seat != me and ring & p.pieces:
                    touched = sum(1 for dm in p.dragon_masks if dm & ring)
                    deltas[p.seat] += touched
                    if "contact_gold" in effects:
                        deltas[me] += CONTACT_GOLD_PER_DRAGON * touched
        ancestral = self.ancestral_now or "ancestral" in effects
        whirlpools = board.whirlpools
        for i, rm in enumerate(REALM_LIST):
            inside = mask & rm
            if not inside:
                continue
            counts = list(self.counts[i])
            pieces = list(self.pieces[i])
            counts[me] += 2 if ancestral and head & rm else 1
            pieces[me] += inside.bit_count()
            whirl = self.whirl[i] - (inside & whirlpools).bit_count()
            new = self.realm_value(counts, pieces, whirl)
            old = self.realm_vals[i]
            for s in range(n):
                deltas[s] += new[s] - old[s]
        return self.objective([b + x for b, x in zip(self.base, deltas, strict=True)]) - (
            self.objective0
        )

    # --- missions ----------------------------------------------------------------------------

    def mission_now_gain(self, extra_ships: tuple[str, ...]) -> float:
        """Best gain from completing a market Mission this turn with `extra_ships` added."""
        if extra_ships not in self._mission_cache:
            self._mission_cache[extra_ships] = self._best_mission(extra_ships)
        return self._mission_cache[extra_ships]

    def _best_mission(self, extra: tuple[str, ...]) -> float:
        me = self.pos.mine
        ships = dict(me.ships)
        for c in extra:
            ships[c] = ships.get(c, 0) + 1
        missions = content().missions
        best = 0.0
        for mid in self.pos.market_missions:
            m = missions[mid]
            for tokens, cards in _payments(
                mid, tuple(sorted(ships.items())), tuple(me.reefs or ())
            ):
                paid = sum(self.ship_value(self.pos.me, c) * k for c, k in tokens.items())
                paid += sum(self.reef_value(self.pos.me, c) for c in cards)
                best = max(best, m.vp + self.w.reef_draw * m.reef - paid)
        return best

    def mission_gain(self, mission_id: str, tokens: dict[str, int], cards: list[str]) -> float:
        """Objective change of completing a Mission with this payment (R-26)."""
        me = self.pos.me
        m = content().missions[mission_id]
        paid = sum(self.ship_value(me, c) * k for c, k in tokens.items())
        paid += sum(self.reef_value(me, c) for c in cards)
        lists = [list(p.missions) for p in self.pos.players]
        before = self.most_missions_bonus(lists)
        lists[me].append(mission_id)
        after = self.most_missions_bonus(lists)
        values = list(self.base)
        for s in range(self.pos.n):
            values[s] += after[s] - before[s]
        values[me] += m.vp + self.w.reef_draw * m.reef - paid
        return self.objective(values) - self.objective0
