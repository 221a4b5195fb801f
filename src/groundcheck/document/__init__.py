"""The report's structure: where things sit, and which title is written beside which id."""

from groundcheck.document.layout import Layout

__all__ = ["Layout"]
