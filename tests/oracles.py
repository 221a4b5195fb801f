"""The frozen oracles: copies of code as it was before a rewrite, kept under ``tests/*/oracle``
and compared with the code on fixtures and generated inputs.

An oracle file is not a package module (``tests`` is no package: pytest imports with
``--import-mode=importlib``), so it is loaded from its path under the name
``oracle_<name>``, which is also how one oracle imports another
(``from oracle_segment_v1 import segment``). Loading a name twice gives the same module.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_oracle(test_file: str, name: str) -> ModuleType:
    """The oracle ``oracle/<name>.py`` beside the test module ``test_file`` (its ``__file__``)."""
    module_name = f"oracle_{name}"
    loaded = sys.modules.get(module_name)
    if loaded is not None:
        return loaded
    path = Path(test_file).resolve().parent / "oracle" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
