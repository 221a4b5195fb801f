"""The argument parser class every command and subcommand uses."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["Parser"]


class Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line message, as the rest of the CLI does."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: error: {message}\n(see '{self.prog} --help')\n")
