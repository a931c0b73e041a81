"""The players' actions phase: turns until everyone passed, the options of a turn (with the
greedy bot's estimates), placement fees per edition, passing, and placing a citizen."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pnp.engine.api import Estimate

from .pieces import is_damaged
from .rules import NONE
from .table import Table

#: the boosts offered where none is affordable: none
_NO_BOOST = (0,)


class Actions(Table):
    """One player's turn at a time, until all have passed."""

    def actions(self) -> None:
        st = self.st
        for p in st.players:
            p.vars["passed"] = False
        st.vars["first_pass"] = -1
        while True:
            live = [s for s in self.order() if not st.players[s].vars["passed"]]
            if not live:
                return
            for seat in self.order():
                if not st.players[seat].vars["passed"]:
                    self.turn(seat)

    def turn(self, seat: int) -> None:
        """One turn: free ambrosia actions, one action (or pass), then free ambrosia actions
        again (the rulebook: before or after the normal action)."""
        while True:
            # a search bot's replays take a stretch's options from the first replay of it
            opts, est = self.ctx.recall(self.turn_options, seat)
            pick = self.choose(seat, opts, "action", est)
            if self.spend_ambrosia(seat, pick):
                continue
            kind, _, arg = pick.partition(":")
            if kind == "pass":
                self.pass_(seat)
                return
            if kind == "place":
                self.place(seat, arg)
            elif kind == "card":
                self.card_action(seat, arg)
            elif kind == "attack":
                self.attack(seat, arg)
            elif kind == "stored":
                self.build_card(seat, int(arg), "stored")
            self.ambrosia_window(seat, "after the action", in_turn=True)
            return

    def spend_ambrosia(self, seat: int, pick: str) -> bool:
        """Carry out a free ambrosia ability (`amb-coin`, `amb-repair:UID`, `reuse:...`);
        False: `pick` is not one."""
        kind, _, arg = pick.partition(":")
        if kind == "amb-coin":
            self.gain(seat, "ambrosia", -self.rule("ambrosia", "coin"))
            self.gain(seat, "coins", 1)
            self.event("ambrosia-coin", seat)
        elif kind == "amb-repair":
            self.gain(seat, "ambrosia", -self.rule("ambrosia", "repair"))
            self.repair_uid(seat, int(arg))
            self.event("ambrosia-repair", seat)
        elif kind == "reuse":
            self.gain(seat, "ambrosia", -self.rule("ambrosia", "reuse_citizen"))
            self.event("ambrosia-reuse", seat)
            self.place(seat, arg, reuse=True)
        else:
            return False
        return True

    def ambrosia_window(self, seat: int, why: str, in_turn: bool = False) -> None:
        """Ambrosia may be spent at any time: here the player spends it (coin, repair, and
        during its own turn reusing a citizen) until `done`. No choice when nothing is
        affordable (interpretation ambrosia-any-time)."""
        while self.r.amb:
            est: dict[str, Estimate] = {"done": self.r.estimate({})}
            opts = ["done"] + self.ambrosia_options(seat, est)
            if in_turn:
                opts += self.reuse_options(seat, est)
            pick = self.choose(seat, opts, f"spend ambrosia {why}", est)
            if pick == "done":
                return
            self.spend_ambrosia(seat, pick)

    def ambrosia_options(self, seat: int, est: dict[str, Estimate]) -> list[str]:
        """Gain a coin, repair a damaged empire card (each damaged card an option)."""
        p = self.st.players[seat]
        opts = []
        if not self.r.amb:
            return opts
        if p.counters["ambrosia"] >= self.rule("ambrosia", "coin"):
            opts.append("amb-coin")
            est["amb-coin"] = self.r.estimate({"ambrosia": -2.0, "coins": 1.0})
        if p.counters["ambrosia"] >= self.rule("ambrosia", "repair"):
            for c in self.zone("empire", seat):
                if is_damaged(c):
                    o = f"amb-repair:{c.uid}"
                    opts.append(o)
                    est[o] = self.r.estimate({"ambrosia": -2.0, "victory-points": 1.0})
        return opts

    def reuse_options(self, seat: int, est: dict[str, Estimate],
                      gains: dict[str, dict[str, float] | None] | None = None) -> list[str]:
        """A citizen already on the board placed again, for 4 ambrosia. `gains`: the space
        estimates of this decision, shared with the caller (filled here as needed)."""
        p = self.st.players[seat]
        price = self.rule("ambrosia", "reuse_citizen")
        if not self.r.amb or p.counters["ambrosia"] < price:
            return []
        placed = sorted(c[0] for c in self.cits(seat) if c[1].startswith("space:"))
        if not placed:
            return []  # nothing to reuse: no option, whatever the spaces are worth
        idle_ok = self.rule("placement", "without_action")
        amb_skill = self.rule("ambrosia", "skill")
        spare = p.counters["ambrosia"] - price
        boosting = spare // amb_skill > 0
        fee_of = self.fees(seat) if boosting else partial(self.fee, seat)
        estimate = self.r.estimate
        labels = self.r.labels
        coins = p.counters["coins"]
        opts = []
        for space in self.open_spaces(self.st.turn, seat):
            if gains is None:
                gain = self.space_estimate(seat, space)
            elif space in gains:
                gain = gains[space]
            else:
                gain = gains[space] = self.space_estimate(seat, space)
            if gain is None and not idle_ok:
                continue
            g = gain or {}
            coins0 = g.get("coins", 0)
            for skill in placed:
                for boost in (self.boosts(seat, space, skill, spare, fee=fee_of) if boosting
                              else _NO_BOOST):
                    fee = fee_of(space, skill + boost)
                    if fee is None or fee > coins:
                        continue
                    key = ("reuse", space, skill, boost)
                    o = labels.get(key)
                    if o is None:
                        o = labels[key] = f"reuse:{space}/{skill}/{boost}"
                    opts.append(o)
                    est[o] = estimate({**g, "ambrosia": -4.0 - boost * amb_skill,
                                       "coins": coins0 - fee})
        return opts

    def turn_options(self, seat: int) -> tuple[list[str], dict[str, Estimate]]:
        p = self.st.players[seat]
        opts = ["pass"]
        est: dict[str, Estimate] = {}
        rnd = self.st.turn
        ready = sorted(c[0] for c in self.cits(seat) if c[1] == "ready")
        idle_ok = self.rule("placement", "without_action")  # place, and not perform it
        gains: dict[str, dict[str, float] | None] = {}  # space_estimate, once per decision
        opts += self.reuse_options(seat, est, gains)
        amb_skill = self.rule("ambrosia", "skill")
        # boosts() is asked only where one is affordable (else it offers none), and the fees
        # are remembered only where boosts ask for them again
        boosting = self.r.amb and p.counters["ambrosia"] // amb_skill > 0
        fee_of = self.fees(seat) if boosting else partial(self.fee, seat)
        coins = p.counters["coins"]
        amb_on = self.st.vars["amb"]
        estimate = self.r.estimate
        labels = self.r.labels
        placed = self.r.placements
        placed.make_room()
        for space in self.open_spaces(rnd, seat) if ready else ():  # no citizen: no placing
            gain = gains[space] if space in gains else self.space_estimate(seat, space)
            here = amb_on.get(space, 0)
            if gain is None and not here and not idle_ok:
                continue
            g = gain or {}
            coins0, amb0 = g.get("coins", 0), g.get("ambrosia", 0)
            gained = tuple(g.items())  # with the price, all a placement's estimate depends on
            by_price: dict[tuple[int, int], Estimate] = {}  # skills paying alike gain alike
            for skill in ready:
                fee = fee_of(space, skill)
                if boosting and fee != 0:  # a free placement has nothing to boost
                    priced = [(boost, fee_of(space, skill + boost))
                              for boost in self.boosts(seat, space, skill, fee=fee_of)]
                else:
                    priced = [(0, fee)]
                for boost, fee in priced:
                    if fee is None or fee > coins:
                        continue
                    key = (space, skill, boost)
                    o = labels.get(key)
                    if o is None:
                        o = labels[key] = f"place:{space}/{skill}/{boost}"
                    opts.append(o)
                    found = by_price.get((fee, boost))
                    if found is None:
                        key = (gained, fee, boost, here)
                        found = placed.get(key)
                        if found is None:
                            e = dict(g)
                            e["coins"] = coins0 - fee
                            e["ambrosia"] = amb0 - boost * amb_skill + here
                            found = placed[key] = estimate(e)
                        by_price[(fee, boost)] = found
                    est[o] = found
        # any ready citizen may go on a card's action; where no match rule is played a
        # higher number never does worse on the board, so only the lowest is offered
        # (interpretation card-action-citizen)
        skills = ready if self.rule("placement", "match_rule_on") else ready[:1]
        acts = self.r.action_cards
        for c in self.zone("empire", seat) if ready else ():
            if (c.card not in acts or (c.flags and "damaged" in c.flags)
                    or (c.tokens and c.tokens.get("occupied"))):  # is_damaged, tok, inline
                continue
            e = self.card_estimate(seat, c.card)
            if e is not None:
                for skill in skills:
                    o = f"card:{c.uid}/{skill}"
                    opts.append(o)
                    est[o] = estimate(e)
        for o, e in self.attack_options(seat):
            opts.append(o)
            est[o] = e
        if self.rule("actions", "build_stored") == "action":
            for c in self.zone("stored", seat):
                if self.can_build(seat, c.card):
                    o = f"stored:{c.uid}"
                    opts.append(o)
                    est[o] = estimate(self.card_value(seat, c.card))
        opts += self.ambrosia_options(seat, est)
        return opts, est

    def boosts(self, seat: int, space: str, skill: int, spare: int | None = None,
               fee: Callable[[str, int], int | None] | None = None) -> list[int]:
        """No boost, plus (with ambrosia) every boost that lowers the placement fee: the least
        that makes it free and, where the fee is the difference in skill (Costly Placement),
        each step on the way, 1 ambrosia for 1 coin. The skill returns to normal once the
        citizen is placed, so a boost that lowers no fee changes nothing (interpretation
        ambrosia-beyond-need). `spare`: the ambrosia left to spend (after a reuse's price);
        `fee`: fees(seat), when the caller asks for many."""
        out = [0]
        if not self.r.amb:
            return out
        amb = self.st.players[seat].counters["ambrosia"] if spare is None else spare
        have = amb // self.rule("ambrosia", "skill")
        if have <= 0:
            return out  # no boost affordable: the fee is not asked
        if fee is None:
            fee = self.fees(seat)
        last = fee(space, skill)
        if last == 0:
            return out
        for k in range(1, have + 1):
            paid = fee(space, skill + k)
            if paid is not None and (last is None or paid < last):
                out.append(k)
                last = paid
            if paid == 0:
                break
        return out

    def fees(self, seat: int) -> Callable[[str, int], int | None]:
        """fee(seat, space, skill) as a function of (space, skill), each worked out once:
        for the options of one turn, while nothing moves."""
        memo: dict[tuple[str, int], int | None] = {}
        fee = self.fee

        def of(space: str, skill: int) -> int | None:
            key = (space, skill)
            if key in memo:
                return memo[key]
            found = memo[key] = fee(seat, space, skill)
            return found

        return of

    def fee(self, seat: int, space: str, skill: int) -> int | None:
        """Coins to place a citizen of `skill` on a board space; None: not allowed."""
        r = self.r
        city = self.st.players[seat].vars.get("city", "")
        ignored = r.ignore_by.get(city)  # r.ignored(city), without the call once known
        if space in (r.ignored(city) if ignored is None else ignored):
            return 0
        here = self.st.vars["spaces"][space]
        if not here:
            return 0
        top = max([s for _, s in here])
        pay, by_difference, fee, match_on = r.fee_rule
        if pay:
            if top <= skill:
                return 0
            if by_difference:
                return top - skill
            return fee
        if space in match_on:  # higher ones too: first-edition-match
            return 0 if skill in [s for _, s in here] else fee
        if skill > top:
            return 0
        return None

    def pass_(self, seat: int) -> None:
        st = self.st
        st.players[seat].vars["passed"] = True
        self.event("pass", seat)
        if st.vars["first_pass"] < 0:
            st.vars["first_pass"] = seat
            if self.has(seat, "first-pass-store"):
                row = [(f"row:{c.uid}", c) for c in self.zone("empire-row")]
                opts = [NONE, "deck"] + [o for o, _ in row]
                est = {o: self.r.estimate({"victory-points": 0.5}) for o in opts[1:]}
                pick = self.choose(seat, opts, "store a card for passing first", est,
                                   self.by_card(row))
                if pick == "deck":
                    deck = self.current_deck()
                    self.refill_deck_from_discard(deck)
                    if self.zone(deck):
                        self.mover.take(deck, 0, ("stored", seat), "store a card", seat)
                elif pick != NONE:
                    self.store_from(seat, "empire-row", int(pick[4:]))

    def place(self, seat: int, arg: str, reuse: bool = False) -> None:
        space, skill_s, boost_s = arg.split("/")
        skill, boost = int(skill_s), int(boost_s)
        fee = self.fee(seat, space, skill + boost) or 0
        if boost:
            self.gain(seat, "ambrosia", -boost * self.rule("ambrosia", "skill"))
        self.gain(seat, "coins", -fee)
        cit = next(c for c in self.cits(seat) if c[0] == skill)
        if reuse:
            old = cit[1][6:]
            self.st.vars["spaces"][old] = [x for x in self.st.vars["spaces"][old]
                                           if x != [seat, skill]]
        cit[1] = f"space:{space}"
        self.st.vars["spaces"][space].append([seat, skill])
        self.cover("action", space)
        getattr(self, f"do_{space}")(seat)
        amb = self.st.vars["amb"].get(space, 0)
        if amb:
            self.st.vars["amb"][space] = 0
            self.st.players[seat].counters["ambrosia"] += amb

    def district_banners(self) -> float:
        """Greedy bot: the banners a district left in the deck carries on average (what
        Expand still gains in the last round, when its room can no longer be filled)."""
        deck = self.zone("districts")
        return sum(len(self.r.f(c.card, "banners") or ()) for c in deck) / max(1, len(deck))

    def space_estimate(self, seat: int, space: str) -> dict[str, float] | None:
        """What an action is worth to a greedy bot; None: it cannot be performed now."""
        p = self.st.players[seat].counters
        rule = self.rule
        if space == "labor":
            return {"coins": float(rule("actions", "labor_coins"))}
        if space == "draft":  # any active army card (actives, without the list)
            return {"draft": 1.0 if any(not (c.flags and "retired" in c.flags)
                                        for c in self.zone("armies", seat)) else 0.1}
        if space == "learn":
            if p["coins"] < rule("actions", "learn", "coins"):
                return None
            return {"coins": -3.0, "knowledge": 1.0, "victory-points": 0.3}
        if space == "expand":
            if not self.zone("districts") or (p["knowledge"] < rule("actions", "expand", "knowledge")
                                              and p["coins"] < rule("actions", "expand", "coins")):
                return None
            if self.st.turn >= self.r.rounds:  # the last round: only a district's banners count
                return {"knowledge": -1.0, "victory-points": self.district_banners()}
            return {"knowledge": -1.0, "victory-points": 1.5}
        if space == "rebuild":
            dmg = sum(1 for c in self.zone("empire", seat) if c.flags and "damaged" in c.flags)
            return {"coins": 1.0, "victory-points": min(dmg, 2) * 1.5 + 0.3}
        if space == "build":
            best = self.best_buy(seat)
            return best
        if space == "recruit":  # recruitable(seat), as a yes or no
            coins, f = p["coins"], self.r.f
            if not any(f(c.card, "cost_coins") <= coins for c in self.zone("military-row")) \
                    or not self.has_army_place(seat):
                return None
            return {"draft": 2.0, "victory-points": 0.5}
        if space == "explore":  # a stored card pays off when built in a later round
            return {"victory-points": 0.8 if self.st.turn < self.r.rounds else 0.0}
        if space == "grow":
            if p["coins"] < rule("actions", "grow", "coins") or self.st.supply["citizens"] <= 0 \
                    or len(self.cits(seat)) >= rule("setup", "citizen_skills"):
                return None
            food_ok = self.food(seat) > len(self.cits(seat))
            left = self.r.rounds - self.st.turn
            return {"coins": -3.0, "victory-points": (1.5 * left if food_ok else -2.0)}
        return None
