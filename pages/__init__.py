"""The site's pages that combine every app: home, a source, topics, tiers, reading lists, the
search results, and the sitemaps that list them.

Each page reads the catalog and shows what the other apps keep beside it (a reader's bookmarks
and progress, notes, teammates' activity, follows) through those apps' own template tags. So this
is the one app that may use every other app, and the one no app uses: only the project's URL
configuration mounts it. The catalog itself (sources, topics, tiers, lists and their rules) is
`catalog/`; search is its own room.
"""
