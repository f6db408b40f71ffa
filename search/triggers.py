"""The PostgreSQL functions and triggers that keep search entries and the vocabulary current.

Generated from the document declaration (`document.py`) and the entry's columns, so the whole
set can be read here. Statement-level triggers with transition tables refresh the entries of
every source a statement touched, in the same transaction. An entry is refreshed by delete and
insert, so a source that is not published simply has none; a private source's words stay out of
the vocabulary too, so no correction can spell them.
"""

from .document import SEARCH_DOCUMENT, Related, document_sql, related_parts, source_fields
from .list_columns import LIST_COLUMNS, LIST_FUNCTIONS, LIST_TRIGGERS, listed
from .names import NAMES_FUNCTION
from .set_keys import KEY_FUNCTION
from .sql_objects import BOTH_ROWS, NEW_ROWS, OLD_ROWS, Function, Trigger

# Source columns an entry copies or filters on besides the searched text: a change to any of
# them refreshes the entry. Other writes (link checks touch every row) leave entries alone.
ENTRY_SOURCE_COLUMNS = ("tier_id", "kind", "year", "basis", "status", "created")

REMEMBER_WORDS = """
  INSERT INTO catalog_search_word (word)
  SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', body))) AS w
  WHERE w ~ '^[[:alpha:]][[:alnum:]]{2,39}$'
  ON CONFLICT DO NOTHING"""

REFRESH_SEARCH_ENTRIES = f"""
  DELETE FROM catalog_search_entry WHERE source_id = ANY (ids);
  INSERT INTO catalog_search_entry
    (source_id, document, title, tier_id, kind, year, is_primary, topic_ids, created,
     {LIST_COLUMNS})
  SELECT s.id, catalog_source_document(s), s.title, s.tier_id, s.kind, s.year,
         s.basis <> 'none',
         ARRAY(SELECT st.topic_id FROM catalog_source_topics st
               WHERE st.source_id = s.id ORDER BY 1),
         s.created, listed.*
  FROM catalog_source s
  CROSS JOIN LATERAL {listed("s.id")} AS listed
  WHERE s.id = ANY (ids) AND s.status = 'published';"""

# Triggers rather than a foreign key: Django flushes tables with TRUNCATE, which a foreign key
# from a table Django does not manage would refuse.
SOURCES_DELETED = """
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE catalog_search_entry;
  ELSE
    DELETE FROM catalog_search_entry WHERE source_id IN (SELECT id FROM old_rows);
  END IF;
  RETURN NULL;
END"""


def _columns(prefix: str, columns: list[str]) -> str:
    return ", ".join(f"{prefix}{column}" for column in columns)


def source_functions(document: tuple = SEARCH_DOCUMENT) -> list[Function]:
    """The document, the vocabulary, and entries refreshed when sources change."""
    searched = source_fields(document)
    watched = [*searched, *ENTRY_SOURCE_COLUMNS]
    remember = (
        f"PERFORM catalog_remember_words(string_agg(concat_ws(' ', {_columns('', searched)}), ' '))"
    )
    inserted = f"""
BEGIN
  {remember}
  FROM new_rows WHERE status <> 'private';
  PERFORM catalog_refresh_search_entries(ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END"""
    updated = f"""
DECLARE
  ids bigint[];
BEGIN
  SELECT array_agg(n.id) INTO ids
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE ({_columns("n.", watched)})
        IS DISTINCT FROM
        ({_columns("o.", watched)});
  IF ids IS NOT NULL THEN
    {remember}
    FROM new_rows WHERE id = ANY (ids) AND status <> 'private';
    PERFORM catalog_refresh_search_entries(ids);
  END IF;
  RETURN NULL;
END"""
    document_body = document_sql(document)
    return [
        Function(
            "catalog_source_document",
            "s catalog_source",
            "tsvector",
            "sql",
            document_body,
            "STABLE",
        ),
        Function("catalog_remember_words", "body text", "void", "sql", REMEMBER_WORDS, "VOLATILE"),
        Function(
            "catalog_refresh_search_entries",
            "ids bigint[]",
            "void",
            "sql",
            REFRESH_SEARCH_ENTRIES,
            "VOLATILE",
        ),
        Function("catalog_sources_inserted", "", "trigger", "plpgsql", inserted),
        Function("catalog_sources_updated", "", "trigger", "plpgsql", updated),
        Function("catalog_sources_deleted", "", "trigger", "plpgsql", SOURCES_DELETED),
    ]


def related_functions(part: Related) -> list[Function]:
    """Entries refreshed when a source's links to related rows change, or those rows' text."""
    links_changed = f"""
BEGIN
  PERFORM catalog_refresh_search_entries(
    ARRAY(SELECT DISTINCT {part.source_column} FROM changed));
  RETURN NULL;
END"""
    text = part.text_column
    named = f"""
BEGIN
  PERFORM catalog_remember_words(NEW.{text});
  IF TG_OP = 'UPDATE' AND OLD.{text} IS DISTINCT FROM NEW.{text} THEN
    PERFORM catalog_refresh_search_entries(ARRAY(
      SELECT {part.source_column} FROM {part.through_table}
      WHERE {part.target_column} = NEW.id));
  END IF;
  RETURN NULL;
END"""
    return [
        Function(f"{part.through_table}_changed", "", "trigger", "plpgsql", links_changed),
        Function(f"{part.target_table}_named", "", "trigger", "plpgsql", named),
    ]


def related_triggers(part: Related) -> list[Trigger]:
    through, changed = part.through_table, f"{part.through_table}_changed"
    named, events = f"{part.target_table}_named", f"INSERT OR UPDATE OF {part.text_column}"
    return [
        Trigger(f"{through}_added", through, "INSERT", changed, "NEW TABLE AS changed"),
        Trigger(f"{through}_removed", through, "DELETE", changed, "OLD TABLE AS changed"),
        Trigger(named, part.target_table, events, level="ROW"),
    ]


def declared_functions(document: tuple = SEARCH_DOCUMENT) -> list[Function]:
    related = [f for part in related_parts(document) for f in related_functions(part)]
    return [*source_functions(document), *related, *LIST_FUNCTIONS, NAMES_FUNCTION, KEY_FUNCTION]


def declared_triggers(document: tuple = SEARCH_DOCUMENT) -> list[Trigger]:
    source = "catalog_source"
    related = [t for part in related_parts(document) for t in related_triggers(part)]
    return [
        Trigger("catalog_sources_inserted", source, "INSERT", referencing=NEW_ROWS),
        Trigger("catalog_sources_updated", source, "UPDATE", referencing=BOTH_ROWS),
        Trigger("catalog_sources_deleted", source, "DELETE", referencing=OLD_ROWS),
        Trigger("catalog_sources_truncated", source, "TRUNCATE", "catalog_sources_deleted"),
        *related,
        *LIST_TRIGGERS,
    ]


def install_sql(document: tuple = SEARCH_DOCUMENT) -> str:
    """Every function and trigger as declared, then every entry rebuilt from its source."""
    return "\n\n".join(
        [
            *(function.sql() for function in declared_functions(document)),
            *(trigger.sql() for trigger in declared_triggers(document)),
            "SELECT catalog_refresh_search_entries(ARRAY(SELECT id FROM catalog_source));",
        ]
    )
