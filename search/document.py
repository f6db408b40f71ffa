"""The search document, declared once: which text of a source is searched, and at what weight.

PostgreSQL keeps one weighted tsvector per published source (the `document` of SearchEntry),
written by triggers in the same transaction as every write it depends on. The SQL of that
document is generated from SEARCH_DOCUMENT below (see `document_sql()`), the triggers from it
and the entry's columns (see `triggers.py`), and ranking reads RANK_WEIGHTS. Changing the
declaration means a migration that re-installs the triggers (`triggers.install_sql()`); a test
compares the database's installed functions with what this declaration generates.
"""

from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.db import models

from catalog.models import Source

LANGUAGE = "english"
WEIGHTS = "ABCD"
# What a match at each weight is worth to ts_rank. Readers search for names, and a source's
# aliases are names too: the mechanism a paper introduced is often only there (Orca's
# "iteration-level scheduling"), so B counts nearly as much as the title, which still wins a tie.
# Topic names tag every source of a topic alike, so C stays low: a word that is a topic's name
# should not lift its narrower members above the source whose title names the mechanism.
RANK_WEIGHTS = {"A": 1.0, "B": 0.9, "C": 0.1, "D": 0.05}


# An acronym's plural ("GPUs", "LLMs"): the stemmer keeps it whole ('gpus'), so a title about
# GPUs would not match "gpu". The document adds the singular as well.
ACRONYM_PLURAL = r"\m([[:upper:]]{2,}[[:digit:]]*)s\M"


# A name run together in camel case ("FlashAttention", "PagedAttention", "DeepGEMM", "LMCache"):
# the parser keeps it whole, so "attention" would not find FlashAttention's title. The document
# adds its parts (SEARCH_DOCUMENT), split where a lower-case letter meets a capital and where a
# run of capitals meets a capitalised word ("LM Cache", not "GP Us": the word needs two
# lower-case letters).
CAMEL_WORD = (
    r"\m([[:alnum:]]*(?:[[:lower:]][[:upper:]]|[[:upper:]]{2}[[:lower:]]{2})[[:alnum:]]*)\M"
)
CAMEL_LOWER_UPPER = r"([[:lower:]])([[:upper:]])"
CAMEL_CAPITALS_WORD = r"([[:upper:]])([[:upper:]][[:lower:]]{2})"


def column_of(model: type[models.Model], name: str) -> str:
    """The database column of `model`'s concrete field `name`."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or field.column is None:
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field.column


@dataclass(frozen=True)
class Field:
    """A text column of the source, searched at `weight`.

    `list_separator`: the column holds a list ("FA2,FlashAttention-2") whose separators become
    spaces, so each item is searched as its own words. `items`: of a ", "-separated list, "all",
    the "first" only or the "rest". `camel_parts`: not the text but the parts of its camel-case
    names ("FlashAttention-3" gives "Flash Attention").
    """

    name: str
    weight: str
    list_separator: str = ""
    items: str = "all"
    camel_parts: bool = False

    def text(self, row: str) -> str:
        text = f"{row}.{column_of(Source, self.name)}"
        if self.items == "first":
            text = f"split_part({text}, ',', 1)"
        elif self.items == "rest":
            text = f"regexp_replace({text}, '^[^,]*,?', '')"
        if self.list_separator:
            text = f"replace({text}, '{self.list_separator}', ' ')"
        return text

    def sql(self, row: str) -> str:
        text = self.text(row)
        if self.camel_parts:
            split = (
                f"regexp_replace(regexp_replace(m[1], '{CAMEL_LOWER_UPPER}', '\\1 \\2', 'g'), "
                f"'{CAMEL_CAPITALS_WORD}', '\\1 \\2', 'g')"
            )
            matches = f"regexp_matches({text}, '{CAMEL_WORD}', 'g')"
            return f"(SELECT string_agg({split}, ' ') FROM {matches} AS m)"
        # The singular of each acronym plural, after the text so that phrase positions hold.
        singulars = (
            f"(SELECT string_agg(m[1], ' ') FROM regexp_matches({text}, "
            f"'{ACRONYM_PLURAL}', 'g') AS m)"
        )
        return f"concat_ws(' ', {text}, {singulars})"


@dataclass(frozen=True)
class Related:
    """The `field` of every row the source's many-to-many `name` links to (topic names)."""

    name: str
    field: str
    weight: str

    @property
    def link(self) -> "models.ManyToManyField[Any, Any]":  # fields are generic to mypy only
        link = Source._meta.get_field(self.name)
        if not isinstance(link, models.ManyToManyField):
            raise TypeError(f"Source.{self.name} is not a many-to-many field")
        return link

    @property
    def through_table(self) -> str:
        return self.link.m2m_db_table()

    @property
    def source_column(self) -> str:
        return self.link.m2m_column_name()

    @property
    def target_column(self) -> str:
        return self.link.m2m_reverse_name()

    @property
    def target_table(self) -> str:
        return self.link.related_model._meta.db_table

    @property
    def text_column(self) -> str:
        return column_of(self.link.related_model, self.field)

    def sql(self, row: str) -> str:
        return (
            f"(SELECT string_agg(t.{self.text_column}, ' ') FROM {self.through_table} st "
            f"JOIN {self.target_table} t ON t.id = st.{self.target_column} "
            f"WHERE st.{self.source_column} = {row}.id)"
        )


type Document = tuple[Field | Related, ...]

# A paper lists every author (a few hundred for some): the first names it as a citation does
# ("Vaswani et al.") and is a name of the source, as an organisation that is the sole author is
# ("AMD", "NVIDIA"); the others weigh least and come last, so that a long list neither ranks a
# source by its authors nor moves the summary's words away from the title's, which ts_rank's
# proximity rewards. The parts of camel-case names weigh as the summary: "attention" inside
# "FlashAttention" says what the source is about, less than a word of its title does. Keywords
# (a reader's words for what the source is about) weigh as the summary too.
SEARCH_DOCUMENT: Document = (
    Field("title", "A"),
    Field("aliases", "B", list_separator=","),
    Field("authors", "B", items="first"),
    Field("venue", "C"),
    Related("topics", "name", "C"),
    Field("summary", "D"),
    Field("keywords", "D", list_separator=";"),
    Field("title", "D", camel_parts=True),
    Field("aliases", "D", list_separator=",", camel_parts=True),
    Field("summary", "D", camel_parts=True),
    Field("authors", "D", items="rest"),
)


def without(*names: str, document: Document = SEARCH_DOCUMENT) -> Document:
    """The document without the parts of source columns `names`: what a migration installs
    before those columns exist (a SQL function's body is checked against the table)."""
    return tuple(part for part in document if part.name not in names)


def rank_weights() -> list[float]:
    """RANK_WEIGHTS in the order SearchRank takes them: D, C, B, A."""
    return [RANK_WEIGHTS[weight] for weight in reversed(WEIGHTS)]


def source_fields(document: Document = SEARCH_DOCUMENT) -> list[str]:
    """The source's own searched columns, in declaration order, each once."""
    columns = [column_of(Source, part.name) for part in document if isinstance(part, Field)]
    return list(dict.fromkeys(columns))


def related_parts(document: Document = SEARCH_DOCUMENT) -> list[Related]:
    return [part for part in document if isinstance(part, Related)]


def document_sql(document: Document = SEARCH_DOCUMENT, row: str = "s") -> str:
    """The tsvector of source `row`: one setweight(to_tsvector(...)) per weight, A first.

    Parts of the same weight are parsed as one text, so their words take consecutive positions.
    """
    ordered = sorted(document, key=lambda part: WEIGHTS.index(part.weight))
    vectors = [
        f"setweight(to_tsvector('{LANGUAGE}', concat_ws(' ', "
        f"{', '.join(part.sql(row) for part in parts)})), '{weight}')"
        for weight, parts in groupby(ordered, key=lambda part: part.weight)
    ]
    return "SELECT " + "\n    || ".join(vectors)
