"""Matching cited works to what the tools returned: identifiers by key, titles by similarity."""

from groundcheck.grounding.ground import ground, ground_works
from groundcheck.grounding.title_index import TitleIndex, TitleMatch
from groundcheck.grounding.title_rules import RuleSet
from groundcheck.grounding.titles import EvidenceTitles, TitleRelation, similarity

__all__ = [
    "EvidenceTitles",
    "RuleSet",
    "TitleIndex",
    "TitleMatch",
    "TitleRelation",
    "ground",
    "ground_works",
    "similarity",
]
