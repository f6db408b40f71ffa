# PostgreSQL search reads a narrow side table instead of catalog_source: one row per published
# source with its weighted document and what the facets count (tier, kind, year, topic ids).
# Matching, ranking and facet counts over tens of thousands of matches then read ~50 bytes of
# columns plus the document per row, not the whole source row (summary, URLs, link health), and
# topics are counted from an array instead of a join through catalog_source_topics.
# Statement-level triggers keep it in the same transaction as every write. Nothing runs on SQLite.
import django.contrib.postgres.fields
import django.contrib.postgres.search
import django.db.models.deletion
from django.db import migrations, models

from catalog.migration_operations import PostgreSQLOnlySQL

FORWARDS = r"""
DROP TRIGGER catalog_topic_named ON catalog_topic;
DROP TRIGGER catalog_source_topics_removed ON catalog_source_topics;
DROP TRIGGER catalog_source_topics_added ON catalog_source_topics;
DROP TRIGGER catalog_source_document ON catalog_source;
DROP FUNCTION catalog_topic_named();
DROP FUNCTION catalog_source_topics_changed();
DROP FUNCTION catalog_source_document_trigger();
DROP INDEX catalog_source_document_gin;
ALTER TABLE catalog_source DROP COLUMN search_document;

CREATE TABLE catalog_search_entry (
  source_id bigint PRIMARY KEY,
  document tsvector NOT NULL,
  title varchar(300) NOT NULL,
  tier_id bigint NOT NULL,
  kind varchar(20) NOT NULL,
  year smallint,
  is_primary boolean NOT NULL,
  topic_ids bigint[] NOT NULL,
  created timestamp with time zone NOT NULL
);

-- Rebuild the entries of these sources from their current rows: published ones only.
CREATE FUNCTION catalog_refresh_search_entries(ids bigint[]) RETURNS void
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

CREATE FUNCTION catalog_sources_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_remember_words(string_agg(concat_ws(' ', title, authors, aliases, venue, summary), ' '))
  FROM new_rows;
  PERFORM catalog_refresh_search_entries(ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END $$;

-- Only rows whose searched or counted fields changed: link checks and the like touch every row.
CREATE FUNCTION catalog_sources_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
BEGIN
  SELECT array_agg(n.id) INTO ids
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE (n.title, n.authors, n.aliases, n.venue, n.summary, n.tier_id, n.kind, n.year, n.basis, n.status,
         n.created)
        IS DISTINCT FROM
        (o.title, o.authors, o.aliases, o.venue, o.summary, o.tier_id, o.kind, o.year, o.basis, o.status,
         o.created);
  IF ids IS NOT NULL THEN
    PERFORM catalog_remember_words(string_agg(concat_ws(' ', title, authors, aliases, venue, summary), ' '))
    FROM new_rows WHERE id = ANY (ids);
    PERFORM catalog_refresh_search_entries(ids);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_sources_inserted
AFTER INSERT ON catalog_source REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_sources_inserted();

CREATE TRIGGER catalog_sources_updated
AFTER UPDATE ON catalog_source REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_sources_updated();

-- Triggers rather than a foreign key: Django flushes tables with TRUNCATE, which a foreign key
-- from a table Django does not manage would refuse.
CREATE FUNCTION catalog_sources_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE catalog_search_entry;
  ELSE
    DELETE FROM catalog_search_entry WHERE source_id IN (SELECT id FROM old_rows);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_sources_deleted
AFTER DELETE ON catalog_source REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION catalog_sources_deleted();

CREATE TRIGGER catalog_sources_truncated
AFTER TRUNCATE ON catalog_source
FOR EACH STATEMENT EXECUTE FUNCTION catalog_sources_deleted();

CREATE FUNCTION catalog_source_topics_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_refresh_search_entries(ARRAY(SELECT DISTINCT source_id FROM changed));
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_source_topics_added
AFTER INSERT ON catalog_source_topics REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION catalog_source_topics_changed();

CREATE TRIGGER catalog_source_topics_removed
AFTER DELETE ON catalog_source_topics REFERENCING OLD TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION catalog_source_topics_changed();

CREATE FUNCTION catalog_topic_named() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_remember_words(NEW.name);
  IF TG_OP = 'UPDATE' AND OLD.name IS DISTINCT FROM NEW.name THEN
    PERFORM catalog_refresh_search_entries(
      ARRAY(SELECT source_id FROM catalog_source_topics WHERE topic_id = NEW.id));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_topic_named
AFTER INSERT OR UPDATE OF name ON catalog_topic
FOR EACH ROW EXECUTE FUNCTION catalog_topic_named();

SELECT catalog_refresh_search_entries(ARRAY(SELECT id FROM catalog_source));

CREATE INDEX catalog_search_entry_document_gin ON catalog_search_entry USING gin (document);
-- The topic filter is "topic_ids overlaps this topic and its sub-topics".
CREATE INDEX catalog_search_entry_topics_gin ON catalog_search_entry USING gin (topic_ids);
"""

BACKWARDS = r"""
DROP TRIGGER catalog_topic_named ON catalog_topic;
DROP TRIGGER catalog_source_topics_removed ON catalog_source_topics;
DROP TRIGGER catalog_source_topics_added ON catalog_source_topics;
DROP TRIGGER catalog_sources_truncated ON catalog_source;
DROP TRIGGER catalog_sources_deleted ON catalog_source;
DROP TRIGGER catalog_sources_updated ON catalog_source;
DROP TRIGGER catalog_sources_inserted ON catalog_source;
DROP FUNCTION catalog_topic_named();
DROP FUNCTION catalog_source_topics_changed();
DROP FUNCTION catalog_sources_deleted();
DROP FUNCTION catalog_sources_updated();
DROP FUNCTION catalog_sources_inserted();
DROP FUNCTION catalog_refresh_search_entries(bigint[]);
DROP TABLE catalog_search_entry;

ALTER TABLE catalog_source ADD COLUMN search_document tsvector;

CREATE FUNCTION catalog_source_document_trigger() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := catalog_source_document(NEW);
  PERFORM catalog_remember_words(concat_ws(' ', NEW.title, NEW.authors, NEW.aliases, NEW.venue, NEW.summary));
  RETURN NEW;
END $$;

CREATE TRIGGER catalog_source_document
BEFORE INSERT OR UPDATE OF title, authors, aliases, venue, summary ON catalog_source
FOR EACH ROW EXECUTE FUNCTION catalog_source_document_trigger();

CREATE FUNCTION catalog_source_topics_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalog_source s SET search_document = catalog_source_document(s)
  WHERE s.id IN (SELECT source_id FROM changed);
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_source_topics_added
AFTER INSERT ON catalog_source_topics REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION catalog_source_topics_changed();

CREATE TRIGGER catalog_source_topics_removed
AFTER DELETE ON catalog_source_topics REFERENCING OLD TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION catalog_source_topics_changed();

CREATE FUNCTION catalog_topic_named() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_remember_words(NEW.name);
  IF TG_OP = 'UPDATE' AND OLD.name IS DISTINCT FROM NEW.name THEN
    UPDATE catalog_source s SET search_document = catalog_source_document(s)
    WHERE s.id IN (SELECT source_id FROM catalog_source_topics WHERE topic_id = NEW.id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER catalog_topic_named
AFTER INSERT OR UPDATE OF name ON catalog_topic
FOR EACH ROW EXECUTE FUNCTION catalog_topic_named();

UPDATE catalog_source SET title = title;
CREATE INDEX catalog_source_document_gin ON catalog_source USING gin (search_document);
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0005_changelog_linkhealth"),
    ]

    operations = [
        migrations.CreateModel(
            name="SearchEntry",
            fields=[
                (
                    "source",
                    models.OneToOneField(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        primary_key=True,
                        related_name="search_entry",
                        serialize=False,
                        to="catalog.source",
                    ),
                ),
                ("document", django.contrib.postgres.search.SearchVectorField()),
                ("title", models.CharField(max_length=300)),
                (
                    "tier",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="catalog.tier",
                    ),
                ),
                ("kind", models.CharField(max_length=20)),
                ("year", models.PositiveSmallIntegerField(null=True)),
                ("is_primary", models.BooleanField()),
                (
                    "topic_ids",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.BigIntegerField(), size=None
                    ),
                ),
                ("created", models.DateTimeField()),
            ],
            options={
                "db_table": "catalog_search_entry",
                "managed": False,
            },
        ),
        PostgreSQLOnlySQL(FORWARDS, BACKWARDS),
    ]
