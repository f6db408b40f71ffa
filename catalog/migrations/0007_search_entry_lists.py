# Search entries also carry where reading lists cite the source: the ids of those lists, for the
# list facet (counted from an array, as topics are, instead of joining every match to entries,
# sections and lists: ~14 ms of a ~60 ms search at 27,000 matches), and its first list, section
# and entry positions, so list order sorts the entries alone (the join and aggregate it replaces
# cost 25-35 ms on large result sets). Triggers on list entries, sections and lists keep them
# in the same transaction. Nothing runs on SQLite.
import django.contrib.postgres.fields
from django.db import migrations, models

from catalog.migration_operations import PostgreSQLOnlySQL

# Where the lists cite source `s`: the same minimums as SourceQuerySet.in_list_order().
LISTED = """(
  SELECT coalesce(array_agg(DISTINCT sec.reading_list_id ORDER BY sec.reading_list_id), '{}'),
         min(rl.position), min(sec.position), min(le.position)
  FROM catalog_listentry le
  JOIN catalog_listsection sec ON sec.id = le.section_id
  JOIN catalog_readinglist rl ON rl.id = sec.reading_list_id
  WHERE le.source_id = s.id)"""

FORWARDS = rf"""
ALTER TABLE catalog_search_entry
  ADD COLUMN list_ids bigint[] NOT NULL DEFAULT '{{}}',
  ADD COLUMN first_list integer,
  ADD COLUMN first_section integer,
  ADD COLUMN first_position integer;

CREATE OR REPLACE FUNCTION catalog_refresh_search_entries(ids bigint[]) RETURNS void
LANGUAGE sql VOLATILE AS $$
  DELETE FROM catalog_search_entry WHERE source_id = ANY (ids);
  INSERT INTO catalog_search_entry
    (source_id, document, title, tier_id, kind, year, is_primary, topic_ids, created,
     list_ids, first_list, first_section, first_position)
  SELECT s.id, catalog_source_document(s), s.title, s.tier_id, s.kind, s.year, s.basis <> 'none',
         ARRAY(SELECT st.topic_id FROM catalog_source_topics st WHERE st.source_id = s.id ORDER BY 1),
         s.created, listed.*
  FROM catalog_source s
  CROSS JOIN LATERAL {LISTED.replace("(\n  SELECT", "(SELECT", 1)} AS listed
  WHERE s.id = ANY (ids) AND s.status = 'published';
$$;

-- Only the list columns: list edits never change what is searched.
CREATE FUNCTION catalog_refresh_search_lists(ids bigint[]) RETURNS void
LANGUAGE sql VOLATILE AS $$
  UPDATE catalog_search_entry e
  SET (list_ids, first_list, first_section, first_position) = {LISTED.replace("s.id", "e.source_id")}
  WHERE e.source_id = ANY (ids);
$$;

CREATE FUNCTION catalog_list_entries_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE catalog_search_entry
    SET list_ids = '{{}}', first_list = NULL, first_section = NULL, first_position = NULL
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
END $$;

CREATE TRIGGER catalog_list_entries_inserted
AFTER INSERT ON catalog_listentry REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_list_entries_changed();

CREATE TRIGGER catalog_list_entries_updated
AFTER UPDATE ON catalog_listentry REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_list_entries_changed();

CREATE TRIGGER catalog_list_entries_deleted
AFTER DELETE ON catalog_listentry REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_list_entries_changed();

CREATE TRIGGER catalog_list_entries_truncated
AFTER TRUNCATE ON catalog_listentry
FOR EACH STATEMENT EXECUTE FUNCTION catalog_list_entries_changed();

-- A section moved to another list or another place moves its sources with it.
CREATE FUNCTION catalog_list_sections_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_refresh_search_lists(ARRAY(
    SELECT DISTINCT le.source_id FROM catalog_listentry le
    JOIN new_rows n ON n.id = le.section_id JOIN old_rows o ON o.id = n.id
    WHERE (n.reading_list_id, n.position) IS DISTINCT FROM (o.reading_list_id, o.position)));
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_list_sections_moved
AFTER UPDATE ON catalog_listsection REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_list_sections_moved();

CREATE FUNCTION catalog_lists_moved() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_refresh_search_lists(ARRAY(
    SELECT DISTINCT le.source_id FROM catalog_listentry le
    JOIN catalog_listsection sec ON sec.id = le.section_id
    JOIN new_rows n ON n.id = sec.reading_list_id JOIN old_rows o ON o.id = n.id
    WHERE n.position IS DISTINCT FROM o.position));
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_lists_moved
AFTER UPDATE ON catalog_readinglist REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_lists_moved();

SELECT catalog_refresh_search_lists(ARRAY(SELECT source_id FROM catalog_search_entry));
"""

BACKWARDS = r"""
DROP TRIGGER catalog_lists_moved ON catalog_readinglist;
DROP TRIGGER catalog_list_sections_moved ON catalog_listsection;
DROP TRIGGER catalog_list_entries_truncated ON catalog_listentry;
DROP TRIGGER catalog_list_entries_deleted ON catalog_listentry;
DROP TRIGGER catalog_list_entries_updated ON catalog_listentry;
DROP TRIGGER catalog_list_entries_inserted ON catalog_listentry;
DROP FUNCTION catalog_lists_moved();
DROP FUNCTION catalog_list_sections_moved();
DROP FUNCTION catalog_list_entries_changed();
DROP FUNCTION catalog_refresh_search_lists(bigint[]);

CREATE OR REPLACE FUNCTION catalog_refresh_search_entries(ids bigint[]) RETURNS void
LANGUAGE sql VOLATILE AS $$
  DELETE FROM catalog_search_entry WHERE source_id = ANY (ids);
  INSERT INTO catalog_search_entry
    (source_id, document, title, tier_id, kind, year, is_primary, topic_ids, created)
  SELECT s.id, catalog_source_document(s), s.title, s.tier_id, s.kind, s.year, s.basis <> 'none',
         ARRAY(SELECT st.topic_id FROM catalog_source_topics st WHERE st.source_id = s.id ORDER BY 1),
         s.created
  FROM catalog_source s
  WHERE s.id = ANY (ids) AND s.status = 'published';
$$;

ALTER TABLE catalog_search_entry
  DROP COLUMN list_ids, DROP COLUMN first_list, DROP COLUMN first_section,
  DROP COLUMN first_position;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0006_search_entry"),
    ]

    operations = [
        migrations.AddField(
            model_name="searchentry",
            name="list_ids",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.BigIntegerField(), default=list, size=None
            ),
        ),
        *(
            migrations.AddField(
                model_name="searchentry", name=name, field=models.IntegerField(null=True)
            )
            for name in ("first_list", "first_section", "first_position")
        ),
        PostgreSQLOnlySQL(FORWARDS, BACKWARDS),
    ]
