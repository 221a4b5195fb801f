"""Makes ``helpers.py`` importable as ``batch_helpers`` for every batch test module.

The suite runs with ``--import-mode=importlib`` (test folders are not packages), so the
shared helpers are loaded here once instead of by each module that needs them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "batch_helpers", Path(__file__).with_name("helpers.py")
)
assert _spec is not None and _spec.loader is not None
_helpers = importlib.util.module_from_spec(_spec)
sys.modules["batch_helpers"] = _helpers
_spec.loader.exec_module(_helpers)
