"""Making data safe to print: control characters made visible, invalid surrogates replaced.

Tool names, titles and raw citations come from traces an agent (or an attacker) wrote. Printed
as they are, a newline forges a finding line, an ESC sequence recolours or clears the screen,
an OSC sequence sets the window title or plants a hyperlink, and a bidi override reorders what
the reader sees. Text output shows them as escapes instead. A lone surrogate (``\\ud800`` in a
JSON string) cannot be encoded at all; every rendered output replaces it with U+FFFD.
"""

from __future__ import annotations

import re

from groundcheck.text import LazyPattern

__all__ = ["replace_surrogates", "visible_controls"]

_CONTROL = LazyPattern("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidi
embeddings, overrides and isolates ("Trojan source"). One character at a time: linear.
Compiled on first use: most runs print no message."""

_SURROGATE = LazyPattern("[\ud800-\udfff]")
"""Compiled on first use: a text holding a surrogate is rare (see :func:`replace_surrogates`)."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_controls(text: str) -> str:
    r"""``text`` with every control character shown as an escape, so it prints as one line
    that cannot drive the terminal.

    >>> visible_controls("Attention\nIs All \x1b[31mYou\x1b[0m Need\u202e")
    'Attention\\nIs All \\x1b[31mYou\\x1b[0m Need\\u202e'
    >>> visible_controls("plain “title”, 2005.11401")
    'plain “title”, 2005.11401'
    """
    return _CONTROL.sub(_escape, text)


def replace_surrogates(text: str) -> str:
    r"""``text`` with every lone surrogate replaced by U+FFFD, so it always encodes as UTF-8.

    Every output passes through here (a rendered result, then the terminal), so the common
    case is decided at C speed: an ASCII text holds no surrogate, and any other text holds one
    exactly when it does not encode as UTF-8. Only then is it scanned for them (a regex scan
    of a 1.7 MB JSON output was ~10 ms, twice per ``groundcheck extract``).

    >>> replace_surrogates("ok \ud800 and \udcff")
    'ok \ufffd and \ufffd'
    >>> replace_surrogates("plain “title”") == "plain “title”"
    True
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text
