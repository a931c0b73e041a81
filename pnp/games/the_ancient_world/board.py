"""The nine board actions (Labor, Build, Draft, Expand, Learn, Rebuild, Recruit, Explore,
Grow) and what they share: building a card, storing one, a new or upgraded citizen."""

from __future__ import annotations

from math import comb
from typing import Any

from .pieces import is_damaged, is_retired, set_flag, set_tok, tok
from .rules import NONE
from .table import Table, at

#: greedy bot: what feeding one more citizen at the round's end is worth, in victory points
#: (the round of its action a starving citizen loses, and the penalty should it end the game
#: starving; the same worth the bot gives feeding a citizen with ambrosia)
FED_CITIZEN = 3.0


def best_of(values: list[float], n: int) -> float:
    """The expected best of n values taken at random, without replacement, from `values`
    (sorted ascending): the k-th smallest is the best with chance C(k-1, n-1) / C(m, n)."""
    m = len(values)
    n = max(1, min(n, m))
    return sum(comb(k - 1, n - 1) * v for k, v in enumerate(values, 1)) / comb(m, n)


class Board(Table):
    """The board actions a citizen performs."""

    def card_value(self, seat: int, cid: str,
                   fed: tuple[int, int] | None = None) -> dict[str, float]:
        """What building `cid` is worth to a greedy bot (read only: one dict per card, round
        and change in fed citizens). `fed`: (citizens, food) of the seat, when a caller asks
        for many cards."""
        return self.card_worth(seat, cid, fed)[0]

    def card_worth(self, seat: int, cid: str,
                   fed: tuple[int, int] | None = None) -> tuple[dict[str, float], float]:
        """card_value and the sum of its values, worked out once per card, rounds left and
        change in fed citizens (all they depend on). The change: citizens fed at the end of
        the round after gaining the card's food and citizens, less those fed now (a citizen
        card without food adds a hungry mouth, which starves and sits out the next round, and
        food where citizens go hungry feeds them)."""
        f = self.r.cards[cid]
        left = max(0, self.r.rounds - self.st.turn)
        have, food = (len(self.cits(seat)), self.food(seat)) if fed is None else fed
        citizens, gained = f.get("citizen", 0), f.get("food", 0)
        change = min(have + citizens, food + gained) - min(have, food) - citizens
        key = (cid, left, change)
        found = self.r.values.get(key)
        if found is None:
            vp = (2.2 * len(f.get("banners", ())) + f.get("vp", 0) + 0.4 * f.get("bonus_vp", 0)
                  + left * (0.35 * f.get("income", 0) + 0.5 * f.get("knowledge", 0)
                            + 0.2 * f.get("ambrosia", 0))
                  + 0.8 * (f.get("swords", 0) + f.get("arrows", 0)) + 1.5 * f.get("food", 0)
                  + f.get("army", 0) + 1.5 * f.get("citizen", 0)
                  + FED_CITIZEN * change)
            v = {"victory-points": vp, "coins": -float(f.get("cost_coins", 0)),
                 "knowledge": -float(f.get("cost_knowledge", 0))}
            found = self.r.values[key] = (v, sum(v.values()))
        return found

    def can_build(self, seat: int, cid: str, free: bool = False, leaving: int = 0) -> bool:
        """The player may build `cid`: not owned, room in the empire (after `leaving` cards
        go, as the Crane does before the card it pays for), and the cost paid unless free."""
        p = self.st.players[seat].counters
        f = self.r.cards[cid]
        empire = self.zone("empire", seat)
        for c in empire:
            if c.card == cid:
                return False
        if len(empire) - leaving >= self.capacity(seat):
            return False
        if free:
            return True
        return p["coins"] >= f.get("cost_coins", 0) and p["knowledge"] >= f.get("cost_knowledge", 0)

    def buyable(self, seat: int) -> list[tuple[str, Any]]:
        out = [("empire-row", c) for c in self.zone("empire-row")]
        if self.rule("actions", "build_from_c"):
            out += [("empire-c", c) for c in self.zone("empire-c")]
        if self.rule("actions", "build_stored") == "build":
            out += [("stored", c) for c in self.zone("stored", seat)]
        return out

    def best_buy(self, seat: int) -> dict[str, float] | None:
        """The best card Build could take (None: Build can take none): one the player can pay
        for, or with a Crane one free of coins and knowledge."""
        best = None
        best_sum = 0.0
        cards = self.r.cards
        # can_build, with what it reads looked up once for every card offered; the Crane
        # (crane(seat)) found on the same pass
        empire = self.zone("empire", seat)
        owned = set()
        crane = None
        for c in empire:
            owned.add(c.card)
            if (crane is None and cards[c.card].get("ability", 0) == "crane"
                    and not (c.flags and "damaged" in c.flags)):
                crane = c
        room = self.capacity(seat) - len(empire)  # can_build: room > -leaving
        p = self.st.players[seat].counters
        coins, knowledge = p["coins"], p["knowledge"]
        fed = None
        for _, c in self.buyable(seat):
            cid = c.card
            if cid in owned:
                continue
            f = cards[cid]
            if room > 0 and coins >= f.get("cost_coins", 0) and knowledge >= f.get(
                    "cost_knowledge", 0):
                if fed is None:
                    fed = (len(self.cits(seat)), self.food(seat))
                    have, food = fed
                    left = max(0, self.r.rounds - self.st.turn)
                    values = self.r.values
                # card_worth(seat, cid, fed), its memo read inline
                citizens = f.get("citizen", 0)
                found = values.get((cid, left, min(have + citizens, food + f.get("food", 0))
                                    - min(have, food) - citizens))
                v, total = self.card_worth(seat, cid, fed) if found is None else found
            elif crane is not None and cid != crane.card and room > -1:  # free; the Crane leaves
                v = self.crane_value(seat, cid)
                total = sum(v.values())
            else:
                continue
            if best is None or total > best_sum:
                best = v
                best_sum = total
        return best

    def crane(self, seat: int) -> Any:
        """The player's undamaged Crane, if any."""
        return next((c for c in self.zone("empire", seat)
                     if self.r.f(c.card, "ability") == "crane" and not is_damaged(c)), None)

    def crane_value(self, seat: int, cid: str) -> dict[str, float]:
        v = dict(self.card_value(seat, cid))
        v["coins"] = 0.0
        v["knowledge"] = 0.0
        v["victory-points"] -= 2.5
        return v

    def do_labor(self, seat: int) -> None:
        self.gain(seat, "coins", self.rule("actions", "labor_coins"))
        if self.has(seat, "scribe-own-labor") and self.st.players[seat].counters["coins"] >= 1:
            pick = self.choose(seat, ["no", "scribe"], "Scribe Guild: pay 1 coin for 1 knowledge",
                               {"scribe": self.r.estimate({"coins": -1.0, "knowledge": 1.0})})
            if pick == "scribe":
                self.gain(seat, "coins", -1)
                self.gain(seat, "knowledge", 1)
                self.event("scribe-guild", seat)

    def do_draft(self, seat: int) -> None:
        self.st.players[seat].vars["draft"] += self.rule("actions", "draft_swords")

    def do_learn(self, seat: int) -> None:
        """Pay for knowledge; the second edition's Distant Outpost fires on the placement
        itself (paid or not), the first edition's cards when the player to the side learns."""
        cost = self.rule("actions", "learn")
        if self.has(seat, "outpost-own-learn"):
            self.lift_coin(seat, "Distant Outpost: lift a coin off a military card")
        if self.st.players[seat].counters["coins"] < cost["coins"]:
            return
        self.gain(seat, "coins", -cost["coins"])
        self.gain(seat, "knowledge", cost["knowledge"])
        for other in range(self.n):
            if other == seat:
                continue
            if (seat == (other - 1) % self.n and self.has(other, "outpost-right-learn")):
                self.lift_coin(other, "Distant Outpost: lift a coin off a military card")
            if (seat == (other + 1) % self.n and self.has(other, "scribe-left-learn")
                    and self.st.players[other].counters["coins"] >= 1):
                pick = self.choose(other, ["no", "scribe"], "Scribe Guild: pay 1 coin for 1 knowledge",
                                   {"scribe": self.r.estimate({"coins": -1.0, "knowledge": 1.0})})
                if pick == "scribe":
                    self.gain(other, "coins", -1)
                    self.gain(other, "knowledge", 1)

    def lift_coin(self, seat: int, why: str) -> None:
        cards = [c for c in self.zone("armies", seat) if tok(c, "name") + tok(c, "picture")]
        if not cards:
            return
        pairs = [(f"{c.uid}/{w}", c) for c in cards for w in ("name", "picture") if tok(c, w)]
        opts = [NONE] + [o for o, _ in pairs]
        est = {o: self.r.estimate({"coins": 0.5 if o.endswith("picture") else 0.8})
               for o in opts[1:]}
        pick = self.choose(seat, opts, why, est, self.by_card(pairs))
        if pick == NONE:
            return
        uid, where = pick.split("/")
        card = next(c for c in cards if c.uid == int(uid))
        set_tok(card, where, tok(card, where) - 1)
        self.st.supply["coins"] += 1
        self.event("coin-lifted", seat)

    def do_expand(self, seat: int) -> None:
        p = self.st.players[seat].counters
        cost = self.rule("actions", "expand")
        pays = []
        if p["knowledge"] >= cost["knowledge"]:
            pays.append("knowledge")
        if p["coins"] >= cost["coins"]:
            pays.append("coins")
        deck = self.zone("districts")
        if not pays or not deck:
            return
        est = {"knowledge": self.r.estimate({"knowledge": -float(cost["knowledge"])}),
               "coins": self.r.estimate({"coins": -float(cost["coins"])})}
        pay = self.choose(seat, pays, "pay for Expand", est)
        self.gain(seat, pay, -cost[pay])
        drawn = deck[:cost["draw"]]  # looked at on the deck; the rest go back under it
        opts = [f"district:{c.uid}" for c in drawn]
        if len(drawn) > 1 and self.r.second:  # the second edition may keep none; Expand+ keeps one
            opts = [NONE] + opts
        last = self.st.turn >= self.r.rounds  # room for cards no later round can fill is worth 0
        est2 = {f"district:{c.uid}": self.r.estimate({"victory-points": (0 if last else self.r.f(
            c.card, "capacity")) + len(self.r.f(c.card, "banners") or ())}) for c in drawn}
        pick = self.choose(seat, opts, "keep a district", est2,
                           self.by_card((f"district:{c.uid}", c) for c in drawn))
        for c in drawn:
            c.face_up = None
            if pick == f"district:{c.uid}":
                self.mover.move(c, "districts", ("lands", seat), "keep a district", seat)
                self.cover("card", f"districts/{c.card}")
            else:
                self.mover.move(c, "districts", "districts", "a district back under the deck",
                                seat)
        self.flip_top("districts")

    def do_rebuild(self, seat: int) -> None:
        self.repair_some(seat, self.rule("actions", "rebuild", "repairs"), "Rebuild")
        self.gain(seat, "coins", self.rule("actions", "rebuild", "coins"))
        self.claim_first(seat)

    def claim_first(self, seat: int) -> None:
        if not self.st.vars["hand"]:  # the token changes hands now, play order next round
            self.st.vars["next_first"] = seat
            self.st.vars["hand"] = True
            self.event("first-player-claimed", seat)

    def repair_some(self, seat: int, n: int, why: str) -> None:
        """Repair up to n damaged empire cards, the player choosing which (`repair:UID`, one
        at a time); a repair costs nothing, so as many as n are repaired."""
        for _ in range(n):
            dmg = [c for c in self.zone("empire", seat) if is_damaged(c)]
            if not dmg:
                return
            opts = [f"repair:{c.uid}" for c in dmg]
            est = {f"repair:{c.uid}": self.r.estimate(self.card_value(seat, c.card)) for c in dmg}
            pick = self.choose(seat, opts, f"{why}: repair a damaged empire card", est,
                               self.by_card(zip(opts, dmg, strict=True)))
            self.repair_uid(seat, int(pick[7:]))

    def repair_uid(self, seat: int, uid: int) -> None:
        for c in self.zone("empire", seat):
            if c.uid == uid:
                set_flag(c, "damaged", False)

    def recruitable(self, seat: int) -> list[tuple[Any, str]]:
        coins = self.st.players[seat].counters["coins"]
        places = self.army_places(seat)
        if not places:
            return []
        return [(c, pl) for c in self.zone("military-row")
                if self.r.f(c.card, "cost_coins") <= coins for pl in places]

    def has_army_place(self, seat: int) -> bool:
        """Whether army_places(seat) offers any place, without writing the places out."""
        armies = self.armies(seat)
        if len(armies) < self.army_limit(seat):
            return True
        used_ok = None
        for cards in armies.values():
            active = [c for c in cards if not is_retired(c)]
            if not active:
                return True  # an army of retired cards only
            if used_ok is None:
                used_ok = self.city(seat).get("retire_used", False)
            if used_ok or any(not tok(c, "name") for c in active):
                return True  # a card it may retire
        return False

    def army_places(self, seat: int) -> list[str]:
        armies = self.armies(seat)
        out = [f"army:{i}" for i, cards in sorted(armies.items())
               if not any(not is_retired(c) for c in cards)]
        if len(armies) < self.army_limit(seat):
            out.append("new")
        if out:
            return out
        used_ok = self.city(seat).get("retire_used", False)
        return [f"retire:{i}" for i, cards in sorted(armies.items())
                for c in cards if not is_retired(c) and (used_ok or not tok(c, "name"))]

    def do_recruit(self, seat: int) -> None:
        pairs = self.recruitable(seat)
        if not pairs:
            return
        opts = [f"{c.uid}@{pl}" for c, pl in pairs]
        f = self.r.f
        est = {o: self.r.estimate({"draft": float(f(c.card, "swords") + f(c.card, "arrows")),
                            "coins": -float(f(c.card, "cost_coins")),
                            "victory-points": 0.5 if pl.startswith("retire") else 0.0})
               for o, (c, pl) in zip(opts, pairs, strict=True)}
        pick = self.choose(seat, opts, "recruit a military card", est,
                           self.by_card((o, c) for o, (c, _) in zip(opts, pairs, strict=True)))
        c, place = pairs[opts.index(pick)]
        self.gain(seat, "coins", -f(c.card, "cost_coins"))
        armies = self.armies(seat)
        if place == "new":
            index = next(i for i in range(len(armies) + 1) if i not in armies)
        else:
            index = int(place.split(":")[1])
            if place.startswith("retire"):
                old = next(x for x in armies[index] if not is_retired(x))
                self.st.supply["coins"] += tok(old, "name") + tok(old, "picture")
                set_tok(old, "name", 0)
                set_tok(old, "picture", 0)
                set_flag(old, "retired")
                self.event("retire", seat)
        c.tokens = {"army": index, "name": 0, "picture": 0}
        self.mover.move(c, "military-row", ("armies", seat), "recruit", seat)
        self.cover("card", f"military/{c.card}")

    def store_from(self, seat: int, zone: str, uid: int) -> None:
        card = next(c for c in self.zone(zone) if c.uid == uid)
        self.mover.move(card, zone, ("stored", seat), "store a card", seat)

    def do_explore(self, seat: int) -> None:
        rule = self.rule
        cards = [(f"row:{c.uid}", c) for c in self.zone("empire-row")]
        if rule("actions", "explore", "from_c"):
            cards += [(f"c:{c.uid}", c) for c in self.zone("empire-c")]
        opts = ["draw"] + [o for o, _ in cards]
        n = rule("actions", "explore", "draw") + self.symbols(seat, "explore")
        pick = self.choose(seat, opts, "explore", self.explore_estimates(seat, cards, n),
                           self.by_card(cards))
        if pick.startswith("row:"):
            self.store_from(seat, "empire-row", int(pick[4:]))
            return
        if pick.startswith("c:"):
            self.store_from(seat, "empire-c", int(pick[2:]))
            return
        deck = self.current_deck()
        if len(self.zone(deck)) < n:  # depleted while drawing: the discards refresh it
            self.mover.reshuffle("empire-discard", deck, f"reshuffle {deck}")
        drawn = self.zone(deck)[:n]  # looked at on the deck: one is stored, the rest discarded
        if not drawn:
            return
        opts = [f"keep:{c.uid}" for c in drawn]
        est = {f"keep:{c.uid}": self.r.estimate({"victory-points": self.stored_worth(seat, c.card)})
               for c in drawn}
        pick = self.choose(seat, opts, "store one explored card", est,
                           self.by_card(zip(opts, drawn, strict=True)))
        for c in drawn:
            if pick == f"keep:{c.uid}":
                self.mover.move(c, deck, ("stored", seat), "store an explored card", seat)
            else:
                self.mover.move(c, deck, "empire-discard", "discard an explored card", seat)

    def stored_worth(self, seat: int, cid: str) -> float:
        """What storing `cid` is worth to the greedy bot, in points: a quarter of building it
        (a stored card still has to be built, in a later round)."""
        return self.card_value(seat, cid)["victory-points"] / 4

    def explore_estimates(self, seat: int, cards: list, n: int) -> dict:
        """What the greedy bot expects of each way to explore: a card in view is worth storing
        it (stored_worth); a draw keeps the best of n unseen cards, read as the best of n taken
        at random from the row, the same deck's cards in view (the bot may not look at the
        deck)."""
        if self.st.turn >= self.r.rounds:  # the last round: a stored card no longer pays off
            return {o: self.r.estimate({}) for o in ["draw", *(o for o, _ in cards)]}
        worth = {o: self.stored_worth(seat, c.card) for o, c in cards}
        row = sorted(worth[o] for o, c in cards if o.startswith("row:"))
        draw = best_of(row, n) if row else 0.6
        return {o: self.r.estimate({"victory-points": v})
                for o, v in [("draw", draw), *worth.items()]}

    def do_grow(self, seat: int) -> None:
        cost = self.rule("actions", "grow", "coins")
        if self.st.players[seat].counters["coins"] < cost:
            return
        if self.new_citizen(seat):
            self.gain(seat, "coins", -cost)

    def new_citizen(self, seat: int) -> bool:
        """The lowest unused number of the player's colour, into the starving/new area."""
        have = {c[0] for c in self.cits(seat)}
        free = [s for s in range(1, self.rule("setup", "citizen_skills") + 1) if s not in have]
        if not free or self.st.supply["citizens"] <= 0:
            return False
        self.cits(seat).append([free[0], "new"])
        self.st.supply["citizens"] -= 1
        self.event("citizen-gained", seat)
        if self.has(seat, "aqueduct"):
            self.gain(seat, "coins", self.food(seat))
        return True

    def do_build(self, seat: int) -> None:
        offered = self.buyable(seat)
        options = [(z, c) for z, c in offered if self.can_build(seat, c.card)]
        crane = self.crane(seat)
        cards = [(f"{z}/{c.uid}", c) for z, c in options]
        opts = [NONE] + [o for o, _ in cards]
        est = {o: self.r.estimate(self.card_value(seat, c.card)) for o, c in cards}
        if crane is not None:
            for z, c in offered:
                if c.card != crane.card and self.can_build(seat, c.card, free=True, leaving=1):
                    o = f"crane:{z}/{c.uid}"
                    opts.append(o)
                    cards.append((o, c))
                    est[o] = self.r.estimate(self.crane_value(seat, c.card))
        if len(opts) == 1:
            return
        pick = self.choose(seat, opts, "build an empire card", est, self.by_card(cards))
        if pick == NONE:
            return
        free = pick.startswith("crane:")
        if free:
            pick = pick[6:]
            assert crane is not None
            self.mover.move(crane, ("empire", seat), "empire-discard", "the Crane is discarded",
                            seat)
            self.event("crane", seat)
        zone, uid = pick.split("/")
        self.build_card(seat, int(uid), zone, free)

    def build_card(self, seat: int, uid: int, zone: str, free: bool = False) -> None:
        src = self.zone(zone, seat if zone == "stored" else -1)
        card = next(c for c in src if c.uid == uid)
        if not self.can_build(seat, card.card, free):
            return
        f = self.r.cards[card.card]
        if not free:
            self.gain(seat, "coins", -f.get("cost_coins", 0))
            self.gain(seat, "knowledge", -f.get("cost_knowledge", 0))
        self.mover.move(card, at(zone, seat if zone == "stored" else -1), ("empire", seat),
                        "build", seat)
        card.face_up = None
        self.cover("card", f"{self.r.deck_of[card.card]}/{card.card}")
        self.event("build", seat)
        if f.get("citizen"):
            self.new_citizen(seat)
        ability = f.get("ability")
        if ability == "scholars":
            self.gain(seat, "knowledge", 1)
        if ability in ("scholars", "upgrade-citizen"):
            self.upgrade_citizen(seat)

    def upgrade_citizen(self, seat: int) -> None:
        have = {c[0] for c in self.cits(seat)}
        free = [s for s in range(1, self.rule("setup", "citizen_skills") + 1) if s not in have]
        if not free:
            return
        opts = [NONE] + [f"swap:{c[0]}" for c in self.cits(seat) if c[0] < free[0]]
        est = {o: self.r.estimate({"victory-points": 0.3 * (free[0] - int(o[5:]))})
               for o in opts[1:]}
        pick = self.choose(seat, opts, "trade a citizen for a higher one", est)
        if pick == NONE:
            return
        old = int(pick[5:])
        cit = next(c for c in self.cits(seat) if c[0] == old)
        cit[0] = free[0]
        if cit[1].startswith("space:"):
            space = self.st.vars["spaces"][cit[1][6:]]
            for x in space:
                if x == [seat, old]:
                    x[1] = free[0]
        self.event("citizen-upgraded", seat)
