"""Navigational search: when the query *is* a source's name, that source comes first.

A source's names are its title, the part of the title before a colon ("EAGLE-2: Faster
Inference..." is called "EAGLE-2"), its aliases, and the acronym of its short title's
capitalised words and humps ("Programming Massively Parallel Processors" is "PMPP",
"FlashAttention-3" is "FA3"). Names are compared normalised: lower case, letters and digits
only, so "flash attention", "Flash-Attention" and "flashattention" are one name. A name that
ends in a version ("FlashAttention-3", "DeepSeek-V3", "Llama 3") is also known by its *base*
("flashattention", "deepseek"), stored with a `~` in front: a query naming the base exactly
finds the original first and its versions next.

PostgreSQL computes the names with `catalog_source_names(title, aliases)` (NAMES_FUNCTION),
indexed by an expression GIN index, so the lookup over every published source is one index
scan that no write can leave stale. Other databases run `source_names()` in Python over the
published sources' titles and aliases. `tests/search/test_names.py` checks that both
give the same names for every shipped source.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import connections

from .described import subject_words
from .sql_objects import Function

BASE_MARK = "~"
# Trailing version: "3", "v3", "2.5" (the dot is already gone when this is applied).
VERSION = re.compile(r"v?[0-9]+$")
NOT_NAME = re.compile(r"[^0-9a-z]+")
# A capital that starts a word or a hump of a camel-case word.
INITIAL = re.compile(r"(?<![A-Za-z])[A-Z]|(?<=[a-z])[A-Z]")
TRAILING_NUMBER = re.compile(r"[0-9]+\s*$")
TRAILING_DIGITS = re.compile(r"[0-9]+$")
LEADING_ARTICLE = re.compile(r"^\s*(?:the|an?)\s+(?=\S)", re.IGNORECASE)
MIN_NAME = 2
# A query that is one token of a few letters and a number written together ("FP6", "INT4",
# "H200", "GB200", "sm_100", "MI355X") names a number format or a chip: that exact name only,
# never a version of a family ("FP6" is not a version of FP8, "H200" not of GH200). Versions are
# written apart ("EAGLE 2", "TPU v4", "FlashAttention-3") or named exactly ("FA3").
TECHNICAL_TOKEN = re.compile(r"[A-Za-z]{1,5}_?[0-9]+[A-Za-z]{0,2}")
# Times the name level, added to the text rank: a version step (1.0) outweighs any text rank.
NAMED_BONUS = 100.0
MAX_PART_WORDS = 4
# The words that join the things a reader compares.
COMPARING = frozenset(("vs", "versus", "or", "and"))

# The same rules in SQL. IMMUTABLE, so an expression index can hold its result.
NAMES_FUNCTION = Function(
    "catalog_source_names",
    "title text, aliases text",
    "text[]",
    "sql",
    r"""
  WITH short AS (SELECT split_part(title, ':', 1) AS t),
  raw(name) AS (
    SELECT title UNION ALL SELECT t FROM short
    UNION ALL SELECT unnest(string_to_array(aliases, ','))
    UNION ALL SELECT (
      SELECT CASE WHEN count(*) >= 2 THEN string_agg(m[1], '') END
      FROM regexp_matches(t, '((?<![A-Za-z])[A-Z]|(?<=[a-z])[A-Z])', 'g') AS m
    ) || coalesce(substring(t FROM '([0-9]+)\s*$'), '') FROM short
  ),
  exact AS (
    SELECT regexp_replace(lower(name), '[^0-9a-z]+', '', 'g') AS name FROM raw
    WHERE name IS NOT NULL
  ),
  named AS (
    SELECT name FROM exact WHERE length(name) >= 2
    UNION
    SELECT '~' || regexp_replace(name, 'v?[0-9]+$', '') FROM exact
    WHERE name ~ '[0-9]$' AND length(regexp_replace(name, 'v?[0-9]+$', '')) >= 2
  )
  SELECT coalesce(array_agg(name ORDER BY name), '{}') FROM named
""",
    "IMMUTABLE PARALLEL SAFE",
)
NAMES_INDEX = (
    "CREATE INDEX IF NOT EXISTS catalog_source_names_idx ON catalog_source "
    "USING gin (catalog_source_names(title, aliases))"
)
INSTALL_NAMES_SQL = NAMES_FUNCTION.sql() + "\n" + NAMES_INDEX + ";"
REMOVE_NAMES_SQL = (
    "DROP INDEX IF EXISTS catalog_source_names_idx;\n"
    "DROP FUNCTION IF EXISTS catalog_source_names(text, text);"
)

# The names stored beside each source, as a generated column under its own GIN index: computing
# them again for every source a query names cost ~40 µs a source (2.5 ms for a word that names
# 50) and planning the expression index another 1.5 ms.
STORE_NAMES_SQL = f"""
ALTER TABLE catalog_source ADD COLUMN search_names text[]
  GENERATED ALWAYS AS ({NAMES_FUNCTION.name}(title, aliases)) STORED;
CREATE INDEX catalog_source_search_names_idx ON catalog_source USING gin (search_names);
DROP INDEX IF EXISTS catalog_source_names_idx;"""
UNSTORE_NAMES_SQL = (
    NAMES_INDEX + ";\nDROP INDEX IF EXISTS catalog_source_search_names_idx;\n"
    "ALTER TABLE catalog_source DROP COLUMN IF EXISTS search_names;"
)

# Every tier's id (the ranking priors are per tier) and the sources a query names, as rows of
# (kind, key, number, list): ('tier', slug, id, NULL) and ('source', '', id, its names). The
# match stage on PostgreSQL asks these in the same statement as the rest of what it needs.
NAMED_ROWS = """
SELECT 'tier'::text, slug::text, id::bigint, NULL::text[] FROM catalog_tier
UNION ALL
SELECT 'source', '', id, search_names FROM catalog_source
WHERE status = 'published' AND search_names && %(keys)s::text[]"""


def normalised(text: str) -> str:
    return NOT_NAME.sub("", text.lower())


def base_name(name: str) -> str:
    """The name less its version ("flashattention3" -> "flashattention"), or "" if none."""
    if not name[-1:].isdigit():
        return ""
    base = VERSION.sub("", name)
    return base if len(base) >= MIN_NAME else ""


def acronym(short_title: str) -> str:
    initials = INITIAL.findall(short_title)
    if len(initials) < 2:
        return ""
    number = TRAILING_NUMBER.search(short_title)
    return "".join(initials) + (number.group().strip() if number else "")


def source_names(title: str, aliases: str) -> set[str]:
    """Every normalised name of a source, bases marked with BASE_MARK."""
    short = title.split(":", 1)[0]
    raw = [title, short, *aliases.split(","), acronym(short)]
    exact = {normalised(name) for name in raw if name}
    names = {name for name in exact if len(name) >= MIN_NAME}
    names |= {BASE_MARK + base for name in exact if (base := base_name(name))}
    return names


def version_of(name: str) -> tuple[str, int] | None:
    """(base, version) of a versioned name, however the version was written: "deepseekv3" and
    "deepseek3" are both ("deepseek", 3)."""
    base = base_name(name)
    if not base:
        return None
    digits = TRAILING_DIGITS.search(name)
    return (base, int(digits.group())) if digits else None


def query_names(text: str) -> list[str]:
    """The normalised names a query can be: as typed, and without a leading article ("the
    transformer" asks for the Transformer)."""
    names = [normalised(text), normalised(LEADING_ARTICLE.sub("", text))]
    return [name for name in dict.fromkeys(names) if len(name) >= MIN_NAME]


def query_keys(text: str) -> list[str]:
    """The stored names a query can mean: itself, as a base (its own base too), and the bare
    base, which the original of a family carries ("eagle 1" is EAGLE)."""
    if is_technical_token(text):
        return query_names(text)
    keys = []
    for key in query_names(text):
        keys += [key, BASE_MARK + key]
        if base := base_name(key):
            keys += [BASE_MARK + base, base]
    return list(dict.fromkeys(keys))


def is_technical_token(text: str) -> bool:
    return bool(TECHNICAL_TOKEN.fullmatch(text.strip()))


def name_level(names: Iterable[str], key: str, *, exactly: bool = False) -> float:
    """2 when a source is called exactly what was asked, with the version written any way ("v3",
    " 3", "-3"; an original without a version is version 1); just under 1 when it is a version
    of it, lower versions higher ("deepseek": DeepSeek-V2 before DeepSeek-V3); else 0. With
    `exactly` (a format or chip token), only the exact name counts."""
    names = set(names)
    if key in names:
        return 2.0
    if exactly:
        return 0.0
    asked = version_of(key)
    named_versions = [found for found in map(version_of, names) if found]
    if asked and asked in named_versions:
        return 2.0
    if asked and asked[1] == 1 and asked[0] in names and BASE_MARK + asked[0] not in names:
        return 2.0
    bases = {key, base_name(key)} - {""}
    versions = [version for base, version in named_versions if base in bases]
    if versions:
        return 1.0 - min(min(versions), 99) / 100
    if any(BASE_MARK + base in names for base in bases):
        return 1.0
    return 0.0


@dataclass(frozen=True)
class Named:
    """What a query names: {source id: name level} for the whole query, the same for a query
    that names a source with one more word ("pmpp book", "openai triton"), and (PostgreSQL,
    read in the same statement) {tier slug: id}."""

    levels: dict[int, float] = field(default_factory=dict)
    in_part: dict[int, float] = field(default_factory=dict)
    tiers: dict[str, int] = field(default_factory=dict)


def query_parts(words: Sequence[str]) -> list[str]:
    """A query of two to four words less its first or its last: a name and a word about it."""
    if not 2 <= len(words) <= MAX_PART_WORDS:
        return []
    return [" ".join(words[1:]), " ".join(words[:-1])]


def compared_sides(text: str) -> list[str]:
    """The sides of a comparison ("sglang vs vllm", "difference between gptq and awq"), each
    without its question filler, when there are two or more: each may name a source. Read from
    the text, since the query's words are deduplicated ("FlashAttention-2 vs FlashAttention-3")."""
    sides: list[list[str]] = [[]]
    for word in text.lower().split():
        if word in COMPARING:
            sides.append([])
        else:
            sides[-1].append(word)
    subjects = [subject_words(tuple(side)) for side in sides if side]
    if len(subjects) < 2:
        return []
    return [" ".join(subject) for subject in subjects if len(subject) <= MAX_PART_WORDS]


def names_asked(text: str, words: Sequence[str]) -> tuple[list[str], list[str]]:
    """What a plain query may name a source by: the texts (the query itself and each side of a
    comparison), and the parts, for when the whole names none (query_parts())."""
    return [text, *compared_sides(text)], query_parts(words)


def name_keys(texts: Iterable[str], parts: Iterable[str] = ()) -> list[str]:
    """The stored names (NAMED_ROWS' parameter) the query texts and parts may mean."""
    return list(dict.fromkeys(key for text in [*texts, *parts] if text for key in query_keys(text)))


def named_from(
    rows: list[tuple[int, set[str] | list[str]]], texts: Iterable[str], parts: Iterable[str] = ()
) -> Named:
    """What the query names among `rows` ((source id, its names)): the whole query's texts,
    else its `parts`."""
    texts = [text for text in dict.fromkeys(texts) if text]
    levels = _levels(rows, texts)
    parts = [part for part in dict.fromkeys(parts) if part]
    return Named(levels, {} if levels else _levels(rows, parts))


def named_sources(texts: Iterable[str], using: str, *, parts: Iterable[str] = ()) -> Named:
    """The published sources the query texts (or its correction) name, and those its `parts`
    name when the whole names none; one statement on PostgreSQL, which reads the tiers too."""
    texts, parts = list(texts), list(parts)
    keys = name_keys(texts, parts)
    connection = connections[using]
    tiers = {}
    rows: list[tuple[int, set[str] | list[str]]] = []
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(NAMED_ROWS, {"keys": keys})
            for kind, slug, pk, names in cursor.fetchall():
                if kind == "tier":
                    tiers[slug] = pk
                else:
                    rows.append((pk, names))
    elif keys:
        from catalog.models import Source

        published = Source.objects.using(using).published().values_list("id", "title", "aliases")
        rows = [(pk, source_names(title, aliases)) for pk, title, aliases in published]
    named = named_from(rows, texts, parts)
    return Named(named.levels, named.in_part, tiers)


def _levels(rows: list[tuple[int, set[str] | list[str]]], texts: list[str]) -> dict[int, float]:
    keys = [(key, is_technical_token(text)) for text in texts for key in query_names(text)]
    levels = {}
    for pk, names in rows:
        level = max((name_level(names, key, exactly=exactly) for key, exactly in keys), default=0.0)
        if level:
            levels[pk] = level
    return levels
