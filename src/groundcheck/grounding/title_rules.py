"""The rules that let a title written by an agent meet the title a tool returned.

Agents do not copy titles: they number them (``Paper 3: …``, ``1. …``), append the year or the
authors (``… (Elhage et al., 2022)``), drop the subtitle, stop after the first few words, and
write ``SAEs`` for "Sparse Autoencoders". Tools do not return clean titles either: web search
results carry ``[2402.15335] …`` and ``… | OpenReview``, listings glue a label to the title
(``paper_3 <- Title``), and fixed-width listings cut titles short (``… Extracting Interp...``).

Each rule here makes one of those differences disappear, and each has a name, so the matcher
can say which rule matched and ``benchmarks/eval_titles.py`` can measure each on a labelled set
of real agent outputs (``docs/titles.md``). Rules only ever *add* forms to compare: the title as
written is always one of them, so a rule can gain a match but never lose an exact one.

Query side (a cited title): :func:`query_forms` — enumeration prefixes and trailing
parentheticals stripped, acronyms folded. Title side (a returned title): :func:`title_forms` —
main titles before a long subtitle, web-page decorations and glued labels stripped, acronyms
folded; :func:`cut_prefix` for titles a tool cut short. Between them: :func:`prefix_of`, a
cited title that is a token prefix of a returned one.

Everything works on the normalised form of :func:`groundcheck.extractors.title.normalize_title`.
Every pattern is anchored at a string end or on a literal, with bounded repetitions.
"""

from __future__ import annotations

import re

from attrs import frozen

from groundcheck.extractors.title import main_title as legacy_main_title
from groundcheck.extractors.title import normalize_title

__all__ = [
    "ACRONYMS",
    "ALL_RULES",
    "GENERIC_SUBTITLE_HEADS",
    "RULES",
    "Form",
    "RuleSet",
    "cut_prefix",
    "fold_acronyms",
    "is_generic_subtitle",
    "main_titles",
    "prefix_of",
    "query_forms",
    "strip_decorations",
    "strip_enumeration",
    "strip_parentheticals",
    "title_forms",
]

_ASCII_WORDS = bytes(c if chr(c).isalnum() else 32 for c in range(256))
"""A ``bytes.translate`` table for ASCII: letters and digits kept, the rest to spaces (the
words :func:`_word_count` counts; :func:`normalize_title` has its own fast path)."""


RULES = ("enumeration", "parenthetical", "main-title", "decoration", "acronym", "prefix", "cut")
"""Every rule a :class:`~groundcheck.grounding.title_index.TitleMatch` can name in ``rules``."""


@frozen
class Form:
    """One normalised way to read a title, and the rules that produced it (none: as written).

    ``prefixable`` is false for a returned title as written when it carries a decoration: its
    first words are the decoration's ("pdf linear representations"), so only the clean form
    may stand behind a cited prefix.
    """

    text: str
    rules: tuple[str, ...] = ()
    prefixable: bool = True


@frozen
class RuleSet:
    """Which rules are on. All are, by default; ``benchmarks/eval_titles.py`` turns each off
    and on to measure it. With every rule off, matching is what it was before the rules: the
    title as written, and its main title before a colon or spaced dash."""

    enumeration: bool = True
    parenthetical: bool = True
    main_title: bool = True
    decoration: bool = True
    acronym: bool = True
    prefix: bool = True
    cut: bool = True

    @classmethod
    def none(cls) -> RuleSet:
        return cls(False, False, False, False, False, False, False)

    def only(self, *names: str) -> RuleSet:
        """This rule set with only ``names`` on (names as in :data:`RULES`, dashes allowed)."""
        return RuleSet(**{f: f in {n.replace("-", "_") for n in names} for f in _FIELDS})

    def without(self, *names: str) -> RuleSet:
        off = {n.replace("-", "_") for n in names}
        return RuleSet(**{f: getattr(self, f) and f not in off for f in _FIELDS})


_FIELDS = ("enumeration", "parenthetical", "main_title", "decoration", "acronym", "prefix", "cut")
ALL_RULES = RuleSet()


# -- query side -------------------------------------------------------------------------------

_ENUMERATION = re.compile(
    r"""\s{0,8}(?:
        (?i:paper|article|study|reference|ref|item|entry|source|work|no\.?)[ \t]{0,3}\#?\d{1,3}
            [ \t]{0,3}[:.)\]–—-][ \t]{0,3}
      | \#\d{1,3}[ \t]{0,3}[:.)\]–—-]?[ \t]{1,3}
      | \d{1,3}(?:\.\d{1,2}){0,2}[.)][ \t]{1,3}
      | \d{1,3}(?:\.\d{1,2}){1,2}[ \t]{1,3}
      | \[\d{1,3}\][ \t]{0,3}
      | \([ \t]?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[ \t]?\)[ \t]{1,3}
      | [a-z]\)[ \t]{1,3}
    )""",
    re.VERBOSE,
)
"""``Paper 3:``, ``#4``, ``1.``, ``2.1)``, ``2.1``, ``[7]``, ``(a)``, ``(iv)``, ``b)`` before a
title. A bare number without a dot stays ("2 OLMo 2 Furious" is a title), and so does
"1.58-bit" (no space after the number)."""

_TRAILING_PARENTHETICAL = re.compile(
    r"[ \t]{0,8}(?:\([^()\n]{1,120}\)|\[[^\[\]\n]{1,60}\]"
    r"|[ \t]/[ \t]{1,3}[^\W_][^\s/]{0,24}(?:[ \t][^\s/]{1,24}){0,2})[ \t.]{0,4}$"
)
"""A parenthetical (or bracket) at the very end: ``(2022)``, ``(Elhage et al., 2022)``,
``(ROME)``, ``[arXiv 2023]``; and a short alias after a spaced slash, which reviews write for
the method's name (``Learning to Ask / AwN``: the paper's "Ask-when-Needed")."""


def strip_enumeration(text: str) -> str | None:
    """The title without a leading enumeration, or None when there is none.

    >>> strip_enumeration("Paper 3: Toy Models of Superposition")
    'Toy Models of Superposition'
    >>> strip_enumeration("2 OLMo 2 Furious") is None
    True
    """
    m = _ENUMERATION.match(text)
    if m is None or m.end() >= len(text):
        return None
    rest = text[m.end() :].strip()
    return rest if rest and rest != text.strip() else None


def strip_parentheticals(text: str, limit: int = 3) -> str | None:
    """The title without trailing parentheticals (at most ``limit``), or None when none.

    >>> strip_parentheticals("Locating and Editing Factual Associations in GPT (ROME) (2022)")
    'Locating and Editing Factual Associations in GPT'
    >>> strip_parentheticals("Learning to Ask / AwN")
    'Learning to Ask'
    """
    current = text.rstrip()
    for _ in range(limit):
        if current.rstrip(" \t.\n")[-1:] not in (")", "]") and "/" not in current[-100:]:
            # The pattern ends on ")", "]" or an alias within 90 characters of a "/" (then
            # spaces or dots, and "$" matches before a last newline too): nothing to strip.
            break
        m = _TRAILING_PARENTHETICAL.search(current, max(0, len(current) - 140))
        if m is None or m.start() == 0:
            break
        current = current[: m.start()].rstrip(" \t,;:–—-")
    return current if current and current != text.rstrip() else None


# -- acronyms and short forms -----------------------------------------------------------------

ACRONYMS: dict[str, str] = {
    "sae": "sparse autoencoder",
    "saes": "sparse autoencoders",
    "llm": "large language model",
    "llms": "large language models",
    "mllm": "multimodal large language model",
    "mllms": "multimodal large language models",
    "lm": "language model",
    "lms": "language models",
    "vlm": "vision language model",
    "vlms": "vision language models",
    "rl": "reinforcement learning",
    "rlhf": "reinforcement learning from human feedback",
    "cot": "chain of thought",
    "nmt": "neural machine translation",
    "gan": "generative adversarial network",
    "gans": "generative adversarial networks",
    "vae": "variational autoencoder",
    "vaes": "variational autoencoders",
    "gnn": "graph neural network",
    "gnns": "graph neural networks",
    "cnn": "convolutional neural network",
    "cnns": "convolutional neural networks",
    "rnn": "recurrent neural network",
    "rnns": "recurrent neural networks",
    "nlp": "natural language processing",
    "nli": "natural language inference",
    "rag": "retrieval augmented generation",
    "icl": "in context learning",
    "dpo": "direct preference optimization",
    "ppo": "proximal policy optimization",
    "sft": "supervised fine tuning",
    "qa": "question answering",
    "vqa": "visual question answering",
    "asr": "automatic speech recognition",
    "kg": "knowledge graph",
    "kgs": "knowledge graphs",
    "ner": "named entity recognition",
    "vit": "vision transformer",
    "vits": "vision transformers",
    # short forms that are not acronyms
    "nets": "networks",
    "net": "network",
}
"""Acronyms (and short forms) folded to their long form, on both sides, before matching, so
"Scaling and Evaluating SAEs" meets "Scaling and Evaluating Sparse Autoencoders" and
"Generative Adversarial Nets" meets "… Networks". Only whole tokens of the normalised title are
folded; a title written either way folds to the same string, so an exact match stays exact."""

_JOINED = {("auto", "encoder"): "autoencoder", ("auto", "encoders"): "autoencoders"}
"""Two-token spellings folded to one ("Auto-Encoders" normalises to "auto encoders")."""

_FOLD_TRIGGERS = frozenset(ACRONYMS) | {"auto"}


def fold_acronyms(normalized: str) -> str:
    """A normalised title with every acronym and short form in :data:`ACRONYMS` spelled out.

    >>> fold_acronyms("scaling and evaluating saes")
    'scaling and evaluating sparse autoencoders'
    >>> fold_acronyms("sparse auto encoders find features")
    'sparse autoencoders find features'
    """
    tokens = normalized.split(" ")
    if _FOLD_TRIGGERS.isdisjoint(tokens):
        return normalized
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if i + 1 < len(tokens) and (token, tokens[i + 1]) in _JOINED:
            out.append(_JOINED[token, tokens[i + 1]])
            i += 2
            continue
        out.append(ACRONYMS.get(token, token))
        i += 1
    return " ".join(out)


def _add_form(
    seen: dict[str, tuple[str, ...]],
    candidate: str | None,
    applied: tuple[str, ...],
    rules: RuleSet,
) -> None:
    """Record ``candidate`` normalised (acronyms folded when the rule is on) with the rules
    that made it, unless an earlier form already has that text."""
    if not candidate:
        return
    normalized = normalize_title(candidate)
    if rules.acronym:
        folded = fold_acronyms(normalized)
        if folded != normalized:
            normalized, applied = folded, (*applied, "acronym")
    if normalized and normalized not in seen:
        seen[normalized] = applied


def query_forms(text: str, rules: RuleSet | None = None) -> tuple[Form, ...]:
    """Every normalised form of a cited title worth looking up, the title as written first.

    ``text`` is the title as written (``Citation.raw``); an already normalised string works
    too, with the enumeration and parenthetical rules then finding less to strip.

    >>> for f in query_forms("2. Funny or Persuasive (Labroo et al., 2026)"):
    ...     print(repr(f.text), f.rules)
    '2 funny or persuasive labroo et al 2026' ()
    'funny or persuasive labroo et al 2026' ('enumeration',)
    'funny or persuasive' ('enumeration', 'parenthetical')
    """
    rules = rules or ALL_RULES
    raw = text.strip().lstrip("#").strip().strip("*_").strip()
    seen: dict[str, tuple[str, ...]] = {}

    def add(candidate: str | None, applied: tuple[str, ...]) -> None:
        _add_form(seen, candidate, applied, rules)

    add(raw, ())
    bare = strip_enumeration(raw) if rules.enumeration else None
    add(bare, ("enumeration",))
    if rules.parenthetical:
        unwrapped = strip_parentheticals(bare or raw)
        add(unwrapped, ("enumeration", "parenthetical") if bare else ("parenthetical",))
    return tuple(Form(t, r) for t, r in seen.items())


# -- title side -------------------------------------------------------------------------------

GENERIC_SUBTITLE_HEADS = frozenset(
    {
        "survey", "surveys", "review", "reviews", "overview", "tutorial", "primer",
        "perspective", "perspectives", "introduction", "retrospective", "revisited",
        "reply", "response", "comment", "commentary", "rebuttal", "erratum", "corrigendum",
        "addendum", "appendix", "supplement", "supplementary", "abstract", "summary",
        "roadmap", "taxonomy", "critique", "extended", "preprint", "part", "volume",
        "position", "keynote", "invited", "lecture", "lectures", "notes", "thesis",
        "dissertation", "chapter",
    }
)  # fmt: skip
"""Words that make a subtitle a *genre* rather than a description ("A Survey", "A Systematic
Review", "An Overview of …", "Extended Abstract", "Part II"). Dropping such a subtitle names a
different paper ("X" versus "X: A Survey"), so neither the main-title nor the prefix rule drops
one. A subtitle is generic when one of these is among its first three words (articles and
adjectives such as "comprehensive" come before the head noun)."""


def is_generic_subtitle(normalized_tail: str) -> bool:
    """Is this (normalised) subtitle or dropped tail a genre such as "a survey of …"?

    >>> is_generic_subtitle("a comprehensive survey"), is_generic_subtitle("scaling to trillions")
    (True, False)
    """
    return not GENERIC_SUBTITLE_HEADS.isdisjoint(normalized_tail.split(" ", 3)[:3])


_MAIN_SPLIT = re.compile(r"[ \t]{0,4}(?::|\?|!|,[ \t]{1,4}with[ \t]|[ \t][-–—][ \t]|—)[ \t]{0,4}")
"""Where a main title ends: a colon, a question or exclamation mark, ", with", a spaced dash
or an em dash."""


_ALNUM_RUN = re.compile(r"[^\W_]+")


def _may_split(text: str) -> bool:
    """Cheap test: does the title hold any main-title separator at all?"""
    return (
        ":" in text or "?" in text or "!" in text or "—" in text or ", with" in text
        or " - " in text or " – " in text
    )  # fmt: skip


def _word_count(text: str) -> int:
    """How many runs of letters and digits ``text`` holds (on ASCII, found by a translation
    table instead of the regex: the same runs, sooner)."""
    if text.isascii():
        return len(text.encode("ascii").translate(_ASCII_WORDS).split())
    return len(_ALNUM_RUN.findall(text))


def main_titles(title: str) -> list[str]:
    """Main titles of a returned title: each part before a separator whose subtitle has three
    words or more and is not generic. After ``:`` or a dash a one-word main title counts
    ("Mamba: …"); after ``?``, ``!`` and ", with", two words at least.

    >>> main_titles("What do Humor Classifiers Learn? An Attempt to Explain Humor Recognition")
    ['What do Humor Classifiers Learn?']
    >>> main_titles("Large Language Models: A Comprehensive Survey")
    []
    """
    found: list[str] = []
    text = title.strip()
    if not _may_split(text):
        return found
    for m in _MAIN_SPLIT.finditer(text, 0, min(len(text), 400)):
        head, tail = text[: m.start()].strip(), text[m.end() :].strip()
        if not head or not tail:
            continue
        mark = m.group().strip()
        head_out = head + mark if mark in ("?", "!") else head
        words = _word_count(head)
        if words == 0 or (mark not in (":", "-", "–", "—") and words < 2):
            continue
        normalized_tail = normalize_title(tail)
        if len(normalized_tail.split()) >= 3 and not is_generic_subtitle(normalized_tail):
            found.append(head_out)
    return found


_ID_PREFIX = re.compile(
    r"\s{0,4}(?:\[(?:arxiv:)?\d{4}\.\d{4,5}(?:v\d{1,3})?\]|[(\[]?(?i:pdf|html|citation|book)[)\]]"
    r"|(?:NeurIPS|ICLR|ICML|CVPR|ACL|EMNLP|AAAI)(?:\s\d{4})?\s(?:Poster|Oral|Spotlight)"
    r"|(?i:arxiv:)?\d{4}\.\d{4,5}(?:v\d{1,3})?(?:\s{0,3}[:\]–—|-])?)\s{1,4}"
)
"""``[2402.15335] Title``, ``(PDF) Title``, ``[PDF] Title``, ``NeurIPS Poster Title``,
``2101.03961: Title`` — what a web page or listing puts before a title."""
_LABEL_ARROW = re.compile(r"\s{0,4}[\w.:/-]{1,40}\s{0,4}(?:<-|<=|->|=>|→|←|⇐|⇒)\s{0,4}")
"""``paper_3 <- Title``: a short label and an arrow glued before a listing title."""
_SITE_SUFFIX = re.compile(
    r"\s{1,4}(?:\||[-–—·]\s(?i:arxiv|openreview|semantic\s?scholar|researchgate|acl\santhology|"
    r"ieee\sxplore|sciencedirect|springer(?:link)?|papers\swith\scode|hugging\s?face|"
    r"google\sscholar|pubmed|pmc|ssrn|biorxiv|medrxiv|wikipedia|github|medium|project\spage|proceedings"
    r"[^|\n]{0,60}|acm[^|\n]{0,30}|neurips[^|\n]{0,30}|pmlr[^|\n]{0,30}|nature[^|\n]{0,30}))"
    r"[^|\n]{0,80}$"
)
"""``Title | OpenReview``, ``Title - arXiv``, ``Title | by Someone | Medium``: what a page adds."""
_TRAILING_META = re.compile(
    r"\s{0,4}\((?:[^()\n]{0,60}(?:et\sal|\d{4}|arxiv|doi)[^()\n]{0,60})\)\s{0,4}\.?$", re.IGNORECASE
)
"""A trailing ``(2020)``, ``(Lewis et al., 2020)`` or ``(arXiv:2005.11401)`` on a listing title."""


_DECORATION_MARKS = tuple("→←⇐⇒·")
"""The marks of a decoration outside ASCII (the ASCII ones are tested one by one)."""


def _may_be_decorated(text: str) -> bool:
    """Cheap test: could anything of :func:`strip_decorations` apply?"""
    return (
        "[" in text or "(" in text or "|" in text or "<" in text or ">" in text
        or (not text.isascii() and any(mark in text for mark in _DECORATION_MARKS))
        or text[:1].isdigit()
        or " - " in text or " – " in text or " — " in text
        or (
            (" Poster" in text or " Oral" in text or " Spotlight" in text)
            and text[:1].upper() != text[:1].lower()
            and text.split(" ", 2)[1:2] in (["Poster"], ["Oral"], ["Spotlight"])
        )
    )  # fmt: skip


def strip_decorations(title: str) -> str | None:
    """A returned title without what a web page or listing glued on, or None when clean.

    >>> strip_decorations("[2402.15335] Low-Rank Representations Meets Deep Unfolding")
    'Low-Rank Representations Meets Deep Unfolding'
    >>> strip_decorations("A New Look at Low-Rank Recurrent Neural Networks | OpenReview")
    'A New Look at Low-Rank Recurrent Neural Networks'
    >>> strip_decorations("sae_paper <- Sparse Autoencoders Find Highly Interpretable Features")
    'Sparse Autoencoders Find Highly Interpretable Features'
    """
    text = title.strip()
    if not _may_be_decorated(text):
        return None
    for _ in range(2):
        m = _ID_PREFIX.match(text) or _LABEL_ARROW.match(text)
        if m is None or m.end() >= len(text):
            break
        text = text[m.end() :].strip()
    first_bar = text.find(" | ") if "|" in text else -1
    if first_bar > 0:
        tail = text[first_bar + 3 :]
        if len(normalize_title(tail.split(" | ", 1)[0]).split()) <= 6:
            text = text[:first_bar].strip()
    else:
        m = _SITE_SUFFIX.search(text, max(0, len(text) - 160))
        if m is not None and m.start() > 0:
            text = text[: m.start()].strip()
    m = _TRAILING_META.search(text, max(0, len(text) - 130))
    if m is not None and m.start() > 0:
        text = text[: m.start()].strip()
    return text if text and text != title.strip() else None


_CUT_END = re.compile(r"(?:\.{3}|…)\s{0,4}$")
_MIN_CUT_TOKENS = 4
"""A title cut at a fixed width must keep this many whole words to be matched by its prefix."""


def cut_prefix(title: str, rules: RuleSet | None = None) -> str | None:
    """The normalised text of a title a tool cut short (it ends in ``...`` or ``…``), or None.

    The last word may be cut mid-word; it is kept, and matched as a prefix of the cited word.

    >>> cut_prefix("Scaling Monosemanticity: Extracting Interpretable Fea...")
    'scaling monosemanticity extracting interpretable fea'
    """
    if not title.rstrip().endswith(("...", "…")):
        return None
    m = _CUT_END.search(title, max(0, len(title) - 12))
    if m is None:
        return None
    normalized = normalize_title(title[: m.start()])
    if (rules or ALL_RULES).acronym:
        normalized = fold_acronyms(normalized)
    if len(normalized.split(" ")) < _MIN_CUT_TOKENS + 1:
        return None
    return normalized


def title_forms(title: str, rules: RuleSet | None = None) -> tuple[Form, ...]:
    """Every normalised form under which a returned title is searchable, the title first.

    >>> [(f.text, f.rules) for f in title_forms("Scaling and Evaluating SAEs")]
    [('scaling and evaluating sparse autoencoders', ('acronym',))]
    >>> [f.rules for f in title_forms("[2309.08600] Sparse Autoencoders: A Study of GPT-2")]
    [(), ('decoration',), ('decoration', 'main-title')]
    """
    rules = rules or ALL_RULES
    if _single_form(title, rules):  # the title as written, normalised as _add_form does
        normalized = normalize_title(title)
        if not normalized:
            return ()
        folded = fold_acronyms(normalized) if rules.acronym else normalized
        return (Form(normalized),) if folded == normalized else (Form(folded, ("acronym",)),)
    seen: dict[str, tuple[str, ...]] = {}

    def add(candidate: str | None, applied: tuple[str, ...]) -> None:
        _add_form(seen, candidate, applied, rules)

    add(title, ())
    clean: str | None = strip_decorations(title) if rules.decoration else None
    add(clean, ("decoration",))
    raw = next(iter(seen), None) if clean else None
    base = clean or title
    if rules.main_title:
        for main in main_titles(base):
            add(main, ("decoration", "main-title") if clean else ("main-title",))
    else:
        add(legacy_main_title(base), ("decoration", "main-title") if clean else ("main-title",))
    return tuple(Form(t, r, t != raw) for t, r in seen.items())


def _single_form(title: str, rules: RuleSet) -> bool:
    """Is the title as written its only form? True when no rule can add one: no decoration
    to strip and no main-title separator (the same cheap tests :func:`strip_decorations` and
    :func:`main_titles` start with, so they would find nothing). Most returned titles are
    such, and are then indexed without those two calls."""
    text = title.strip()
    if rules.decoration and _may_be_decorated(text):
        return False
    if rules.main_title:
        return not _may_split(text)
    return ":" not in text and "-" not in text and "–" not in text and "—" not in text


def prefix_of(query: str, choice: str) -> str | None:
    """The first as many words of ``choice`` as ``query`` has, when a prefix may stand for it.

    A cited title may stop early ("Scaling Monosemanticity: Extracting Interpretable Features"
    for "… from Claude 3 Sonnet") when it keeps at least three words and drops at least three
    that are not a genre ("X" never stands for "X: A Survey of Y"). Both strings normalised.

    >>> prefix_of("toy models of", "toy models of superposition in neural networks")
    'toy models of'
    >>> prefix_of("attention is all you", "attention is all you a survey of methods") is None
    True
    """
    k = query.count(" ") + 1
    if k < 3:
        return None
    parts = choice.split(" ", k)
    if len(parts) <= k:
        return None
    tail = parts[k]
    if tail.count(" ") < 2 or is_generic_subtitle(tail):
        return None
    return " ".join(parts[:k])
