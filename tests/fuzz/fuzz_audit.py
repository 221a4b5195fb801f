"""Coverage-guided fuzzing of extraction, loading and auditing (atheris).

Run for a fixed budget, e.g. ten minutes:

    pip install atheris
    python tests/fuzz/fuzz_audit.py -max_total_time=600

Each input is split into a report and a tool output (parsed as JSON when it is JSON, else
used as text). The only exceptions allowed are groundcheck's documented input errors; any
other exception, a hang or a wrong span is a crash that atheris saves as a reproducer.
"""

from __future__ import annotations

import json
import sys

import atheris

with atheris.instrument_imports():
    from groundcheck import InputError, audit
    from groundcheck.evidence.load import load_evidence
    from groundcheck.extractors import extract


def test_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    report = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 4096))
    raw_output = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    for citation in extract(report):
        assert report[citation.start : citation.end] == citation.raw
    try:
        output = json.loads(raw_output)
    except (ValueError, RecursionError):
        output = raw_output
    verdict = audit(report, [{"tool": "fuzz", "output": output}])
    verdict.to_json()
    if isinstance(output, (list, dict)):
        try:
            trace = load_evidence(output)
        except InputError:
            return
        audit(trace.report or report, trace.evidence).to_json()


def main() -> None:
    atheris.Setup(sys.argv, test_one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
