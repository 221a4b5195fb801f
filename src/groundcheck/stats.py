"""Rates with honest uncertainty: binomial intervals, zero counts, sample sizes, paired tests.

Pure math on counts, standard library only. Every function takes counts, not verdicts, and
is defined for every edge case (n = 0, k = 0, k = n) without NaN or division errors:

- n = 0: nothing was measured, so every interval is the whole range [0, 1] and p-values are 1.
- k = 0 or k = n: intervals are one-sided at the boundary (Wilson and Clopper-Pearson both
  handle this exactly; the estimate itself is 0 or 1).

References (the tests check their worked examples):
Wilson (1927); Clopper and Pearson (1934); Newcombe (1998a), "Two-sided confidence intervals
for the single proportion", Stat Med 17:857-872; Newcombe (1998b), "Improved confidence
intervals for the difference between binomial proportions based on paired data", Stat Med
17:2635-2650; Hanley and Lippman-Hand (1983), "If nothing goes wrong, is everything all
right?", JAMA 249:1743-1745 (the rule of three); McNemar (1947).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist

from attrs import frozen

__all__ = [
    "Interval",
    "PairedComparison",
    "clean_runs_needed",
    "clopper_pearson",
    "mcnemar_exact",
    "newcombe_paired",
    "paired_comparison",
    "rule_of_three",
    "sample_size",
    "tasks_to_settle",
    "three_way_gate",
    "wilson",
]


@frozen
class Interval:
    """An estimate with a two-sided confidence interval, all as proportions in [0, 1]."""

    estimate: float
    low: float
    high: float
    confidence: float

    def to_dict(self) -> dict[str, float]:
        return {
            "estimate": self.estimate,
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
        }


def _check(k: int, n: int, confidence: float) -> None:
    if (
        isinstance(k, bool)
        or isinstance(n, bool)
        or not isinstance(k, int)
        or not isinstance(n, int)
    ):
        raise TypeError("counts must be whole numbers")
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(k: int, n: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval for k successes in n trials (Newcombe 1998a, method 3).

    >>> i = wilson(3, 10)
    >>> round(i.estimate, 2), round(i.low, 4), round(i.high, 4)
    (0.3, 0.1078, 0.6032)
    >>> wilson(0, 0)
    Interval(estimate=0.0, low=0.0, high=1.0, confidence=0.95)
    """
    _check(k, n, confidence)
    if n == 0:
        return Interval(0.0, 0.0, 1.0, confidence)
    z = _z(confidence)
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return Interval(p, low, high, confidence)


# -- exact binomial machinery ---------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _beta_quantile(q: float, a: float, b: float) -> float:
    """x with I_x(a, b) = q, by bisection (monotone, so it always converges)."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if _betainc(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> Interval:
    """The exact (Clopper-Pearson) interval: conservative, never below nominal coverage.

    >>> round(clopper_pearson(0, 10).high, 4)
    0.3085
    """
    _check(k, n, confidence)
    if n == 0:
        return Interval(0.0, 0.0, 1.0, confidence)
    alpha = 1 - confidence
    low = 0.0 if k == 0 else _beta_quantile(alpha / 2, k, n - k + 1)
    high = 1.0 if k == n else _beta_quantile(1 - alpha / 2, k + 1, n - k)
    if k == 0:
        high = 1 - (alpha / 2) ** (1 / n)  # closed form, exact
    if k == n:
        low = (alpha / 2) ** (1 / n)
    return Interval(k / n, low, high, confidence)


def rule_of_three(n: int, confidence: float = 0.95) -> float:
    """Upper bound on a rate after 0 events in n trials: -ln(1 - confidence) / n (~3/n).

    This is the one-sided bound; it is the rule of thumb, not an interval. For n = 0 nothing
    is known and the bound is 1.

    >>> round(rule_of_three(300), 4)
    0.01
    """
    _check(0, n, confidence)
    if n == 0:
        return 1.0
    return min(1.0, -math.log(1 - confidence) / n)


def sample_size(
    target: float,
    expected_rate: float = 0.0,
    confidence: float = 0.95,
    *,
    method: str = "wilson",
) -> int:
    """Runs needed so the upper bound of the interval falls to ``target`` or below.

    With ``expected_rate`` 0 and the rule of three, 1% needs about 300 clean runs. Methods:
    ``"wilson"``, ``"exact"`` (Clopper-Pearson), ``"rule-of-three"`` (zero events only).

    >>> sample_size(0.01), sample_size(0.01, method="rule-of-three"), sample_size(0.05, 0.01)
    (381, 300, 110)
    """
    if not 0 < target < 1:
        raise ValueError(f"target must be in (0, 1), got {target}")
    if not 0 <= expected_rate < target:
        raise ValueError(
            f"expected_rate must be in [0, target), got {expected_rate}: a bound cannot fall "
            "below the rate itself"
        )
    if method == "rule-of-three":
        if expected_rate != 0:
            raise ValueError("the rule of three is for zero events only")
        return math.ceil(-math.log(1 - confidence) / target)
    interval = {"wilson": wilson, "exact": clopper_pearson}.get(method)
    if interval is None:
        raise ValueError(f"method must be 'wilson', 'exact' or 'rule-of-three', got {method!r}")

    def reached(n: int) -> bool:
        return interval(round(expected_rate * n), n, confidence).high <= target

    found = _smallest(reached, start=1)
    if found is None:
        raise ValueError("the target cannot be reached with a billion runs")
    return found


def clean_runs_needed(
    flagged: int, runs: int, target: float, confidence: float = 0.95
) -> int | None:
    """Further runs, all clean, needed for the Wilson upper bound to reach ``target``.

    None when the target cannot be reached (it is not above zero, or needs over a billion).

    >>> clean_runs_needed(0, 0, 0.01)
    381
    >>> clean_runs_needed(3, 100, 0.01)
    778
    >>> clean_runs_needed(0, 1000, 0.01)
    0
    """
    if not 0 < target < 1:
        return None
    return _smallest(lambda extra: wilson(flagged, runs + extra, confidence).high <= target)


def three_way_gate(low: float, high: float, maximum: float) -> str:
    """A gate read off an interval: ``"pass"`` when its upper bound is at most ``maximum``,
    ``"fail"`` when its lower bound is above it, ``"inconclusive"`` when it straddles it.

    A point estimate under the maximum is not a pass: only the interval can say the rate is
    below it at the chosen confidence.

    >>> i = wilson(3, 60)
    >>> three_way_gate(i.low, i.high, 0.20), three_way_gate(i.low, i.high, 0.05)
    ('pass', 'inconclusive')
    >>> three_way_gate(wilson(30, 60).low, wilson(30, 60).high, 0.20)
    'fail'
    """
    if high <= maximum:
        return "pass"
    if low > maximum:
        return "fail"
    return "inconclusive"


def tasks_to_settle(
    both: int, only_a: int, only_b: int, neither: int, *, maximum: float, confidence: float = 0.95
) -> int | None:
    """About how many more paired tasks, at the rates seen so far, would take Newcombe's
    interval for the difference off ``maximum`` (a paired gate that is inconclusive now).

    An estimate: the four cells are scaled up in proportion. 0 when the gate is already
    settled; None when no number of tasks would (no task yet, or the observed difference
    sits on ``maximum``).

    >>> tasks_to_settle(0, 3, 0, 27, maximum=0.0)  # 3 of 30 only A: about 16 more tasks like these
    16
    >>> tasks_to_settle(0, 0, 0, 0, maximum=0.0) is None
    True
    """
    n = both + only_a + only_b + neither
    if n == 0:
        return None

    def settled(extra: int) -> bool:
        scale = (n + extra) / n
        a, b, c, d = (round(cell * scale) for cell in (both, only_a, only_b, neither))
        interval = newcombe_paired(a, b, c, d, confidence)
        return three_way_gate(interval.low, interval.high, maximum) != "inconclusive"

    if settled(0):
        return 0
    if (only_a - only_b) / n == maximum:
        return None
    return _smallest(settled)


def _smallest(reached: Callable[[int], bool], *, start: int = 0) -> int | None:
    """The smallest n >= start with ``reached(n)``, for a predicate that stays true once true
    (an upper bound shrinking with more runs): doubling, then bisection. None past 10**9."""
    if reached(start):
        return start
    lo, hi = start, max(1, start * 2)
    while not reached(hi):
        lo, hi = hi, hi * 2
        if hi > 10**9:
            return None
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if reached(mid):
            hi = mid
        else:
            lo = mid
    return hi


# -- paired comparison ----------------------------------------------------------------------


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs b (A only) and c (B only).

    >>> round(mcnemar_exact(1, 9), 4), mcnemar_exact(0, 0)
    (0.0215, 1.0)
    """
    if b < 0 or c < 0:
        raise ValueError("discordant counts must be >= 0")
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    # P(X <= k) for X ~ Binomial(n, 1/2), summed exactly in log space.
    log_terms = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)
        for i in range(k + 1)
    ]
    top = max(log_terms)
    tail = math.exp(top) * sum(math.exp(t - top) for t in log_terms)
    return min(1.0, 2 * tail)


def newcombe_paired(a: int, b: int, c: int, d: int, confidence: float = 0.95) -> Interval:
    """CI for the difference p_A - p_B of paired proportions (Newcombe 1998b, method 10).

    ``a``: both flagged; ``b``: A only; ``c``: B only; ``d``: neither.

    >>> d = newcombe_paired(1, 9, 2, 88)
    >>> round(d.estimate, 2), round(d.low, 4), round(d.high, 4)
    (0.07, 0.0008, 0.1462)
    """
    for value in (a, b, c, d):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError("cell counts must be whole numbers >= 0")
    n = a + b + c + d
    if n == 0:
        return Interval(0.0, -1.0, 1.0, confidence)
    p1, p2 = (a + b) / n, (a + c) / n
    w1, w2 = wilson(a + b, n, confidence), wilson(a + c, n, confidence)
    l1, u1, l2, u2 = w1.low, w1.high, w2.low, w2.high
    denominator = (a + b) * (c + d) * (a + c) * (b + d)
    if denominator == 0:
        phi = 0.0
    else:
        numerator: float = a * d - b * c
        if numerator > 0:  # continuity correction of method 10
            numerator = max(numerator - n / 2, 0.0)
        phi = numerator / math.sqrt(denominator)
    diff = p1 - p2
    dl = math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    du = math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return Interval(diff, max(-1.0, diff - dl), min(1.0, diff + du), confidence)


@frozen
class PairedComparison:
    """Two agents on the same tasks: the 2x2 table, the difference in rates, McNemar's p."""

    both: int
    only_a: int
    only_b: int
    neither: int
    difference: Interval
    p_value: float

    @property
    def pairs(self) -> int:
        return self.both + self.only_a + self.only_b + self.neither

    def to_dict(self) -> dict[str, object]:
        n = self.pairs
        return {
            "pairs": n,
            "both_flagged": self.both,
            "only_a_flagged": self.only_a,
            "only_b_flagged": self.only_b,
            "neither_flagged": self.neither,
            "rate_a": (self.both + self.only_a) / n if n else 0.0,
            "rate_b": (self.both + self.only_b) / n if n else 0.0,
            "difference": self.difference.to_dict(),
            "mcnemar_exact_p": self.p_value,
        }


def paired_comparison(
    flagged_a: list[bool], flagged_b: list[bool], confidence: float = 0.95
) -> PairedComparison:
    """Compare two agents run on the same tasks (position i is task i in both lists).

    >>> r = paired_comparison([True, True, False, False], [False, True, False, True])
    >>> (r.both, r.only_a, r.only_b, r.neither), r.p_value
    ((1, 1, 1, 1), 1.0)
    """
    if len(flagged_a) != len(flagged_b):
        raise ValueError("both agents need a result for every task")
    both = sum(1 for x, y in zip(flagged_a, flagged_b, strict=True) if x and y)
    only_a = sum(1 for x, y in zip(flagged_a, flagged_b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(flagged_a, flagged_b, strict=True) if y and not x)
    neither = len(flagged_a) - both - only_a - only_b
    return PairedComparison(
        both,
        only_a,
        only_b,
        neither,
        newcombe_paired(both, only_a, only_b, neither, confidence),
        mcnemar_exact(only_a, only_b),
    )
