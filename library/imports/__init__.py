"""Bring a reference manager's library in: parse BibTeX, RIS or CSL-JSON, match each entry to the
catalog, preview, and only on the reader's confirmation add the matched sources."""
