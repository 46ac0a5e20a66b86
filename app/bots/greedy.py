"""The greedy bot: scores every legal action one ply deep with the static evaluation."""

from __future__ import annotations

import random
from typing import Any

from app.engine import GOLD_PER_TURBULENT_SQUARE
from app.engine.board import REALMS, mask_of
from app.engine.content import content
from app.engine.shapes import placements

from .evaluate import DEFAULT, Evaluator, Weights
from .expansion_moves import EXPANSION_TYPES, score_expansion
from .position import Position, position_from_view

Json = dict[str, Any]

KNOWN = {"place", "pass", "mission", "draw", "end_turn", "cash_gold", "keep_reef"} | EXPANSION_TYPES
FUTURE = 0.3  # weight of a card kept for a later turn: the board will have changed by then
NEVER = -1e9
UNKNOWN_FREE_LIMIT = 3  # unknown (expansion) free actions per turn step, so a bot cannot loop


def unknown_pattern_cards(pos: Position, deck: str) -> list[str]:
    """Cards of a Pattern deck the viewer cannot see: in a deck or in an opponent's hand."""
    view = pos.view
    seen = set(view["market"][deck])
    for p in view["players"]:
        seen.update(p["played"])
        seen.update(p["discarded"])
    seen.update(pos.mine.hand or ())
    return [c for c in content().deck_cards[deck] if c not in seen]


class Scorer:
    """Scores for the actions of one decision; caches card values by shape."""

    def __init__(self, view: Json, weights: Weights = DEFAULT, fast: bool = False) -> None:
        self.view = view
        self.fast = fast  # rollouts: value a deck by its face-up cards, not by every unseen shape
        self.pos = position_from_view(view)
        self.ev = Evaluator(self.pos, weights)
        self._shape_value: dict[str, float] = {}
        self._deck_value: dict[str, float] = {}
        heads = self.pos.mine.heads
        self.future = FUTURE if heads > 1 else 0.0  # the last head: later cards are worthless

    def place_score(self, action: Json) -> float:
        """Objective change of a placement (delta of the evaluation)."""
        head = 1 << (action["head"][0] * 15 + action["head"][1])
        return self.ev.place_delta(mask_of(tuple(c) for c in action["cells"]), head=head)

    def card_value(self, card: str) -> float:
        """Best placement delta of a card on the current board (0 if it has none)."""
        shape = content().pattern_shape[card]
        if shape not in self._shape_value:
            pos = self.pos
            blocked, touch = pos.region(pos.me)
            spend = pos.spendable(pos.me)
            board = pos.board
            best = 0.0
            for m in placements(shape):
                if m & blocked or not m & touch:
                    continue
                cost = GOLD_PER_TURBULENT_SQUARE * (m & self.ev.turbulent).bit_count()
                if cost > spend + (m & board.gold_spaces).bit_count():
                    continue
                best = max(best, self.ev.place_delta(m, mission_now=False))
            self._shape_value[shape] = best
        return self._shape_value[shape]

    def draw_value(self, source: Json | None) -> float:
        """Value of a Pattern draw: the card's, or the mean over the unseen cards of a deck."""
        if source is None:
            return 0.0
        if source["source"] == "market":
            return self.card_value(source["card"])
        deck = source["deck"]
        if deck not in self._deck_value and self.fast:
            faces = self.view["market"][deck]
            vals = [self.card_value(c) for c in faces]
            self._deck_value[deck] = sum(vals) / len(vals) if vals else 0.0
        if deck not in self._deck_value:
            cards = unknown_pattern_cards(self.pos, deck)
            by_shape: dict[str, int] = {}
            for c in cards:
                shape = content().pattern_shape[c]
                by_shape.setdefault(shape, c)
            # one representative card per shape, weighted by how many unseen cards share it
            shapes = [content().pattern_shape[c] for c in cards]
            vals = {s: self.card_value(c) for s, c in by_shape.items()}
            self._deck_value[deck] = sum(vals[s] for s in shapes) / len(shapes) if shapes else 0.0
        return self._deck_value[deck]

    def keep_reef_score(self, cid: str) -> float:
        """Objective change of keeping a Reef card (R-23)."""
        ev = self.ev
        card = content().reefs[cid]
        if card.kind != "hidden_dragon":
            return ev.reef_value(self.pos.me, cid)
        i = REALMS.index(card.realm)
        counts = list(ev.counts[i])
        counts[self.pos.me] += 1
        new = ev.realm_value(counts, ev.pieces[i], ev.whirl[i])
        values = [b + x - o for b, x, o in zip(ev.base, new, ev.realm_vals[i], strict=True)]
        return ev.objective(values) - ev.objective0

    def score_all(self, legal: list[Json]) -> list[float]:
        """A score per legal action (higher is better)."""
        hand = self.pos.mine.hand or []
        scores = [NEVER] * len(legal)
        best_place = NEVER
        by_card: dict[str, float] = {}
        passes: list[int] = []
        draws: list[int] = []
        raw: dict[int, float] = {}
        expansion = False
        best_mission = 0.0
        for i, a in enumerate(legal):
            t = a.get("type")
            if t == "place":
                s = self.place_score(a)
                raw[i] = s
                by_card[a["card"]] = max(by_card.get(a["card"], NEVER), s)
                scores[i] = s
            elif t == "pass":
                passes.append(i)
            elif t == "draw":
                draws.append(i)
            elif t == "mission":
                scores[i] = self.ev.mission_gain(a["mission"], a["tokens"], a["cards"])
                best_mission = max(best_mission, scores[i])
            elif t == "keep_reef":
                scores[i] = self.keep_reef_score(a["card"])
            elif t == "end_turn":
                scores[i] = 0.0
            elif t == "cash_gold":
                scores[i] = NEVER / 2  # the engine cashes when a cost needs it
            elif t in EXPANSION_TYPES:
                expansion = True
            else:
                scores[i] = 0.0  # unknown action: neutral
        # A placement also keeps the other hand card for a later turn.
        cv = {c: max(0.0, by_card.get(c, 0.0)) for c in hand}
        for i, a in enumerate(legal):
            if a.get("type") == "place":
                rest = list(hand)
                rest.remove(a["card"])
                scores[i] += self.future * max((cv[c] for c in rest), default=0.0)
                best_place = max(best_place, scores[i])
        if passes:
            self._score_passes(legal, passes, scores, cv, best_place)
        if draws:
            # In the mission step a positive Mission comes first (the draw follows anyway), so
            # draws score at most 0.
            vals = [self.draw_value(_source(legal[i])) for i in draws]
            top = max(vals)
            for i, v in zip(draws, vals, strict=True):
                scores[i] = 0.01 * (v - top)
        if expansion:
            for i, a in enumerate(legal):
                if a.get("type") in EXPANSION_TYPES:
                    scores[i] = 0.0  # neutral unless the expansion scoring knows better
            score_expansion(self, legal, scores, raw)
        return scores

    def _score_passes(
        self,
        legal: list[Json],
        passes: list[int],
        scores: list[float],
        cv: dict[str, float],
        best_place: float,
    ) -> None:
        hand = self.pos.mine.hand or []

        def kept_value(discard: str | None) -> float:
            rest = list(hand)
            if discard in rest:
                rest.remove(discard)
            return max((cv.get(c, 0.0) for c in rest), default=0.0)

        ceiling = 2.0 + self.future * max((cv.get(c, 0.0) for c in hand), default=0.0)
        if ceiling < best_place:
            # No pass can win: skip valuing every draw, just order them cheaply.
            for i in passes:
                scores[i] = 2.0 + self.future * kept_value(legal[i]["discard"]) - 100.0
            return
        vals = {}
        for i in passes:
            key = _key(legal[i]["draw"])
            if key not in vals:
                vals[key] = self.draw_value(legal[i]["draw"])
        top = max(vals.values())
        for i in passes:
            a = legal[i]
            d = vals[_key(a["draw"])] - top
            scores[i] = 2.0 + self.future * (kept_value(a["discard"]) + d)


def _source(a: Json) -> Json:
    return {k: v for k, v in a.items() if k != "type"}


def _key(source: Json | None) -> str:
    if source is None:
        return ""
    return source.get("card") or source.get("deck", "")


class GreedyBot:
    """Chooses the legal action with the best one-ply score; the rng breaks ties."""

    level = "greedy"

    def __init__(self, rng: random.Random, weights: Weights = DEFAULT, fast: bool = False) -> None:
        self.rng = rng
        self.weights = weights
        self.fast = fast
        self._free_key: tuple[int, str] | None = None
        self._free_count = 0

    def choose(self, view: Json, legal: list[Json]) -> Json:
        """Pick one element of `legal`."""
        if len(legal) == 1:
            return legal[0]
        scores = Scorer(view, self.weights, self.fast).score_all(legal)
        self._guard_unknown(view, legal, scores)
        best = max(scores)
        ties = [i for i, s in enumerate(scores) if s >= best - 1e-9]
        choice = legal[ties[0] if len(ties) == 1 else self.rng.choice(ties)]
        if choice.get("type") not in KNOWN:
            self._free_count += 1
        return choice

    def _guard_unknown(self, view: Json, legal: list[Json], scores: list[float]) -> None:
        """After a few unknown free actions in one turn step, stop taking them (no loops)."""
        key = (view["turn"]["number"], view["turn"]["phase"])
        if key != self._free_key:
            self._free_key, self._free_count = key, 0
        if self._free_count >= UNKNOWN_FREE_LIMIT and any(a.get("type") in KNOWN for a in legal):
            for i, a in enumerate(legal):
                if a.get("type") not in KNOWN:
                    scores[i] = NEVER
