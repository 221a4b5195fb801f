"""The argument parser class every command and subcommand uses."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["Parser"]


class Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line message, as the rest of the CLI does.

    argparse makes a help formatter at every ``add_argument`` only to check the metavar
    against ``nargs``, and a formatter asks the terminal's width, which imports shutil
    (~7 M instructions of every start-up). That check never reads the width, so its
    formatter is given one; help and usage are formatted as argparse does.
    """

    _checking_metavar = False

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        self._checking_metavar = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._checking_metavar = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self._checking_metavar:  # only _format_args is called: the width is never read
            return self.formatter_class(prog=self.prog, width=80)  # type: ignore[call-arg]
        return super()._get_formatter()

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: error: {message}\n(see '{self.prog} --help')\n")
