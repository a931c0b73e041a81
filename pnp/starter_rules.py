"""The rules `pnp simulate` plays: a rules module written against pnp.engine.api.

game.yaml names this file (`engine: rules.py`). It defines metadata, new_state, play and
finish; docs/engine.md walks through it. Every number comes from the data files; only the ids
below name things in them, so rename those if you rename the data.
"""

from pnp.engine.api import (
    COMPLETED, MAIN, NOBODY, OVER, PREGAME, Effects, Estimate, GameMeta, Phase, PlayerState,
    State, advance, card_data, card_instances, counter_bounds, fill_result, full_supplies,
    leaders, play_turns, start_counters, start_space, supplies,
)

DECK, DISCARD = "market", "discard"  # deck.yaml's deck (its draw pile) and the discard pile
MARKET, END = "market", "end"  # game.yaml: where each player draws a card, and eats
PAY = "gold"  # stats.yaml: what card costs are paid in
SCORE = "victory-points"  # stats.yaml: the score (most wins)
FOOD = "food"  # stats.yaml: what a caravan eats (game.yaml's `upkeep:`)
PASS, BUY = "pass", "buy"
RESUMES_AT_STEPS = True  # play() keeps all it carries across phases in the state (engine.md)


def metadata(game) -> GameMeta:
    """What the harness checks without reading the rules: players, turn cap, bounds, phases."""
    return GameMeta(game=game.id, players_min=game.players_min, players_max=game.players_max,
                    max_turns=game.rule("end", "max_turns"), counter_bounds=counter_bounds(game),
                    phases=tuple(p.id for p in game.phases), score_counter=SCORE,
                    supplies=supplies(game),  # components.yaml's token supplies, if any
                    zone_visibility={DECK: NOBODY},  # nobody sees the draw pile's cards
                    # to the greedy bot a point beats anything else; a Food, which may spare
                    # a point in the End Phase, is worth two Gold
                    bot_values={SCORE: 10.0, FOOD: 2.0})


def new_state(game, players: int) -> State:
    """Counters at their start values, a pawn on each track's start, the deck in data order,
    every supply full (a stat with `supply:` takes its tokens from one: Effects does it)."""
    pawns = {t.id: start_space(t) for t in game.tracks.values()}
    return State([PlayerState(start_counters(game), dict(pawns)) for _ in range(players)],
                 zones={DECK: card_instances(game, DECK), DISCARD: []},
                 supply=full_supplies(game))


def main_state(game, players: int) -> State:
    """Right after setup: scenarios that start at a phase begin here (the deck unshuffled)."""
    state = new_state(game, players)
    state.stage, state.turn = MAIN, 1
    return state


def play(game, ctx, max_turns: int) -> None:
    """Setup, then turns of game.yaml's phases until someone meets `end:` or the turn cap."""
    st, fx = ctx.state, Effects(game, ctx)
    if st.stage == PREGAME:
        ctx.shuffle(ctx.zone(DECK), "shuffle the deck")
        st.stage, st.turn = MAIN, 1
        ctx.step("pregame")
    phases = [Phase(p.id, lambda p=p: play_phase(game, ctx, fx, p)) for p in game.phases]
    play_turns(ctx, phases, max_turns, leaders=lambda: leaders(st, SCORE))


def play_phase(game, ctx, fx, phase) -> None:
    """Every player still in plays the phase: a track to travel, the market, or eating; then
    the end check where game.yaml asks for it."""
    st = ctx.state
    for seat in st.live():
        if phase.track:
            travel(game, ctx, fx, seat, game.tracks[phase.track])
        if phase.id == MARKET:
            market(game, ctx, fx, seat)
        if phase.id == END:
            eat(game, fx, st, seat)
    goal = game.rule("end", "game_ends_when")
    if phase.end_checks and any(goal.holds(p.counters[goal.stat]) for p in st.players):
        st.stage, st.ended, st.winners = OVER, COMPLETED, leaders(st, SCORE)


def travel(game, ctx, fx, seat: int, track) -> None:
    """Roll the movement dice; move that many spaces or one fewer; take the space's effect."""
    die = game.rule("movement", "die")
    roll = sum(ctx.roll(die.sides, f"move {track.id}", seat) for _ in range(die.count))
    here = ctx.state.players[seat].pos[track.id]

    def worth(steps: int) -> Estimate:  # what the greedy bot expects from each landing
        return fx.expect(track.spaces[advance(track, here, steps)].effect)

    steps = ctx.choose(seat, [roll, roll - 1] if roll > 1 else [roll], f"move {track.id}", worth)
    space = track.spaces[advance(track, here, steps)]
    ctx.state.players[seat].pos[track.id] = space.index
    ctx.result.space_counts[(track.id, space.index)] += 1
    fx.apply(seat, space.effect, space.id)


def market(game, ctx, fx, seat: int) -> None:
    """Draw a card. A free card happens at once; any other may be bought for its cost."""
    st = ctx.state
    if not ctx.zone(DECK):  # the pile ran out: the discards, shuffled, are the new pile
        ctx.reshuffle(DISCARD, DECK, "reshuffle the discards")
    (card,) = ctx.draw_to(DECK, 1, DISCARD, "market card", seat)
    fields = card_data(game, DECK, card.card).fields
    cost, effect = fields.get("cost", 0), fields["effect"]
    if cost:
        gain = fx.expect(effect)
        gain[PAY] = gain.get(PAY, 0) - cost
        options = [PASS, BUY] if st.players[seat].counters[PAY] >= cost else [PASS]
        if ctx.choose(seat, options, f"buy {card.card}", {BUY: gain, PASS: Estimate()}.get) == PASS:
            return
        fx.add(seat, PAY, -cost)
    fx.apply(seat, effect, card.card)
    ctx.cover("card", f"{DECK}/{card.card}")


def eat(game, fx, st, seat: int) -> None:
    """The caravan eats `upkeep: eat` Food; one without that much suffers `upkeep: loss`."""
    need = game.rule("upkeep", "eat")
    if st.players[seat].counters[FOOD] >= need:
        fx.add(seat, FOOD, -need)
    else:
        fx.apply(seat, game.rule("upkeep", "loss"), "hungry")


def finish(game, ctx) -> None:
    """Turns, winners, scores, margin and every seat's final counters, for the report."""
    fill_result(ctx, SCORE)
