"""Related sources by content: TF-IDF similarity blended with curators' links, list sections
and co-reading, stored as the top neighbours of each source.

- `vectors.catalog_vectors()`: the catalog's TF-IDF vectors, kept per catalog version (the
  library's "For you" reads them too);
- `compute.recompute_neighbours()`: rebuild the stored rows, all of them or those a change
  touches (`manage.py compute_related` runs it for all);
- `store.replace_neighbours()`: write only the rows that differ from the stored ones;
- `triggers.connect_signals()`: after each transaction that changed the catalog, enqueue a
  recompute task (`tasks.py`; a worker runs it in production, see docs/operations.md);
- `hooks.register_co_reading(provider)`: how a reader app offers co-reading counts without the
  catalog importing it;
- `models.SourceNeighbour`: the stored rows the source page reads.

Nothing is imported here: catalog.models imports the model from this package.
"""
