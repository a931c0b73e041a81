"""Purchases and trade: conversions (Surplus, Culture into VP), the Purchase List, the trade
option, Sell Surplus's exchange and steals; menus kept per holdings."""

from __future__ import annotations

from pnp.engine.api import Estimate, Ops, OptionTable, mean_delta

from .common import ACCEPT, DONE, NONE, TRADE_LOTS, Bounded, _merge
from .hints import spend


class Trading:
    """ACGame's purchases and trades: one part of ACGame (game.py), whose state they read."""

    def convert(self, seat: int, cid: str) -> None:
        """Surplus (optional, any number of times) and Culture into VP (a must, while 10 or more
        remain): interpretation conversion-repeat; conversions-once allows each once a phase."""
        pay_ops, cost, gain_ops, mandatory, repeat, why = self.r.conversions[cid]
        changes = self.r.conversion_changes[cid]
        p = self.players[seat]
        can_pay = self.book.can_pay
        if mandatory:
            while can_pay(p.counters, cost):
                self.pay_and_gain(seat, pay_ops, gain_ops, changes, why)
                self.event(cid, seat)
                if not repeat or p.out:
                    return
            return
        stats = p.counters
        key = (cid, self.r.convert_keys[cid](stats))
        table = self.r.convert_tables.get(key)
        if table is None:  # the choices and their estimates depend only on the paying stats
            most = self.times_payable(stats, cost)
            if not repeat:
                most = min(most, 1)
            once = _merge(cost, mean_delta(gain_ops))
            r = self.r
            table = r.convert_tables[key] = OptionTable(range(max(most, 0) + 1), [
                Estimate({s: spend(r, stats, s, -k * v) if v < 0 else k * v
                          for s, v in once.items()}) for k in range(max(most, 0) + 1)])
        options = table.options
        if len(options) < 2:
            return
        k = self.choose(seat, options, why, table)
        for _ in range(k):
            self.pay_and_gain(seat, pay_ops, gain_ops, changes, why)
            self.event(cid, seat)

    def pay_and_gain(self, seat: int, pay_ops: Ops, gain_ops: Ops,
                     changes: tuple[Bounded, Bounded] | None, why: str) -> None:
        """One conversion: the payment, then the gain (as fixed changes when they are)."""
        if changes is None:
            self.apply(seat, pay_ops, why)
            self.apply(seat, gain_ops, why)
        else:
            stats = self.stat_rows[seat]
            self.add_changes(stats, changes[0])
            self.add_changes(stats, changes[1])

    def times_payable(self, stats: dict[str, int], cost: dict[str, int]) -> int:
        lo = self.book.lo
        most = None
        for s, v in cost.items():
            if v < 0:
                n = (stats[s] - lo[s]) // -v
                most = n if most is None else min(most, n)
        return most or 0

    def purchases(self, seat: int, table_id: str) -> None:
        """End of the Trade Phase: buy from the Purchase List, one item at a time, until done."""
        pay, rows, outcomes = self.r.tables[table_id]
        p = self.players[seat]
        why = f"buy from the {self.r.game.tables[table_id].name or table_id}"
        lo = self.book.lo[pay]
        menus = self.r.purchase_menus
        by_label = self.r.table_rows[table_id]
        while True:
            have = p.counters[pay] - lo
            menu = menus.get((table_id, have))
            if menu is None:
                options = (DONE, *(label for label, cost, _ in rows if cost <= have))
                menu = menus[(table_id, have)] = OptionTable(options, [outcomes(o) for o in options])
            options = menu.options
            if len(options) == 1:
                return
            choice = self.choose(seat, options, why, menu)
            if choice == DONE:
                return
            _, cost, ops = by_label[choice]
            self.book.add(p.counters, pay, -cost)
            changes = self.r.purchase_changes[(table_id, choice)]
            if changes is None:
                self.apply(seat, ops, why)
            else:
                self.add_changes(p.counters, changes)
            self.event("purchase", seat)

    def trade(self, seat: int, other: int) -> None:
        """Trade option: both gain 1 Idea, then the mover may offer an exchange of Gold, Food or
        Resources, which the other accepts or declines (the bots' way of 'freely trading');
        the mover then still resolves the occupied space."""
        r = self.r
        self.event("trade", seat)
        if r.trade_gain_changes is None:
            self.apply(seat, r.trade_gain, "trade")
            self.apply(other, r.trade_gain, "trade")
        else:
            self.add_changes(self.stat_rows[seat], r.trade_gain_changes)
            self.add_changes(self.stat_rows[other], r.trade_gain_changes)
        mine = self.players[seat].counters
        theirs = self.players[other].counters
        lo = self.book.lo
        top = TRADE_LOTS[-1]  # what can be offered only depends on holdings up to the top lot
        held = []
        for holder in (mine, theirs):
            for s in r.trade_stats:
                k = holder[s] - lo[s]
                held.append(k if k < top else top)
        key = tuple(held)
        menu = r.trade_menus.get(key)
        if menu is None:
            options = (NONE, *(label for label, give, kg, get, kr in r.trade_offers
                               if mine[give] - lo[give] >= kg and theirs[get] - lo[get] >= kr))
            menu = r.trade_menus[key] = OptionTable(
                options, [r.trade_offer_outcomes(o) for o in options])
        if len(menu.options) == 1:
            return
        choice = self.choose(seat, menu.options, "trade offer", menu)
        if choice == NONE:
            return
        give, kg, get, kr = r.trade_deals[choice]
        answer = r.trade_answers[choice]
        if self.choose(other, answer.options, "trade answer", answer) != ACCEPT:
            return
        self.event("trade-deal", seat)
        self.take(other, seat, {give: kg})
        self.take(seat, other, {get: kr})

    def steal(self, seat: int, stat: str, count: int) -> None:
        """'Steal 1 Pop from one opponent': the player picks any opponent still in the game."""
        options = [q for q, p in enumerate(self.players) if q != seat and not p.out]
        if not options:
            return
        target = self.choose(seat, options, "steal " + stat,
                             lambda q: {stat: float(min(count, self.players[q].counters[stat]))})
        self.event("steal", seat)
        self.take(seat, target, {stat: count})

    def exchange(self, seat: int, give: tuple, receive: str) -> None:
        """Sell Surplus: trade any amount of Food or Resources for Gold, 1 to 1."""
        p = self.players[seat]
        lo = self.book.lo
        key = (give, receive, *(p.counters[stat] - lo[stat] for stat in give))
        menu = self.r.exchange_menus.get(key)
        if menu is None:  # the offers depend only on what can be given
            abbr = self.r.abbr
            offers: list[str] = [NONE]
            deals: dict[str, tuple[str, int]] = {}
            for stat in give:
                for k in range(1, p.counters[stat] - lo[stat] + 1):
                    label = f"{abbr[stat]}-{k} {abbr[receive]}+{k}"
                    offers.append(label)
                    deals[label] = (stat, k)
            r = self.r  # greedy's view of each offer depends on the same holdings
            worth = [{} if o == NONE else {deals[o][0]: spend(r, p.counters, *deals[o]),
                                           receive: deals[o][1]} for o in offers]
            menu = self.r.exchange_menus[key] = (OptionTable(offers, worth), deals)
        table, deals = menu
        if len(table.options) == 1:
            return
        choice = self.choose(seat, table.options, "exchange", table)
        if choice == NONE:
            return
        stat, k = deals[choice]
        self.book.add(p.counters, stat, -k)
        self.book.add(p.counters, receive, k)
        self.event("exchange", seat)
