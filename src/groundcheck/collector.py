"""The cyclic garbage collector paused while a trace is read or a text is extracted.

Reading a trace parses its JSON (a search result of 100 papers is some 2,000 objects, a trace
of 10,000 papers 200,000) and then makes many small objects per output (mentions, spans,
works); extracting a report makes a mention, a citation and a tuple or two per identifier (a
flood of 100,000 DOIs in 1 MB: a million objects). Each allocation counts towards the
collector's next pass, and every full pass walks every container alive looking for cycles
that reading and extracting never make: on the audit-at-scale benchmark (10.9 MB of evidence)
the collector took a tenth of the load, and a third of the audit of the DOI flood. Neither
makes reference cycles that must be freed before it ends, so the collector is paused for the
work and runs as before afterwards (what becomes garbage meanwhile is freed by reference
counting as always).

The pause is counted, so reads in several threads (or a read inside a read) resume the
collector only when the last one ends, and only if it was running when the first one began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collection_paused"]

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic collector inside the ``with`` block (see the module docstring)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
