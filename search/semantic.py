"""Described needs by meaning: how close a query's words are to each source's, in the catalog's
own latent space.

A reader who describes a problem uses words a source shares only in part ("keep the tensor
cores busy" for a kernel that overlaps its loads): the any-word match finds the sources with
some of the words, and ranks them by which words they have. Latent semantic analysis (a TF-IDF
matrix of every published source's stemmed text, reduced by truncated SVD) places words that
occur in the same sources near each other, so a query's vector is close to the sources about
what it describes even where they use other words for part of it. The similarity only reorders
what the words found (`described.fused_rank()`): a source with none of the query's words is
never added, and a named source or an all-words match keeps its place.

The index of the catalog as it is now is kept in process memory per database, keyed by the
catalog version the page cache replaces after every catalog change, as the related sources'
vectors are (catalog/related/vectors.py); while that version cannot be read (the cache is down)
there is no similarity and the page ranks by the words alone.
"""

import threading
from collections import Counter
from dataclasses import dataclass

import numpy as np
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer

from catalog.models import Source
from readinglist.pagecache import trusted_catalog_version

from .described import document_stems

# Dimensions of the latent space: enough to keep the catalog's topics apart, few enough that
# words of one topic share a direction (30, 50, 80 and 120 scored within 0.006 of each other on
# the judged queries; 50 and 80 best).
DIMENSIONS = 50
# The sources nearest a query that get a similarity; the rest count as unrelated.
NEAREST = 100
# Below this many sources (or distinct words) there is no latent structure to find.
SMALL_CATALOG = 20
# Each process builds the index on the first described query after a catalog change: 0.1 s for
# the shipped 200 sources and 1 s for 5,000, but 21 s for 100,000 (docs/search.md). Past this
# many published sources the page ranks by the words alone.
MAX_SOURCES = 5_000


@dataclass(frozen=True)
class SemanticIndex:
    vocabulary: dict[str, int]  # stem -> column
    idf: np.ndarray  # by column
    components: np.ndarray  # dimensions x columns: each column a stem's direction
    ids: np.ndarray  # source ids, one per row
    vectors: np.ndarray  # rows: unit vectors in the latent space

    def nearest(self, stems: tuple[str, ...], limit: int = NEAREST) -> dict[int, float]:
        """{source id: cosine similarity} of the `limit` sources nearest the query's
        meaningful words, positive similarities only; empty when the catalog has none of
        them. The query is weighed as the sources were (sublinear TF times IDF), by hand:
        the library's transform checks cost ten times the arithmetic."""
        counts = Counter(
            column for word in stems if (column := self.vocabulary.get(word)) is not None
        )
        if not counts:
            return {}
        columns = np.fromiter(counts, dtype=np.int64, count=len(counts))
        weights = (1 + np.log(np.fromiter(counts.values(), dtype=np.float32))) * self.idf[columns]
        point = self.components[:, columns] @ weights
        length = float(np.linalg.norm(point))
        if not length:
            return {}
        similarities = self.vectors @ (point / length)
        count = min(limit, len(similarities))
        best = np.argpartition(-similarities, count - 1)[:count]
        return {
            int(self.ids[row]): float(similarities[row]) for row in best if similarities[row] > 0
        }


def source_texts(using: str) -> tuple[list[int], list[str]]:
    """(ids, texts) of every published source: title, aliases, summary, keywords and topic
    names, as the any-word match reads them; in two queries."""
    published = Source.objects.using(using).published()
    topic_names = published.topic_names()
    ids, texts = [], []
    columns = ("pk", "title", "aliases", "summary", "keywords")
    for pk, *fields in published.order_by("pk").values_list(*columns):
        ids.append(pk)
        texts.append(" ".join([*fields, *topic_names.get(pk, [])]).replace(";", " "))
    return ids, texts


def build_index(ids: list[int], texts: list[str]) -> SemanticIndex | None:
    """The latent index of these texts, or None for a catalog too small to have one."""
    if len(texts) < SMALL_CATALOG:
        return None
    vectorizer = TfidfVectorizer(analyzer=document_stems, sublinear_tf=True, dtype=np.float32)
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no words at all: nothing is close to anything
        return None
    dimensions = min(DIMENSIONS, matrix.shape[0] - 1, matrix.shape[1] - 1)
    if dimensions < 2:
        return None
    reduction = TruncatedSVD(n_components=dimensions, random_state=0)
    vectors = reduction.fit_transform(matrix)
    lengths = np.linalg.norm(vectors, axis=1, keepdims=True)
    return SemanticIndex(
        vocabulary={str(term): int(column) for term, column in vectorizer.vocabulary_.items()},
        idf=vectorizer.idf_.astype(np.float32),
        components=reduction.components_.astype(np.float32),
        ids=np.array(ids, dtype=np.int64),
        vectors=(vectors / np.where(lengths > 0, lengths, 1.0)).astype(np.float32),
    )


def catalog_build(using: str) -> SemanticIndex | None:
    """The index of the published catalog in `using`; None past MAX_SOURCES."""
    if Source.objects.using(using).published().count() > MAX_SOURCES:
        return None
    return build_index(*source_texts(using))


_lock = threading.Lock()
# database alias -> (catalog version, its index)
_kept: dict[str, tuple[str, SemanticIndex | None]] = {}


def catalog_index(using: str) -> SemanticIndex | None:
    """The index of the catalog in `using` as it is now, built at most once per catalog
    version; None when the version cannot be read or the catalog is too small."""
    version = trusted_catalog_version()
    if version is None:
        return None
    kept = _kept.get(using)
    if kept is not None and kept[0] == version:
        return kept[1]
    with _lock:
        kept = _kept.get(using)
        if kept is None or kept[0] != version:
            kept = (version, catalog_build(using))
            _kept[using] = kept
    return kept[1]


def similarities(stems: tuple[str, ...], using: str) -> dict[int, float]:
    """{source id: similarity} of the sources nearest a query's meaningful stems
    (SemanticIndex.nearest())."""
    index = catalog_index(using)
    return index.nearest(stems) if index is not None else {}
