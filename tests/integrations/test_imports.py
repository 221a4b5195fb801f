"""Frameworks load only when their integration module is imported, and say how to install."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

FRAMEWORKS = ("inspect_ai", "mcp", "langchain_core", "agents", "opentelemetry")

# integration module, the framework it needs, the extra that installs it
INTEGRATIONS = [
    ("groundcheck.integrations.inspect", "inspect_ai", "inspect"),
    ("groundcheck.integrations.langchain", "langchain_core", "langchain"),
    ("groundcheck.integrations.openai_agents", "agents", "openai-agents"),
]


def test_using_groundcheck_and_its_light_modules_imports_no_framework() -> None:
    """Auditing, the pytest helpers, and the modules that import lazily pull in no framework."""
    code = (
        "import sys, groundcheck\n"
        "import groundcheck.testing, groundcheck.pytest_plugin, groundcheck.integrations\n"
        "import groundcheck.integrations.mcp, groundcheck.integrations.otel\n"
        "v = groundcheck.audit('arXiv:2005.11401', [{'tool': 't', 'input': 1, 'output': 'x'}])\n"
        "groundcheck.integrations.otel.evaluation_attributes(v)\n"
        "groundcheck.testing.describe_verdict(v)\n"
        f"loaded = [m for m in {FRAMEWORKS!r} if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(("module", "framework", "extra"), INTEGRATIONS)
def test_missing_framework_names_the_extra(module: str, framework: str, extra: str) -> None:
    """Without its framework, an integration fails to import with the pip command to run."""
    if importlib.util.find_spec(framework) is not None:
        pytest.skip(f"{framework} is installed")
    with pytest.raises(ModuleNotFoundError, match=rf"pip install .* \(or the '{extra}' extra\)"):
        importlib.import_module(module)


def test_mcp_main_without_mcp_exits_with_the_extra(capsys: pytest.CaptureFixture[str]) -> None:
    """``groundcheck mcp`` without the mcp package says what to install and exits 2."""
    if importlib.util.find_spec("mcp") is not None:
        pytest.skip("mcp is installed")
    from groundcheck.integrations import mcp

    assert mcp.main([]) == 2
    assert "(or the 'mcp' extra)" in capsys.readouterr().err


def test_all_extra_is_the_union_of_every_library_extra() -> None:
    """``pip install 'groundcheck-citations[all]'`` installs what each extra does, no more, no less."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text("utf-8"))["project"]["optional-dependencies"]
    tools = {"test", "bench", "all"}
    union = {req for name, reqs in extras.items() if name not in tools for req in reqs}
    assert set(extras["all"]) == union
