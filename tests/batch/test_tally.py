"""The mergeable tallies: any split of the results into chunks, folded in any order on any
worker, gives the same report, byte for byte; and what they keep stays bounded."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from groundcheck.batch import RateTally, RunResult, SeenIds, SideTally, Smallest, summarize
from groundcheck.batch.compare import compare_tallies
from groundcheck.model import dumps

codes = st.lists(st.sampled_from(["fabricated-id", "malformed-id", "unverified-title"]), max_size=3)


@st.composite
def results(draw: st.DrawFn) -> list[RunResult]:
    n = draw(st.integers(0, 40))
    out = []
    for i in range(n):
        readable = draw(st.booleans()) or draw(st.booleans())
        group = draw(st.sampled_from([None, "a", "b"]))
        task = draw(st.sampled_from([None, "t1", "t2", "t3", f"t{i}"]))
        if not readable:
            out.append(
                RunResult(
                    f"r{i:03d}",
                    group,
                    task,
                    False,
                    problem=draw(st.sampled_from(["gone", "bad json"])),
                    input_error=draw(st.booleans()),
                )
            )
            continue
        found = sorted(set(draw(codes)))
        cited = draw(st.integers(0, 4))
        fab = draw(st.integers(0, cited))
        out.append(
            RunResult(
                f"r{i:03d}",
                group,
                task,
                True,
                flagged=bool(set(found) & {"fabricated-id", "malformed-id"}),
                cited=cited,
                fabricated=fab,
                codes=tuple(found),
                canary_caught=draw(st.sampled_from([None, True, False])),
                schemes=(("arxiv", cited, fab),) if cited else (),
                findings=tuple((c, 1) for c in found),
            )
        )
    return out


def _fold(parts: list[list[RunResult]], limit: int) -> RateTally:
    tally = RateTally(limit)
    for part in parts:
        chunk = RateTally(limit)
        for r in part:
            chunk.add(r)
        tally.merge(pickle.loads(pickle.dumps(chunk)))  # as a worker sends it back
    return tally


@settings(max_examples=200, deadline=None)
@given(results(), st.randoms(use_true_random=False), st.integers(1, 5))
def test_any_chunking_and_order_gives_the_same_report(
    rs: list[RunResult], rnd: object, limit: int
) -> None:
    reference = dumps(_fold([rs], limit).report(max_rate=0.3).to_dict())
    shuffled = list(rs)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    cuts = sorted(rnd.sample(range(len(shuffled) + 1), k=min(3, len(shuffled) + 1)))  # type: ignore[attr-defined]
    parts = [shuffled[a:b] for a, b in zip([0, *cuts], [*cuts, len(shuffled)], strict=True)]
    rnd.shuffle(parts)  # type: ignore[attr-defined]
    assert dumps(_fold(parts, limit).report(max_rate=0.3).to_dict()) == reference


@settings(max_examples=200, deadline=None)
@given(results(), st.integers(1, 5))
def test_lists_keep_the_first_by_run_id_and_count_the_rest(rs: list[RunResult], limit: int) -> None:
    report = _fold([rs], limit).report()
    flagged = sorted(r.run for r in rs if r.readable and r.flagged)
    unreadable = sorted(r.run for r in rs if not r.readable)
    assert [f.run for f in report.flagged] == flagged[:limit]
    assert [u.run for u in report.unreadable] == unreadable[:limit]
    data = report.to_dict()
    assert data["flagged_not_listed"] == max(0, len(flagged) - limit)
    assert data["unreadable_not_listed"] == max(0, len(unreadable) - limit)
    assert data["runs_total"] == len(rs)
    assert data["input_errors"] == sum(r.input_error for r in rs)
    assert report.overall == summarize(rs).overall


@settings(max_examples=200, deadline=None)
@given(results(), results(), st.randoms(use_true_random=False))
def test_compare_sides_merge_in_any_order(
    a: list[RunResult], b: list[RunResult], rnd: object
) -> None:
    def side(rs: list[RunResult]) -> SideTally:
        shuffled = list(rs)
        rnd.shuffle(shuffled)  # type: ignore[attr-defined]
        tally = SideTally()
        half = len(shuffled) // 2
        for part in (shuffled[half:], shuffled[:half]):
            tally.merge(pickle.loads(pickle.dumps(SideTally.of(part))))
        return tally

    reference = dumps(
        compare_tallies(SideTally.of(a), SideTally.of(b), max_difference=0.0).to_dict()
    )
    assert dumps(compare_tallies(side(a), side(b), max_difference=0.0).to_dict()) == reference


def test_duplicate_tasks_keep_the_smallest_run_id() -> None:
    side = SideTally.of(
        [
            RunResult("r9", None, "t", True, flagged=True),
            RunResult("r1", None, "t", True, flagged=False),
            RunResult("r5", None, "t", True, flagged=True),
        ]
    )
    assert side.tasks == {"t": ("r1", False)}
    assert side.duplicates == {"t": 2}


@given(st.lists(st.integers(), max_size=60), st.integers(0, 8))
def test_smallest_is_the_sorted_prefix(items: list[int], limit: int) -> None:
    kept = Smallest(limit, items)
    assert kept.items == sorted(items)[:limit]
    assert (kept.total, kept.omitted) == (len(items), len(items) - len(kept.items))


@given(st.lists(st.text(max_size=8), max_size=3000))
def test_seen_ids_agree_with_a_set(ids: list[str]) -> None:
    seen, plain = SeenIds(), set()
    for key in ids:
        assert seen.add(key) == (key not in plain)
        plain.add(key)
    assert len(seen) == len(plain)
    assert all(k in seen for k in plain)


def test_a_tally_stays_small_whatever_the_number_of_runs() -> None:
    """What crosses back from a worker: bounded lists, counts; not one entry per run."""
    tally = RateTally()
    sizes = []
    for n in range(4):
        for i in range(5_000):
            run = f"r{n}-{i:05d}"
            tally.add(RunResult(run, "a", None, True, flagged=i % 3 == 0, codes=("fabricated-id",)))
            tally.add(RunResult(run + "x", "b", None, False, problem="gone"))
        sizes.append(len(pickle.dumps(tally)))
    assert len(tally.flagged.items) == len(tally.unreadable.items) == 1000
    assert tally.runs == 40_000
    assert sizes[-1] <= sizes[0] * 1.05  # full lists by then: more runs, no more bytes
