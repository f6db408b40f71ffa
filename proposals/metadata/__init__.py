"""Metadata for a proposed source, fetched from an identifier behind an SSRF guard."""

from .fill import FillResult, cached_metadata, fill_from

__all__ = ["FillResult", "cached_metadata", "fill_from"]
