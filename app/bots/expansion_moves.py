"""Greedy scores for the expansion's actions (R-50..R-56), on the scale of the other scores.

Enabling actions (a Hidden Treasure used before placing, the Ancestral head) are valued by a
one-step lookahead: the best placement once the effect is on, minus what the card or head would
be worth kept for later. Since the plain placements score "best placement without", the argmax
uses the card exactly when it pays more than keeping it.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.engine import (
    CONTACT_GOLD_PER_DRAGON,
    GOLD_PER_TURBULENT_SQUARE,
    TRIPLE_GOLD_FACTOR,
    realm_head_bits,
)
from app.engine.board import ISLAND, mask_of, neighbours
from app.engine.content import DECKS, content
from app.engine.shapes import placements

from .evaluate import Evaluator, _payments
from .position import Position
from .reward import KEEP, effect_of, keep_factor

Json = dict[str, Any]


class Scorer(Protocol):
    """What these scores read of the greedy bot's scorer (greedy.Scorer, which calls them)."""

    view: Json
    pos: Position
    ev: Evaluator
    future: float

    def card_value(self, card: str) -> float: ...

    def draw_value(self, source: Json | None) -> float: ...


PRIORITY = 50.0  # a Coral Reef worth playing goes first: its treasure may serve this very turn
REEF4_GAIN = 1.2  # keeping the best of four Reef cards instead of two
ANY_TAIL_GAIN = 0.8  # steering ships to the best tracks, when the step does not list them
ANCESTRAL_KEEP = 2.5  # the head's worth at a later placement (it is placed last anyway)
EXTRA_BODY_TOP = 12  # plain placements extended square by square
FREE_SHAPE_TOP = 15  # free shapes valued exactly after a cheap pre-score
EXPANSION_TYPES = {"use_treasure", "use_ancestral", "play_reef", "choose_tail"}
EXPANSION_TYPES |= {"keep_treasure", "decline"}
# Effects that can open placements when none is affordable or legal without them.
ENABLING = ("no_cost", "triple_gold", "free_shape", "contact_gold")


def score_expansion(
    sc: Scorer, legal: list[Json], scores: list[float], raw: dict[int, float]
) -> None:
    """Fill in `scores` for the expansion actions of `legal` (`raw`: placement deltas by index)."""
    ev = sc.ev
    rw = ev.reward
    if rw is None:
        return
    me = sc.pos.me
    heads = sc.pos.mine.heads
    phase = sc.view["turn"]["phase"]
    pending = sc.view["pending"]
    front = pending[0]["kind"] if pending else None
    later = heads - 1 if phase == "place" and not front else heads  # placements after this one
    places = [i for i, a in enumerate(legal) if a.get("type") == "place"]
    best_place = max((scores[i] for i in places), default=0.0)
    if phase == "place" and not front:
        best_place = max(
            [best_place] + [scores[i] for i, a in enumerate(legal) if a["type"] == "pass"]
        )
    for i, a in enumerate(legal):
        t = a.get("type")
        if t == "play_reef":
            card = content().reefs[a["card"]]
            g = card.gold + rw.gain(me, card.tracks)
            scores[i] = PRIORITY + g if g > 0.05 else -1.0
        elif t == "choose_tail":
            scores[i] = rw.gain(me, (a["track"],))
        elif t == "keep_treasure":
            scores[i] = KEEP[effect_of(a["card"])] * keep_factor(heads + 1)
        elif t == "decline":
            scores[i] = 0.0
        elif t == "use_ancestral":
            gain = _best_with(sc, legal, places, scores, raw, "ancestral")
            scores[i] = gain - ANCESTRAL_KEEP * keep_factor(later) if places else -1.0
        elif t == "use_treasure":
            eff = effect_of(a["card"])
            keep = KEEP[eff] * keep_factor(later + 1)
            if front == "reef":
                scores[i] = REEF4_GAIN - keep
            elif front == "advance":
                scores[i] = _any_tail_gain(sc, pending[0].get("ships")) - keep
            elif phase == "place":
                if not places and eff not in ENABLING:
                    scores[i] = -1.0
                    continue
                with_eff = _best_with(sc, legal, places, scores, raw, eff)
                scores[i] = with_eff - keep if with_eff > best_place + 0.05 else -1.0
            elif eff == "convert":
                scores[i] = _convert_score(sc, a["convert"]) - keep
            elif eff == "two_missions":
                scores[i] = _two_missions_score(sc) - keep
            elif eff == "same_deck":
                scores[i] = _same_deck_score(sc) - keep
            else:
                scores[i] = -1.0


def _best_with(
    sc: Scorer,
    legal: list[Json],
    places: list[int],
    scores: list[float],
    raw: dict[int, float],
    effect: str,
) -> float:
    """Best placement score once `effect` (a treasure effect, or "ancestral") is on."""
    ev = sc.ev
    eff = frozenset({effect})
    best = -1e9
    seen: set[int] = set()
    for i in places:
        a = legal[i]
        mask = mask_of(tuple(c) for c in a["cells"])
        seen.add(mask)
        if effect in ("extra_body", "free_shape"):
            best = max(best, scores[i])  # the plain placement stays legal
            continue
        if effect == "ancestral":
            # The player picks the head's realm, among the heads the engine offers: the
            # best one counts.
            delta = max(ev.place_delta(mask, head=h, effects=eff) for h in realm_head_bits(mask))
        else:
            head = 1 << (a["head"][0] * 15 + a["head"][1])
            delta = ev.place_delta(mask, head=head, effects=eff)
        best = max(best, delta + scores[i] - raw[i])
    if effect in ("no_cost", "triple_gold", "contact_gold"):
        best = max(best, _newly_affordable(sc, seen, eff))
    elif effect == "extra_body":
        best = max(best, _extra_body(sc, legal, places, scores, raw))
    elif effect == "free_shape":
        best = max(best, _free_shape(sc))
    return best


def _any_tail_gain(sc: Scorer, ships: list[str] | None) -> float:
    """What steering each waiting ship to the best open track adds over its own colour."""
    rw = sc.ev.reward
    if rw is None or not ships:
        return ANY_TAIL_GAIN
    me = sc.pos.me
    return rw.gain(me, ("blue",) * len(ships)) - rw.gain(me, tuple(ships))


def _fits(sc: Scorer, m: int, effects: frozenset[str]) -> bool:
    """Whether the viewer can afford `m` under these effects (R-22, R-54)."""
    pos = sc.pos
    cost = (
        0 if "no_cost" in effects else GOLD_PER_TURBULENT_SQUARE * (m & sc.ev.turbulent).bit_count()
    )
    triple = TRIPLE_GOLD_FACTOR if "triple_gold" in effects else 1
    gain = (m & pos.board.gold_spaces).bit_count() * triple
    if "contact_gold" in effects:
        # The contact Gold is Gold for placing there, so it pays this very cost.
        ring = neighbours(m) & ~m
        others = (p for p in pos.players if p.seat != pos.me)
        gain += CONTACT_GOLD_PER_DRAGON * sum(
            1 for p in others for dm in p.dragon_masks if dm & ring
        )
    return cost <= pos.spendable(pos.me) + gain


def _newly_affordable(sc: Scorer, seen: set[int], eff: frozenset[str]) -> float:
    """Best placement only the effect makes affordable (the plain ones are already counted)."""
    pos = sc.pos
    if pos.spendable(pos.me) >= 2 * 7:
        return -1e9
    blocked, touch = pos.region(pos.me)
    best = -1e9
    for card in dict.fromkeys(pos.mine.hand or ()):
        for m in placements(content().pattern_shape[card]):
            if m & blocked or not m & touch or m in seen or not _fits(sc, m, eff):
                continue
            best = max(best, sc.ev.place_delta(m, effects=eff))
    return best


def _extra_body(
    sc: Scorer, legal: list[Json], places: list[int], scores: list[float], raw: dict[int, float]
) -> float:
    """Best of the top plain placements grown by one body square (R-54)."""
    pos = sc.pos
    blocked, touch = pos.region(pos.me)
    free = ~blocked & ~ISLAND
    top = sorted(places, key=lambda i: -raw[i])[:EXTRA_BODY_TOP]
    best = -1e9
    none: frozenset[str] = frozenset()
    for i in top:
        m = mask_of(tuple(c) for c in legal[i]["cells"])
        extra = neighbours(m) & ~m & free
        while extra:
            low = extra & -extra
            extra ^= low
            grown = m | low
            if grown & touch and _fits(sc, grown, none):
                best = max(best, sc.ev.place_delta(grown) + scores[i] - raw[i])
    return best


def _free_shape(sc: Scorer) -> float:
    """Best connected placement of any shape of a hand card's size (R-54), pre-scored cheaply."""
    pos = sc.pos
    board = pos.board
    blocked, touch = pos.region(pos.me)
    shapes = content().shapes
    sizes = {len(shapes[content().pattern_shape[c]]) for c in pos.mine.hand or ()}
    cands: list[tuple[float, int]] = []
    none: frozenset[str] = frozenset()
    for name, cells in shapes.items():
        if len(cells) not in sizes:
            continue
        for m in placements(name):
            if m & blocked or not m & touch:
                continue
            pre = (
                (m & board.gold_spaces).bit_count()
                - GOLD_PER_TURBULENT_SQUARE * (m & sc.ev.turbulent).bit_count()
                + 2 * (m & pos.ship_mask).bit_count()
                + 3 * (m & board.reef_spaces).bit_count()
            )
            cands.append((pre, m))
    cands.sort(reverse=True)
    best = -1e9
    for _, m in cands[:FREE_SHAPE_TOP]:
        if _fits(sc, m, none):
            best = max(best, sc.ev.place_delta(m))
    return best


def _mission_values(sc: Scorer, ships: dict[str, int]) -> list[tuple[float, dict[str, int]]]:
    """(value, tokens paid) of every market Mission payment with these ships."""
    ev = sc.ev
    me = sc.pos.mine
    out = []
    for mid in sc.pos.market_missions:
        m = content().missions[mid]
        for tokens, cards in _payments(mid, tuple(sorted(ships.items())), tuple(me.reefs or ())):
            paid = sum(ev.ship_value(me.seat, c) * k for c, k in tokens.items())
            paid += sum(ev.reef_value(me.seat, c) for c in cards)
            out.append((m.vp + ev.w.reef_draw * m.reef - paid, tokens))
    return out


def _convert_score(sc: Scorer, convert: list[str]) -> float:
    """Best Mission after converting one ship, plus the converted ship's change of worth."""
    src, dst = convert
    ships = dict(sc.pos.mine.ships)
    ships[src] -= 1
    ships[dst] = ships.get(dst, 0) + 1
    me = sc.pos.me
    shift = sc.ev.ship_value(me, dst) - sc.ev.ship_value(me, src)
    if sc.view["turn"]["missions_done"] >= sc.view["turn"]["mission_limit"]:
        return shift
    return max([0.0] + [v for v, _ in _mission_values(sc, ships)]) + shift


def _two_missions_score(sc: Scorer) -> float:
    """Best two Missions in a row (paying for the first, then the second)."""
    ships = dict(sc.pos.mine.ships)
    best = 0.0
    for v1, tokens in _mission_values(sc, ships):
        if v1 <= 0:
            continue
        rest = {c: k - tokens.get(c, 0) for c, k in ships.items()}
        v2 = max([0.0] + [v for v, _ in _mission_values(sc, rest)])
        best = max(best, v1 + v2)
    return best


def _same_deck_score(sc: Scorer) -> float:
    """What drawing from the played card's deck adds over the other decks (a later turn's card)."""
    deck = sc.view["turn"]["played_deck"]
    if not deck or sc.pos.mine.heads == 0:
        return -1.0
    market = sc.view["market"]
    same = [sc.card_value(c) for c in market[deck]]
    if sc.view["deck_sizes"].get(deck):
        same.append(sc.draw_value({"source": "deck", "deck": deck}))
    other = [sc.card_value(c) for d in DECKS if d != deck for c in market[d]]
    if not same:
        return -1.0
    return sc.future * (max(same) - max(other, default=0.0))
