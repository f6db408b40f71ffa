"""readinglist: curated reading lists that teams read together."""

# The release: reported by /healthz and the admin's footer, stamped into backups, listed in
# CHANGELOG.md.
__version__ = "0.2.0"
