"""``python -m groundcheck``: the same as the ``groundcheck`` command."""

from groundcheck.cli import console

console()
