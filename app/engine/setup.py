"""Game setup, steps A-I of the rulebook (R-05, R-10, R-15, R-20)."""

from __future__ import annotations

import random

from .board import squares_of
from .content import DECKS, SHIP_COLOURS, content
from .state import COLOURS, HEADS_BY_PLAYERS, GameOptions, Player, State, Turn, board_for

SHIP_TOKENS = {"green": 12, "purple": 11, "red": 11, "blue": 10}
STARTING_GOLD = 4
MARKET_SIZE = {"S": 2, "M": 2, "L": 2, "missions": 4}


def _choose_layouts(rng: random.Random) -> tuple[str, ...]:
    # A: the four boards in a random order, each on a random side.
    boards = ["1", "2", "3", "4"]
    rng.shuffle(boards)
    return tuple(b + rng.choice("AB") for b in boards)


def new_game(options: GameOptions, seed: int) -> State:
    """A new game, set up from the options; the seed decides every shuffle."""
    rng = random.Random(seed)
    c = content()
    layouts = options.layouts or _choose_layouts(rng)
    board = board_for(tuple(layouts))

    # B: a random ship token on each ship space (44 spaces, 44 tokens).
    tokens = [col for col in SHIP_COLOURS for _ in range(SHIP_TOKENS[col])]
    rng.shuffle(tokens)
    spaces = list(squares_of(board.ship_spaces))
    assert len(spaces) == len(tokens), "content: the board must have 44 ship spaces (R-06)"
    ships_on_board = dict(zip(spaces, tokens, strict=True))

    # C-E: shuffle every deck, reveal the markets.
    decks: dict[str, list[str]] = {}
    for deck in DECKS:
        decks[deck] = list(c.deck_cards[deck])
    decks["missions"] = list(c.missions)
    decks["reefs"] = list(c.base_reef_ids) + (list(c.coral_reef_ids) if options.expansion else [])
    for cards in decks.values():
        rng.shuffle(cards)
    market = {name: [decks[name].pop(0) for _ in range(n)] for name, n in MARKET_SIZE.items()}

    # G-I: colours, heads, 4 Gold and 2 Medium cards each, dealt after the market.
    n = options.players
    players = []
    for seat in range(n):
        hand = [decks["M"].pop(0), decks["M"].pop(0)]
        players.append(
            Player(
                seat=seat,
                colour=COLOURS[seat],
                gold=STARTING_GOLD,
                heads=HEADS_BY_PLAYERS[n],
                hand=hand,
                ships={col: 0 for col in SHIP_COLOURS},
            )
        )
    first = options.first_player if options.first_player is not None else rng.randrange(n)
    state = State(
        options=options,
        layouts=tuple(layouts),
        ships_on_board=ships_on_board,
        dragons=[],
        players=players,
        decks=decks,
        market=market,
        turn=Turn(seat=first),
    )
    if options.expansion:
        from .expansion import setup_expansion

        setup_expansion(state, rng)
    return state
