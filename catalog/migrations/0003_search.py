# PostgreSQL full-text search: a weighted document per source kept by triggers in the same
# transaction as every write to a source, its topics or a topic's name; a vocabulary of distinct
# words for typo correction; GIN and trigram indexes. Nothing here runs on SQLite.
from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

from catalog.migration_operations import PostgreSQLOnlySQL

FORWARDS = r"""
ALTER TABLE catalog_source ADD COLUMN search_document tsvector;

CREATE TABLE catalog_search_word (word text PRIMARY KEY);

-- Title (A) > authors and aliases (B) > topic names and venue (C) > summary (D).
CREATE FUNCTION catalog_source_document(s catalog_source) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english', coalesce(s.title, '')), 'A')
      || setweight(to_tsvector('english', concat_ws(' ', s.authors, replace(s.aliases, ',', ' '))), 'B')
      || setweight(to_tsvector('english', concat_ws(' ', s.venue, (
             SELECT string_agg(t.name, ' ')
             FROM catalog_source_topics st JOIN catalog_topic t ON t.id = st.topic_id
             WHERE st.source_id = s.id))), 'C')
      || setweight(to_tsvector('english', coalesce(s.summary, '')), 'D')
$$;

CREATE FUNCTION catalog_remember_words(body text) RETURNS void
LANGUAGE sql VOLATILE AS $$
  INSERT INTO catalog_search_word (word)
  SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', body))) AS w
  WHERE w ~ '^[[:alpha:]][[:alnum:]]{2,39}$'
  ON CONFLICT DO NOTHING
$$;

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
SELECT catalog_remember_words(name) FROM catalog_topic;

CREATE INDEX catalog_source_document_gin ON catalog_source USING gin (search_document);
CREATE INDEX catalog_source_title_trgm ON catalog_source USING gin (title gin_trgm_ops);
CREATE INDEX catalog_search_word_trgm ON catalog_search_word USING gin (word gin_trgm_ops);
"""

BACKWARDS = r"""
DROP TRIGGER catalog_topic_named ON catalog_topic;
DROP TRIGGER catalog_source_topics_removed ON catalog_source_topics;
DROP TRIGGER catalog_source_topics_added ON catalog_source_topics;
DROP TRIGGER catalog_source_document ON catalog_source;
DROP FUNCTION catalog_topic_named();
DROP FUNCTION catalog_source_topics_changed();
DROP FUNCTION catalog_source_document_trigger();
DROP FUNCTION catalog_remember_words(text);
DROP FUNCTION catalog_source_document(catalog_source);
DROP INDEX catalog_source_title_trgm;
DROP TABLE catalog_search_word;
ALTER TABLE catalog_source DROP COLUMN search_document;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0002_maintainers_group"),
    ]

    operations = [
        TrigramExtension(),
        PostgreSQLOnlySQL(FORWARDS, BACKWARDS),
    ]
