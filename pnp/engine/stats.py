"""Small, dependency-free statistics for balance reports.

Self-play gives thousands of independent games, so closed-form intervals are enough: Wilson score
intervals for rates (good near 0 and 1, where balance problems live), Student t intervals for
means, Newcombe's hybrid score interval for a difference of two rates and Welch's interval for a
difference of two means. No bootstrap: the same input always gives the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: two-sided 95%: the normal quantile used by every interval here
Z95 = 1.959963984540054


def normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF (Acklam's rational approximation, error < 1.2e-9)."""
    if not 0 < p < 1:
        raise ValueError("p must be in (0, 1)")
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
         1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
         6.680131188771972e01, -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
         -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
         3.754408661907416e00)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    if p > 1 - low:
        return -normal_quantile(1 - p)
    q = p - 0.5
    r = q * q
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile with linear interpolation between order statistics (numpy's default)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    frac = pos - lo
    return ordered[lo] + (ordered[hi] - ordered[lo]) * frac


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    """Sample variance (n - 1 in the denominator); 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.fsum((v - m) ** 2 for v in values) / (n - 1)


def describe(values: Sequence[float]) -> dict[str, float]:
    """mean, p50, p95 and max: the summary a designer reads for turns or margins."""
    return {
        "mean": mean(values),
        "p50": quantile(values, 0.50),
        "p95": quantile(values, 0.95),
        "max": max(values) if values else 0,
    }


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate; stays inside [0, 1] and works for 0 or n successes.

    `successes` may be fractional (shared wins count as a fraction of a win).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / (1 + z2 / n)
    # clamp to [0, 1] and keep the observed rate inside despite rounding at 0 and n successes
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def t_quantile_975(df: float) -> float:
    """The 97.5% quantile of Student's t (Cornish-Fisher expansion; < 0.1% error for df >= 3).

    Not t_quantile(0.975, df): that starts from an approximate normal quantile, and every
    report's intervals would move in their last digits."""
    if df <= 0 or math.isinf(df):
        return Z95
    if df < 1.5:
        return 12.706204736
    if df < 2.5:
        return 4.302652730
    return _cornish_fisher(Z95, df)


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal Z."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


def t_quantile(p: float, df: float) -> float:
    """The p quantile of Student's t with df degrees of freedom: exact for 1 and 2, the
    Cornish-Fisher expansion from the normal quantile above that, the normal for df <= 0 or
    infinite (a test on a few samples must not read their spread as a normal's)."""
    if df <= 0 or math.isinf(df):
        return normal_quantile(p)
    if df < 1.5:
        return math.tan(math.pi * (p - 0.5))
    if df < 2.5:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    return _cornish_fisher(normal_quantile(p), df)


def _cornish_fisher(z: float, df: float) -> float:
    """Student's t quantile from the normal quantile z (four terms of the expansion)."""
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_ci(values: Sequence[float],
            bounds: tuple[float, float] | None = None) -> tuple[float, float, float]:
    """(mean, low, high): Student t interval for the mean; (m, m, m) for fewer than two values.

    `bounds` is the range the values can take (a share: (0, 1)): the t interval is symmetric
    and can run past it on few or skewed values, which would print as "[-1%–30%]"; the ends
    are clipped to it, since no mean can lie outside what every value lies within. With
    bounds, values that do not vary (three games the winner never trailed) give the Wilson
    interval of the mean read as a rate, not (m, m, m): a spread of none seen in a few values
    is no proof of none, and a bounded value's variance is at most that of a rate.
    """
    n = len(values)
    m = mean(values)
    spread = variance(values) if n > 1 else 0.0
    if bounds is not None and spread <= 0 and n > 0 and bounds[1] > bounds[0]:
        low, width = bounds[0], bounds[1] - bounds[0]
        lo, hi = wilson((m - low) / width * n, n)
        return (m, low + lo * width, low + hi * width)
    if n < 2:
        return (m, m, m)
    half = t_quantile_975(n - 1) * math.sqrt(spread / n)
    low, high = m - half, m + half
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return (m, low, high)


def mean_p_value(values: Sequence[float], mu: float = 0.0) -> float:
    """Two-sided p-value that the values' mean is `mu` (normal approximation to the mean's
    sampling distribution; 1.0 when the values do not vary)."""
    n = len(values)
    spread = math.sqrt(variance(values)) if n > 1 else 0.0
    if spread <= 0:
        return 1.0
    z = (mean(values) - mu) / (spread / math.sqrt(n))
    return 2 * (1 - normal_cdf(abs(z)))


def diff_proportions(x1: float, n1: int, x2: float, n2: int) -> tuple[float, float, float]:
    """(p2 - p1, low, high): Newcombe's hybrid score interval (method 10) from two Wilson intervals.

    Read as "B minus A"; the interval excludes 0 when the rates really differ.
    """
    p1 = x1 / n1 if n1 else 0.0
    p2 = x2 / n2 if n2 else 0.0
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (d, max(-1.0, low), min(1.0, high))


def diff_means(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """(mean(b) - mean(a), low, high): Welch's t interval, no equal-variance assumption."""
    d = mean(b) - mean(a)
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return (d, d, d)
    va, vb = variance(a) / na, variance(b) / nb
    se2 = va + vb
    if se2 == 0:
        return (d, d, d)
    df = se2**2 / ((va**2 / (na - 1) if va else 0.0) + (vb**2 / (nb - 1) if vb else 0.0))
    half = t_quantile_975(df) * math.sqrt(se2)
    return (d, d - half, d + half)


def excludes(interval: Sequence[float], value: float) -> bool:
    """True when `value` lies outside the closed interval [low, high]."""
    low, high = interval[-2], interval[-1]
    return value < low or value > high


def rate_p_value(successes: float, n: int, p0: float) -> float:
    """Two-sided p-value of the score test of a rate against `p0` (the test whose inverse is
    the Wilson interval): z = (x - n p0) / sqrt(n p0 (1 - p0)). 1.0 when it cannot be tested
    (no games, or p0 at 0 or 1)."""
    if n <= 0 or not 0 < p0 < 1:
        return 1.0
    z = (successes - n * p0) / math.sqrt(n * p0 * (1 - p0))
    return math.erfc(abs(z) / math.sqrt(2))


def two_rates_p_value(x1: float, n1: int, x2: float, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion score test that x1/n1 and x2/n2 are the
    same rate: z = (p1 - p2) / sqrt(p (1 - p) (1/n1 + 1/n2)), p pooled. 1.0 when it cannot be
    tested (an empty side, or a pooled rate of 0 or 1)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    if not 0 < pooled < 1:
        return 1.0
    z = (x1 / n1 - x2 / n2) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the input order: rejecting where the adjusted
    value is below alpha keeps the chance of any false rejection among them at most alpha
    (uniformly more powerful than plain Bonferroni, with no independence assumed)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
