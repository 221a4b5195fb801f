"""Bounded, order-free collections for batches of any size.

A batch may hold millions of runs, so nothing here keeps one item per run unless it must:

- :class:`Smallest` keeps the ``limit`` smallest items it was given, and a count of the rest.
  Keeping the *smallest* (not the first) makes it order-free: two of them merge into the same
  contents whatever the order items arrived in, on whichever worker. That is what lets every
  engine print the same bytes.
- :class:`SeenIds` remembers which run ids were seen in 16 bytes per id (a 64-bit digest in an
  open-addressing table at most half full), never the ids themselves.

>>> s = Smallest(2)
>>> for x in (5, 1, 4, 2):
...     s.add(x)
>>> s.items, s.total, s.omitted
([1, 2], 4, 2)
"""

from __future__ import annotations

import hashlib
from array import array
from bisect import insort
from collections.abc import Iterable
from typing import Any, Generic, TypeVar, cast

__all__ = ["Notes", "SeenIds", "Smallest"]

T = TypeVar("T")


class Smallest(Generic[T]):
    """The ``limit`` smallest items added (sorted), and how many were added in all."""

    __slots__ = ("items", "limit", "total")

    def __init__(self, limit: int, items: Iterable[T] = ()) -> None:
        self.limit = limit
        self.items: list[T] = []
        self.total = 0
        for item in items:
            self.add(item)

    def add(self, item: T) -> None:
        self.total += 1
        items = cast("list[Any]", self.items)  # items compare with each other (tuples, str)
        if len(items) < self.limit:
            insort(items, item)
        elif self.limit and item < items[-1]:
            insort(items, item)
            items.pop()

    def merge(self, other: Smallest[T]) -> None:
        """Fold ``other`` in: the same contents as if every item had been added here."""
        total = self.total + other.total
        for item in other.items:
            self.add(item)
        self.total = total

    @property
    def omitted(self) -> int:
        """Items added but not kept (beyond the limit)."""
        return self.total - len(self.items)

    def __getstate__(self) -> tuple[int, list[T], int]:
        return self.limit, self.items, self.total

    def __setstate__(self, state: tuple[int, list[T], int]) -> None:
        self.limit, self.items, self.total = state

    def __repr__(self) -> str:
        return f"Smallest(limit={self.limit}, kept={len(self.items)}, total={self.total})"


class Notes:
    """Notes in the order they were made, the first ``limit`` kept and the rest counted.

    Called with each note (it is the ``note`` callback of discovery).

    >>> notes = Notes(1)
    >>> notes("a"); notes("b")
    >>> notes.items, notes.omitted
    (['a'], 1)
    """

    __slots__ = ("items", "limit", "omitted")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.items: list[str] = []
        self.omitted = 0

    def __call__(self, text: str) -> None:
        if len(self.items) < self.limit:
            self.items.append(text)
        else:
            self.omitted += 1


_EMPTY = 0


def _digest(key: str) -> int:
    value = int.from_bytes(
        hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little"
    )
    return value or 1  # 0 marks an empty slot


class SeenIds:
    """Which ids were seen, in 16 bytes per id whatever their length.

    Ids are kept as 64-bit digests, so two different ids are taken for one with a chance of
    about n²/2⁶⁵ (3 in 100 million for a million ids): a batch of runs can afford that, a
    list of every id it cannot.

    >>> seen = SeenIds()
    >>> seen.add("r1"), seen.add("r2"), seen.add("r1")
    (True, True, False)
    >>> len(seen)
    2
    """

    __slots__ = ("_count", "_mask", "_slots")

    def __init__(self) -> None:
        self._slots = array("Q", [_EMPTY]) * 1024
        self._mask = 1023
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def add(self, key: str) -> bool:
        """Remember ``key``; True when it was not seen before."""
        if self._insert(_digest(key)):
            self._count += 1
            if 2 * self._count > self._mask:
                self._grow()
            return True
        return False

    def _insert(self, value: int) -> bool:
        slots, mask = self._slots, self._mask
        i = value & mask
        while True:
            held = slots[i]
            if held == _EMPTY:
                slots[i] = value
                return True
            if held == value:
                return False
            i = (i + 1) & mask

    def _grow(self) -> None:
        old = self._slots
        # Repeating a one-slot array builds the table in place: from bytes it would hold a
        # second copy of the new table while the old one is still alive.
        self._slots = array("Q", [_EMPTY]) * (2 * len(old))
        self._mask = 2 * len(old) - 1
        for value in old:
            if value != _EMPTY:
                self._insert(value)

    def __contains__(self, key: Any) -> bool:
        if not isinstance(key, str):
            return False
        value, slots, mask = _digest(key), self._slots, self._mask
        i = value & mask
        while slots[i] != _EMPTY:
            if slots[i] == value:
                return True
            i = (i + 1) & mask
        return False
