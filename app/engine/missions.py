"""Paying for Mission cards with ships (R-26): feasibility and the distinct minimal payments."""

from __future__ import annotations

from itertools import product
from typing import Any

from .content import SHIP_COLOURS, Mission, content


def ships_from_cards(card_ids: list[str]) -> tuple[dict[str, int], int]:
    """Ship counts by colour from Two-Ship cards, and the number of Ship Wild cards."""
    reefs = content().reefs
    pool = {c: 0 for c in SHIP_COLOURS}
    wilds = 0
    for cid in card_ids:
        card = reefs[cid]
        if card.kind == "two_ships":
            for col in card.ships:
                pool[col] += 1
        elif card.kind == "wild_ship":
            wilds += 1
    return pool, wilds


def covers(required: dict[str, int], pool: dict[str, int], wilds: int) -> bool:
    """Whether ships `pool` plus `wilds` Wild cards pay `required`.

    A ship pays a slot of its colour or an "any" slot; a Wild pays any slot; two ships of one
    colour pay one slot of any colour (R-26). Wilds go to colour deficits first (each saves
    a pair), then pairs cover what is left, then single surplus ships fill "any" slots.
    """
    deficit = 0
    surplus: list[int] = []
    for col in SHIP_COLOURS:
        need = required.get(col, 0)
        have = pool.get(col, 0)
        deficit += max(0, need - have)
        surplus.append(max(0, have - need))
    any_slots = required.get("any", 0)
    wild_left = max(0, wilds - deficit)
    deficit = max(0, deficit - wilds)
    any_slots = max(0, any_slots - wild_left)
    if sum(s // 2 for s in surplus) < deficit:
        return False
    return sum(surplus) - 2 * deficit >= any_slots


def payment_covers(mission: Mission, tokens: dict[str, int], card_ids: list[str]) -> bool:
    """Whether these ship tokens and Reef cards pay for the mission."""
    pool, wilds = ships_from_cards(card_ids)
    for col, n in tokens.items():
        pool[col] += n
    return covers(mission.ships, pool, wilds)


def is_minimal(mission: Mission, tokens: dict[str, int], card_ids: list[str]) -> bool:
    """Whether the payment covers the mission and nothing in it could be kept back."""
    cards_pool, wilds = ships_from_cards(card_ids)
    return _is_minimal(mission.ships, tokens, card_ids, cards_pool, wilds)


def _is_minimal(
    need: dict[str, int],
    tokens: dict[str, int],
    card_ids: list[str],
    cards_pool: dict[str, int],
    wilds: int,
) -> bool:
    """`is_minimal` given the cards' own ships (`ships_from_cards(card_ids)`). A card's ships
    add to a payment's, so a payment less one token or one card is this pool less that part:
    each test adjusts one pool rather than counting every card again."""
    pool = dict(cards_pool)
    for col, n in tokens.items():
        pool[col] += n
    if not covers(need, pool, wilds):
        return False
    for col, n in tokens.items():
        if n:
            pool[col] -= 1
            kept_back = covers(need, pool, wilds)
            pool[col] += 1
            if kept_back:
                return False
    reefs = content().reefs
    for cid in card_ids:
        card = reefs[cid]
        if card.kind == "two_ships":
            for col in card.ships:
                pool[col] -= 1
            kept_back = covers(need, pool, wilds)
            for col in card.ships:
                pool[col] += 1
        elif card.kind == "wild_ship":
            kept_back = covers(need, pool, wilds - 1)
        else:  # a card that pays no ship: the payment without it covers exactly as much
            kept_back = True
        if kept_back:
            return False
    return True


def _card_type(cid: str) -> tuple[Any, ...]:
    card = content().reefs[cid]
    return (card.kind, tuple(sorted(card.ships)))


# Answers of `minimal_payments` by what decides them (the mission's ships, the tokens and the
# Reef cards held, in order). A player's holdings change only when they pay or gain, so the
# legal actions of successive decisions ask the same questions again (in random games about
# two calls in three). Bounded: emptied when full.
_PAYMENTS: dict[
    tuple[Any, ...], tuple[tuple[tuple[tuple[str, int], ...], tuple[str, ...]], ...]
] = {}
PAYMENTS_KEPT = 4096


def minimal_payments(
    mission: Mission, held_tokens: dict[str, int], held_reefs: list[str]
) -> list[tuple[dict[str, int], list[str]]]:
    """Every distinct minimal payment for the mission from what a player holds (new dicts and
    lists each call: callers put them into actions)."""
    key = (
        tuple(sorted(mission.ships.items())),
        tuple(sorted(held_tokens.items())),
        tuple(held_reefs),
    )
    found = _PAYMENTS.get(key)
    if found is None:
        payments = _minimal_payments(mission, held_tokens, held_reefs)
        found = tuple((tuple(tokens.items()), tuple(cards)) for tokens, cards in payments)
        if len(_PAYMENTS) >= PAYMENTS_KEPT:
            _PAYMENTS.clear()
        _PAYMENTS[key] = found
    return [(dict(tokens), list(cards)) for tokens, cards in found]


def _minimal_payments(
    mission: Mission, held_tokens: dict[str, int], held_reefs: list[str]
) -> list[tuple[dict[str, int], list[str]]]:
    if not payment_covers(mission, held_tokens, held_reefs):
        # More ships never hurt a payment, so if all that is held cannot pay, nothing can. Most
        # calls end here (in random 4-player expansion games, about four in five).
        return []
    slots = sum(mission.ships.values())
    # Interchangeable cards (same kind and ships) give the same payment: keep one id list per type.
    by_type: dict[tuple[Any, ...], list[str]] = {}
    for cid in held_reefs:
        if content().reefs[cid].kind in ("two_ships", "wild_ship"):
            by_type.setdefault(_card_type(cid), []).append(cid)
    types = sorted(by_type)
    card_choices = product(*(range(min(len(by_type[t]), slots) + 1) for t in types))
    held = [held_tokens.get(c, 0) for c in SHIP_COLOURS]
    results = []
    for counts in card_choices:
        cards = [cid for t, k in zip(types, counts, strict=True) for cid in by_type[t][:k]]
        cards_pool, wilds = ships_from_cards(cards)
        # In a minimal payment every ship fills a slot, alone or in a pair, and every card
        # fills at least one: so at most 2 * slots - cards tokens are ever worth trying.
        for combo in _token_vectors(held, 2 * slots - len(cards)):
            tokens = {c: n for c, n in zip(SHIP_COLOURS, combo, strict=True) if n}
            if _is_minimal(mission.ships, tokens, cards, cards_pool, wilds):
                results.append((tokens, cards))
    return results


def _token_vectors(held: list[int], budget: int) -> list[tuple[int, ...]]:
    """Every per-colour token count within what is held, with at most `budget` tokens in all."""
    if not held:
        return [()]
    out = []
    for n in range(min(held[0], max(budget, 0)) + 1):
        out.extend((n, *rest) for rest in _token_vectors(held[1:], budget - n))
    return out
