"""The statistics behind balance reports: intervals that cover the truth as often as they claim."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st_

from pnp.engine import stats


def binomial_pmf(k: int, n: int, p: float) -> float:
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


@pytest.mark.parametrize("n,p", [(50, 0.3), (200, 0.25), (400, 0.05), (100, 0.5)])
def test_wilson_interval_covers_the_true_rate_about_95_percent_of_the_time(n, p):
    coverage = sum(binomial_pmf(k, n, p) for k in range(n + 1)
                   if stats.wilson(k, n)[0] <= p <= stats.wilson(k, n)[1])
    assert 0.92 <= coverage <= 0.98


def test_wilson_matches_published_values():
    # Newcombe (1998), table I: 81 of 263 -> 0.2553 to 0.3662
    lo, hi = stats.wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    assert stats.wilson(0, 10)[0] == 0.0 and stats.wilson(10, 10)[1] == pytest.approx(1.0)


def test_newcombe_difference_matches_published_example():
    # Newcombe (1998) method 10, 56/70 vs 48/80: difference 0.2000, CI 0.0524 to 0.3339 (A - B)
    d, lo, hi = stats.diff_proportions(48, 80, 56, 70)
    assert (round(d, 4), round(lo, 4), round(hi, 4)) == (0.2, 0.0524, 0.3339)


@pytest.mark.parametrize("df,t", [(3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)])
def test_t_quantiles_match_the_table(df, t):
    assert stats.t_quantile_975(df) == pytest.approx(t, abs=0.004)


@pytest.mark.parametrize("p,df,t", [(0.975, 1, 12.706), (0.975, 2, 4.303), (0.95, 2, 2.920),
                                    (0.95, 5, 2.015), (0.99, 10, 2.764), (0.9, 30, 1.310),
                                    (0.025, 10, -2.228)])
def test_t_quantiles_at_any_level_match_the_table(p, df, t):
    assert stats.t_quantile(p, df) == pytest.approx(t, abs=0.004)
    assert stats.normal_cdf(stats.normal_quantile(p)) == pytest.approx(p)


def test_mean_interval_and_welch_difference():
    m, lo, hi = stats.mean_ci([2, 4, 4, 4, 5, 5, 7, 9])
    assert m == 5 and lo < 5 < hi
    assert hi - 5 == pytest.approx(2.365 * 2.138 / math.sqrt(8), abs=0.01)
    d, lo, hi = stats.diff_means([1, 2, 3, 4, 5] * 10, [6, 7, 8, 9, 10] * 10)
    assert d == 5 and lo > 4 and hi < 6
    assert stats.diff_means([3, 3], [3, 3]) == (0, 0, 0)


def test_quantiles_interpolate_like_numpy():
    values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert stats.quantile(values, 0.5) == 5.5
    assert stats.quantile(values, 0.95) == pytest.approx(9.55)
    assert stats.describe([4]) == {"mean": 4, "p50": 4, "p95": 4, "max": 4}


@given(st_.integers(1, 5000), st_.floats(0, 1))
def test_wilson_stays_in_range_and_contains_the_observed_rate(n, frac):
    k = round(n * frac)
    lo, hi = stats.wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


@given(st_.lists(st_.integers(-50, 50), min_size=1, max_size=60))
def test_quantiles_are_ordered_and_inside_the_data(values):
    q = [stats.quantile(values, x) for x in (0.05, 0.5, 0.95)]
    assert min(values) <= q[0] <= q[1] <= q[2] <= max(values)


def test_a_share_interval_stays_within_what_a_share_can_be():
    """Nine games the winner never trailed and one it always did: the t interval's low end
    would be about -13%, which no share of turns can be; clipped to the bounds it is 0."""
    values = [0.0] * 9 + [1.0]
    m, lo, hi = stats.mean_ci(values)
    assert lo < 0  # the plain t interval runs past the bound
    m, lo, hi = stats.mean_ci(values, bounds=(0.0, 1.0))
    assert m == pytest.approx(0.1) and lo == 0.0 and 0.1 < hi < 1.0


def test_a_share_that_never_varied_keeps_an_honest_interval():
    """Three games the winner never trailed printed "0% [0%–0%]", as sure as a thousand; a
    bounded mean with no spread seen gets the Wilson interval of a rate instead."""
    m, lo, hi = stats.mean_ci([0.0] * 3, bounds=(0.0, 1.0))
    assert (m, lo) == (0.0, 0.0) and hi == pytest.approx(stats.wilson(0, 3)[1]) and hi > 0.5
    m, lo, hi = stats.mean_ci([1.0] * 3, bounds=(0.0, 1.0))
    assert hi == 1.0 and lo < 0.5
    m, lo, hi = stats.mean_ci([0.5] * 400, bounds=(0.0, 1.0))  # many alike: a narrow interval
    assert lo == pytest.approx(0.451, abs=0.002) and hi == pytest.approx(0.549, abs=0.002)
    assert stats.mean_ci([0.0] * 3) == (0.0, 0.0, 0.0)  # unbounded values: as before


def test_antikes_report_never_prints_a_negative_share():
    """The text report of a short Antike run printed "the winner trailed 14% [-1%–30%]"."""
    from click.testing import CliRunner

    from pnp.cli import main

    res = CliRunner().invoke(main, ["simulate", "antike", "--games", "10", "--skill", "none",
                                    "--format", "json"])
    assert res.exit_code == 0, res.output
    lead = json.loads(res.output)["lead"]["trailing_share"]
    assert 0.0 <= lead["ci95"][0] <= lead["mean"] <= lead["ci95"][1] <= 1.0
