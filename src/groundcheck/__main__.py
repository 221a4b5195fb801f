"""``python -m groundcheck``: the same as the ``groundcheck`` command."""

import sys

from groundcheck.cli import main

sys.exit(main())
