"""The entry's list columns: which reading lists cite a source and where it first appears.

They serve the list facet (counted from an array, as topics are, instead of joining every match
to entries, sections and lists) and list order (sorting the entries alone instead of a join and
an aggregate over every match). List edits never change what is searched, so they refresh only
these columns.
"""

from .sql_objects import BOTH_ROWS, NEW_ROWS, OLD_ROWS, Function, Trigger

LIST_COLUMNS = "list_ids, first_list, first_section, first_position"


def listed(source_id: str) -> str:
    """The list columns of the source `source_id`: the minimums of in_list_order()."""
    return f"""(SELECT
    coalesce(array_agg(DISTINCT sec.reading_list_id ORDER BY sec.reading_list_id), '{{}}'),
    min(rl.position), min(sec.position), min(le.position)
  FROM catalog_listentry le
  JOIN catalog_listsection sec ON sec.id = le.section_id
  JOIN catalog_readinglist rl ON rl.id = sec.reading_list_id
  WHERE le.source_id = {source_id})"""


LIST_ENTRIES_CHANGED = """
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE catalog_search_entry
    SET list_ids = '{}', first_list = NULL, first_section = NULL, first_position = NULL
    WHERE first_list IS NOT NULL;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM catalog_refresh_search_lists(ARRAY(SELECT DISTINCT source_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM catalog_refresh_search_lists(ARRAY(SELECT DISTINCT source_id FROM old_rows));
  ELSE
    PERFORM catalog_refresh_search_lists(ARRAY(
      SELECT source_id FROM new_rows UNION SELECT source_id FROM old_rows));
  END IF;
  RETURN NULL;
END"""

# A section moved to another list or another place moves its sources with it.
LIST_SECTIONS_MOVED = """
BEGIN
  PERFORM catalog_refresh_search_lists(ARRAY(
    SELECT DISTINCT le.source_id FROM catalog_listentry le
    JOIN new_rows n ON n.id = le.section_id JOIN old_rows o ON o.id = n.id
    WHERE (n.reading_list_id, n.position) IS DISTINCT FROM (o.reading_list_id, o.position)));
  RETURN NULL;
END"""

LISTS_MOVED = """
BEGIN
  PERFORM catalog_refresh_search_lists(ARRAY(
    SELECT DISTINCT le.source_id FROM catalog_listentry le
    JOIN catalog_listsection sec ON sec.id = le.section_id
    JOIN new_rows n ON n.id = sec.reading_list_id JOIN old_rows o ON o.id = n.id
    WHERE n.position IS DISTINCT FROM o.position));
  RETURN NULL;
END"""

REFRESH_SEARCH_LISTS = f"""
  UPDATE catalog_search_entry e
  SET ({LIST_COLUMNS}) = {listed("e.source_id")}
  WHERE e.source_id = ANY (ids);"""

LIST_FUNCTIONS = [
    Function(
        "catalog_refresh_search_lists",
        "ids bigint[]",
        "void",
        "sql",
        REFRESH_SEARCH_LISTS,
        "VOLATILE",
    ),
    Function("catalog_list_entries_changed", "", "trigger", "plpgsql", LIST_ENTRIES_CHANGED),
    Function("catalog_list_sections_moved", "", "trigger", "plpgsql", LIST_SECTIONS_MOVED),
    Function("catalog_lists_moved", "", "trigger", "plpgsql", LISTS_MOVED),
]

LIST_TRIGGERS = [
    *(
        Trigger(
            f"catalog_list_entries_{name}",
            "catalog_listentry",
            event,
            "catalog_list_entries_changed",
            referencing,
        )
        for name, event, referencing in (
            ("inserted", "INSERT", NEW_ROWS),
            ("updated", "UPDATE", BOTH_ROWS),
            ("deleted", "DELETE", OLD_ROWS),
            ("truncated", "TRUNCATE", ""),
        )
    ),
    Trigger("catalog_list_sections_moved", "catalog_listsection", "UPDATE", referencing=BOTH_ROWS),
    Trigger("catalog_lists_moved", "catalog_readinglist", "UPDATE", referencing=BOTH_ROWS),
]
