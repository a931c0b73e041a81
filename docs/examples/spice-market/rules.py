"""Spice Market, the card-game example of docs/engine.md: a deck-building game written against
pnp.engine.api, moving every card through the context's zone operations and playing its turns
through the driver.

Each merchant holds a hand drawn from a deck of their own. In the Buy Phase they spend the
coins in their hand on one card of the market row; coins bought make later hands richer,
spices bought score at once. In the Cleanup Phase the hand is discarded and a new one drawn;
a deck that runs out is refreshed from its discards. Every number comes from the data.
"""

from pnp.engine.api import (
    COMPLETED, MAIN, OVER, PREGAME, Effects, Estimate, GameMeta, Phase, State, counter_bounds,
    fill_result, initial_state, leaders, per_definition, play_turns, zone_visibility,
)

COFFER, SUPPLY, MARKET = "coffer", "supply", "market"  # components.yaml: shared zones
DECK, HAND, DISCARD = "deck", "hand", "discard"  # components.yaml: each merchant's zones
PURSE, GOODS = "purse", "goods"  # deck.yaml: starting coins, the cards on sale
SCORE = "victory-points"  # stats.yaml
COINS = "coins"  # a card field, and a quantity only the greedy bot weighs (no counter)
PASS = "pass"


def metadata(game) -> GameMeta:
    """Players, turn cap, bounds and phases from the data; who sees which zone from
    components.yaml (the draw piles are face down, a hand is its owner's)."""
    return GameMeta(game=game.id, players_min=game.players_min, players_max=game.players_max,
                    max_turns=game.rule("end", "max_turns"), counter_bounds=counter_bounds(game),
                    phases=tuple(p.id for p in game.phases), score_counter=SCORE,
                    zone_visibility=zone_visibility(game),
                    bot_values={SCORE: 1.0, COINS: 0.8})  # a coin in the deck: most of a point


def new_state(game, players: int) -> State:
    """Every zone of components.yaml, the copper coins in the coffer, the goods in the supply."""
    return initial_state(game, players)


def coverage_keys(game) -> dict[str, list[str]]:
    """Only the goods can be bought; copper coins are dealt, never chosen."""
    return {"card": [f"{GOODS}/{card.id}" for card in game.decks[GOODS].cards]}


def play(game, ctx, max_turns: int) -> None:
    """Setup, then turns of a Buy and a Cleanup Phase until the end condition or the turn cap."""
    st, fx = ctx.state, Effects(game, ctx)
    size = game.rule("market", "row")
    if st.stage == PREGAME:
        setup(game, ctx, size)
        st.stage, st.turn = MAIN, 1
        ctx.step("pregame")
    phases = [Phase("buy", lambda: [buy(game, ctx, fx, seat, size) for seat in st.live()]),
              Phase("cleanup", lambda: cleanup(game, ctx))]
    play_turns(ctx, phases, max_turns, leaders=lambda: leaders(st, SCORE))


def setup(game, ctx, size: int) -> None:
    """Shuffle the goods and lay out the market; deal each merchant a purse, which they
    shuffle into their deck, and draw a first hand."""
    ctx.shuffle(ctx.zone(SUPPLY), "shuffle the goods")
    ctx.refill(MARKET, SUPPLY, size, "lay out the market")
    seats = ctx.state.live()
    ctx.deal(COFFER, DECK, seats, game.rule("market", "purse"), "deal a purse")
    for seat in seats:
        ctx.shuffle(ctx.zone((DECK, seat)), "shuffle a purse")
        draw_hand(game, ctx, seat)


def buy(game, ctx, fx, seat: int, size: int) -> None:
    """Spend the hand's coins on one card of the market, or pass; the market refills at once."""
    cards = fields_of(game)
    coins = sum(cards[c.card].get(COINS, 0) for c in ctx.zone((HAND, seat)))
    worth = {PASS: Estimate()}  # listed first: the cautious option
    for offer in ctx.zone(MARKET):
        fields = cards[offer.card]
        if offer.card not in worth and fields["cost"] <= coins:
            gain = fx.expect(fields.get("effect"))  # what buying it scores at once
            gain[COINS] = fields.get(COINS, 0)  # what it adds to every later hand it is in
            worth[offer.card] = gain
    pick = ctx.choose(seat, list(worth), "buy", worth.get)
    if pick == PASS:
        return
    card = next(c for c in ctx.zone(MARKET) if c.card == pick)
    ctx.move(card, MARKET, (DISCARD, seat), "buy", seat)
    fx.apply(seat, cards[pick].get("effect"), pick)
    ctx.cover("card", f"{GOODS}/{pick}")
    ctx.refill(MARKET, SUPPLY, size, "refill the market")


def cleanup(game, ctx) -> None:
    """Each merchant discards their hand and draws a new one; then the end check: someone has
    reached the goal of `end:`, or the market is sold out."""
    st = ctx.state
    for seat in st.live():
        hand = ctx.zone((HAND, seat))
        ctx.draw_to((HAND, seat), len(hand), (DISCARD, seat), "discard the hand", seat)
        draw_hand(game, ctx, seat)
    goal = game.rule("end", "game_ends_when")
    if any(goal.holds(p.counters[goal.stat]) for p in st.players) or not ctx.zone(MARKET):
        st.stage, st.ended, st.winners = OVER, COMPLETED, leaders(st, SCORE)


def draw_hand(game, ctx, seat: int) -> None:
    """Draw a hand from the deck; a deck that runs out takes its discards, shuffled, and the
    drawing goes on."""
    size = game.rule("market", "hand")
    drawn = ctx.draw_to((DECK, seat), size, (HAND, seat), "draw a hand", seat)
    if len(drawn) < size and ctx.reshuffle((DISCARD, seat), (DECK, seat), "reshuffle"):
        ctx.draw_to((DECK, seat), size - len(drawn), (HAND, seat), "draw a hand", seat)


@per_definition
def fields_of(game) -> dict:
    """Card id -> its fields (cost, coins, effect), for both decks: built once per GameDef."""
    return {card.id: card.fields for deck in (PURSE, GOODS) for card in game.decks[deck].cards}


def finish(game, ctx) -> None:
    """Turns, winners, scores, margin and every seat's final counters, for the report."""
    fill_result(ctx, SCORE)
