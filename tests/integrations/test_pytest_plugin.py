"""The pytest plugin and ``assert_grounded``, run the way users run them: in a pytest session."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

import pytest

import groundcheck
from groundcheck.testing import assert_grounded, describe_findings

pytest_plugins = ["pytester"]

REPORT = "RAG is arXiv:2005.11401.\nDPR is arXiv:2004.04906 and arXiv:2313.01234."
CALLS = [{"tool": "arxiv_search", "input": {"q": "rag"}, "output": "arXiv:2005.11401"}]

HEADER = """
import groundcheck
import pytest
from groundcheck.testing import assert_grounded

REPORT = {report!r}
CALLS = {calls!r}
"""


def _write(pytester: pytest.Pytester, body: str) -> None:
    pytester.makepyfile(HEADER.format(report=REPORT, calls=CALLS) + body)


def test_plugin_is_registered_as_a_pytest11_entry_point() -> None:
    """Installing groundcheck is enough: pytest finds the plugin by its entry point."""
    found = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert found.get("groundcheck") == "groundcheck.pytest_plugin"


def test_assert_grounded_failure_lists_every_finding(pytester: pytest.Pytester) -> None:
    """The failure output names code, line:column, id and message of each finding."""
    _write(pytester, "\ndef test_report():\n    assert_grounded(REPORT, CALLS)\n")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    verdict = groundcheck.audit(REPORT, CALLS)
    assert len(verdict.findings) == 2
    out = result.stdout.str()
    assert "report is not grounded in its tool outputs (2 errors, 0 warnings):" in out
    for finding in verdict.findings:
        assert finding.citation is not None
        where = f"{finding.citation.line}:{finding.citation.column}"
        assert f"{where} error {finding.code} {finding.citation.scheme}:" in out
        assert finding.message in out


def test_assert_grounded_passes_and_returns_the_verdict() -> None:
    """A grounded report passes, and the verdict comes back for further checks."""
    verdict = assert_grounded("RAG is arXiv:2005.11401.", CALLS)
    assert verdict.ok


def test_assert_grounded_fail_on_warning_and_options() -> None:
    """``fail_on="warning"`` fails on warnings; policy options reach the audit."""
    report = "See arXiv:2005.11401."
    calls = [{"tool": "s", "input": "q", "output": None, "recorded": False}, *CALLS]
    assert_grounded(report, calls)
    with pytest.raises(AssertionError, match="outputs-not-recorded"):
        assert_grounded(report, calls, fail_on="warning")
    with pytest.raises(ValueError, match="unknown audit option"):
        assert_grounded(report, calls, not_an_option=1)


def test_comparing_findings_explains_them(pytester: pytest.Pytester) -> None:
    """``assert verdict.findings == ()`` fails with the findings listed, not attrs reprs."""
    _write(
        pytester,
        "\ndef test_report():\n"
        "    verdict = groundcheck.audit(REPORT, CALLS)\n"
        "    assert verdict.findings == ()\n",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "comparing groundcheck results with '==':" in out
    assert "left: 2 findings" in out
    for line in describe_findings(groundcheck.audit(REPORT, CALLS).findings):
        assert line[:60] in out


def test_comparing_verdicts_explains_both(pytester: pytest.Pytester) -> None:
    """Two verdicts compared: each side's headline and findings are shown."""
    _write(
        pytester,
        "\ndef test_report():\n"
        "    assert groundcheck.audit(REPORT, CALLS) == groundcheck.audit('', CALLS)\n",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "left: report is not grounded in its tool outputs (2 errors" in out
    assert "right: report is grounded in its tool outputs (0 errors" in out


def test_other_comparisons_are_left_to_pytest(pytester: pytest.Pytester) -> None:
    """A failed comparison of plain values reads as pytest always wrote it."""
    _write(pytester, "\ndef test_plain():\n    assert [1, 2] == [1, 3]\n")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    assert "comparing groundcheck results" not in result.stdout.str()
    result.stdout.fnmatch_lines(["*At index 1 diff*"])


def test_policy_fixture_reads_the_marker(pytester: pytest.Pytester) -> None:
    """``groundcheck_policy`` is the default policy, changed by ``@pytest.mark.groundcheck``."""
    _write(
        pytester,
        "\ndef test_default(groundcheck_policy):\n"
        "    assert groundcheck_policy == groundcheck.Policy()\n"
        "\n@pytest.mark.groundcheck(title_threshold=80, unrecorded_severity='warning')\n"
        "def test_marked(groundcheck_policy):\n"
        "    assert groundcheck_policy.title_threshold == 80\n"
        "    assert groundcheck_policy.unrecorded_severity == 'warning'\n"
        "    assert_grounded('x', [{'tool': 't', 'input': 1, 'output': 'y'}],"
        " policy=groundcheck_policy)\n"
        "\n@pytest.mark.groundcheck(no_such_option=1)\n"
        "def test_bad(groundcheck_policy):\n"
        "    pass\n",
    )
    result = pytester.runpytest("--strict-markers")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*unknown audit option*no_such_option*"])


def test_plugin_and_testing_are_cheap_to_import() -> None:
    """pytest loads the plugin in every session: it pulls in no groundcheck stage."""
    code = (
        "import sys\n"
        "import groundcheck.pytest_plugin, groundcheck.testing\n"
        "mods = sorted(m for m in sys.modules if m.startswith('groundcheck.'))\n"
        "assert mods == ['groundcheck.pytest_plugin', 'groundcheck.testing'], mods\n"
        "heavy = [m for m in ('attrs', 'regex', 'rapidfuzz', 'bibtexparser') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
