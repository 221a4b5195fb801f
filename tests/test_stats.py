"""Rates and intervals against published worked examples and closed forms."""

from __future__ import annotations

import math

import pytest

from groundcheck.stats import (
    clopper_pearson,
    mcnemar_exact,
    newcombe_paired,
    paired_comparison,
    rule_of_three,
    sample_size,
    wilson,
)

# Newcombe RG (1998a), Stat Med 17:857-872, Table II: 95% intervals for four examples,
# method 3 (Wilson score) and method 5 (Clopper-Pearson "exact").
NEWCOMBE_1998A = [
    (81, 263, (0.2553, 0.3662), (0.2527, 0.3676)),
    (15, 148, (0.0624, 0.1605), (0.0578, 0.1617)),
    (0, 20, (0.0, 0.1611), (0.0, 0.1684)),
    (1, 29, (0.0061, 0.1718), (0.0009, 0.1776)),
]


@pytest.mark.parametrize(("k", "n", "wilson_ci", "exact_ci"), NEWCOMBE_1998A)
def test_newcombe_1998a_table_ii(
    k: int, n: int, wilson_ci: tuple[float, float], exact_ci: tuple[float, float]
) -> None:
    """Wilson and Clopper-Pearson intervals reproduce the published values to 4 decimals."""
    w = wilson(k, n)
    assert (round(w.low, 4), round(w.high, 4)) == wilson_ci
    e = clopper_pearson(k, n)
    assert (round(e.low, 4), round(e.high, 4)) == exact_ci


def test_issue_example_zero_of_twenty() -> None:
    """0 of 20 flagged: the rate is not shown to be zero (rule of three ~0.15, Wilson ~0.16)."""
    assert rule_of_three(20) == pytest.approx(0.1498, abs=1e-4)
    assert wilson(0, 20).high == pytest.approx(0.1611, abs=1e-4)
    assert sample_size(0.01, method="rule-of-three") == 300


def test_clopper_pearson_closed_forms_and_definition() -> None:
    """k = 0 and k = n have closed forms; other bounds satisfy the binomial tail equations."""
    n = 37
    assert clopper_pearson(0, n).high == pytest.approx(1 - 0.025 ** (1 / n))
    assert clopper_pearson(n, n).low == pytest.approx(0.025 ** (1 / n))
    k = 9
    ci = clopper_pearson(k, n)

    def tail_at_least(p: float) -> float:
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))

    def tail_at_most(p: float) -> float:
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))

    assert tail_at_least(ci.low) == pytest.approx(0.025, abs=1e-9)
    assert tail_at_most(ci.high) == pytest.approx(0.025, abs=1e-9)


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
def test_other_confidence_levels(confidence: float) -> None:
    narrow, wide = wilson(5, 50, 0.8), wilson(5, 50, confidence)
    assert wide.low <= narrow.low + 1e-12 and wide.high >= narrow.high - 1e-12
    assert wilson(5, 50, confidence).confidence == confidence


@pytest.mark.parametrize("func", [wilson, clopper_pearson])
def test_edge_cases_never_nan(func: object) -> None:
    """n = 0, k = 0 and k = n give defined, documented answers."""
    f = func  # type: ignore[assignment]
    assert f(0, 0).to_dict() == {"estimate": 0.0, "low": 0.0, "high": 1.0, "confidence": 0.95}  # type: ignore[operator]
    full = f(12, 12)  # type: ignore[operator]
    assert full.estimate == 1.0 and full.high == 1.0 and 0 < full.low < 1
    for k, n in [(0, 1), (1, 1), (0, 10_000), (10_000, 10_000), (1, 10**6)]:
        ci = f(k, n)  # type: ignore[operator]
        assert all(math.isfinite(x) for x in (ci.estimate, ci.low, ci.high))
        assert 0 <= ci.low <= ci.estimate <= ci.high <= 1


@pytest.mark.parametrize(("k", "n"), [(-1, 5), (6, 5), (0, -1)])
def test_bad_counts(k: int, n: int) -> None:
    with pytest.raises(ValueError, match="0 <= k <= n"):
        wilson(k, n)


def test_rule_of_three_edges() -> None:
    assert rule_of_three(0) == 1.0
    assert rule_of_three(1) == 1.0
    assert rule_of_three(300) == pytest.approx(0.00999, abs=1e-4)


def test_sample_size() -> None:
    """Bounds reach the target at the returned n and not one run earlier."""
    for method, interval in (("wilson", wilson), ("exact", clopper_pearson)):
        n = sample_size(0.01, method=method)
        assert interval(0, n).high <= 0.01 < interval(0, n - 1).high
    n = sample_size(0.05, expected_rate=0.01)
    assert wilson(round(0.01 * n), n).high <= 0.05
    with pytest.raises(ValueError, match="expected_rate"):
        sample_size(0.01, expected_rate=0.02)
    with pytest.raises(ValueError, match="target"):
        sample_size(0)


def test_mcnemar_exact_by_hand() -> None:
    """b = 12, c = 2: p = 2 * P(X <= 2 | 14, 1/2) = 2 * (1 + 14 + 91) / 2**14."""
    assert mcnemar_exact(12, 2) == pytest.approx(2 * 106 / 16384)
    assert mcnemar_exact(2, 12) == mcnemar_exact(12, 2)
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(5, 5) == 1.0


def test_newcombe_paired_method_10_worked_by_hand() -> None:
    """(a, b, c, d) = (36, 12, 2, 0), the example of Newcombe (1998b): the method 10 formula
    worked step by step (Wilson limits of 48/50 and 38/50, phi = -24 / sqrt(48*2*38*12))."""
    ci = newcombe_paired(36, 12, 2, 0)
    l1, u1 = wilson(48, 50).low, wilson(48, 50).high
    l2, u2 = wilson(38, 50).low, wilson(38, 50).high
    phi = -24 / math.sqrt(48 * 2 * 38 * 12)
    low = 0.2 - math.sqrt((0.96 - l1) ** 2 - 2 * phi * (0.96 - l1) * (u2 - 0.76) + (u2 - 0.76) ** 2)
    high = 0.2 + math.sqrt(
        (u1 - 0.96) ** 2 - 2 * phi * (u1 - 0.96) * (0.76 - l2) + (0.76 - l2) ** 2
    )
    assert ci.estimate == pytest.approx(0.2)
    assert (ci.low, ci.high) == (pytest.approx(low), pytest.approx(high))
    assert round(ci.low, 4) == 0.0569
    assert round(ci.high, 4) == 0.3404


def test_newcombe_edges() -> None:
    assert newcombe_paired(0, 0, 0, 0).to_dict() == {
        "estimate": 0.0,
        "low": -1.0,
        "high": 1.0,
        "confidence": 0.95,
    }
    same = newcombe_paired(3, 0, 0, 7)
    assert same.estimate == 0 and same.low < 0 < same.high
    everything = newcombe_paired(0, 10, 0, 0)
    assert everything.estimate == 1.0 and everything.high == 1.0


def test_paired_comparison_table() -> None:
    a = [True, True, False, False, True]
    b = [True, False, False, True, False]
    result = paired_comparison(a, b)
    assert (result.both, result.only_a, result.only_b, result.neither) == (1, 2, 1, 1)
    data = result.to_dict()
    assert data["rate_a"] == 0.6 and data["rate_b"] == 0.4
    with pytest.raises(ValueError, match="every task"):
        paired_comparison([True], [])
