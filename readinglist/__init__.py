"""readinglist: curated reading lists that teams read together."""

# The release, reported by /version, stamped into backups and listed in CHANGELOG.md.
__version__ = "0.2.0"
