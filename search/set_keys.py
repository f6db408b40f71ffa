"""Each search entry's topic and list sets as text keys, for the topic and list facets.

The facets group the matches by their topic set and by their list set, then unnest each set
once: sources share a few thousand topic sets and a handful of list sets. Grouping by the id
arrays themselves hashes every element of every match through the element type's hash function
(about a fifth of a common word's facet statement at 100,000 sources); a key such as "3,7,12",
stored beside the array, hashes as one string. The keys are generated columns, so every write
that sets an array (the entry and list refreshes in triggers.py) sets its key with it.
"""

from .sql_objects import Function

# array_to_string() is only STABLE because it calls the element type's output function, and a
# bigint prints the same under every setting, so the key is truly immutable, as a generated
# column requires.
KEY_FUNCTION = Function(
    "catalog_id_set_key",
    "ids bigint[]",
    "text",
    "sql",
    "SELECT array_to_string(ids, ',')",
    "IMMUTABLE PARALLEL SAFE",
)
KEYED_SETS = {"topic_key": "topic_ids", "list_key": "list_ids"}

STORE_KEYS_SQL = (
    KEY_FUNCTION.sql()
    + "\nALTER TABLE catalog_search_entry "
    + ", ".join(
        f"ADD COLUMN {key} text GENERATED ALWAYS AS ({KEY_FUNCTION.name}({ids})) STORED"
        for key, ids in KEYED_SETS.items()
    )
    + ";"
)
UNSTORE_KEYS_SQL = (
    "ALTER TABLE catalog_search_entry "
    + ", ".join(f"DROP COLUMN IF EXISTS {key}" for key in KEYED_SETS)
    + f";\nDROP FUNCTION IF EXISTS {KEY_FUNCTION.name}(bigint[]);"
)

# Topic and list counts over the matches `m`, which carry the keys: grouped by key, and each
# distinct key turned back into its ids once.
KEY_COUNTS = {
    f"{name}_counts": f"""SELECT x.{name}_id, SUM(sets.n) AS n
  FROM (SELECT {name}_key, COUNT(*) AS n FROM m GROUP BY {name}_key) sets
  CROSS JOIN unnest(string_to_array(sets.{name}_key, ',')::bigint[]) AS x({name}_id)
  GROUP BY x.{name}_id"""
    for name in ("topic", "list")
}
