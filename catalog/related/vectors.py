"""TF-IDF vectors of the published catalog, as arxiv-sanity-lite builds them for its papers.

Each source's text is its title (twice: the title is the strongest evidence of what it is
about), aliases, summary and topic names. Rows are L2-normalised, so a dot product is the
cosine similarity. The vectors of the current catalog are kept in process memory, keyed by the
catalog version the page cache replaces after every catalog change (a write that sends no signal
bumps it by hand): each process builds them once per change, and a request then pays one cache
read. A fingerprint query (count and latest change) took 10 ms at 10,000 sources, a third of
the page's budget, so the version is the only key.
"""

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer

from readinglist.pagecache import catalog_version

from ..models import Source

# A term in more than this share of sources says little about any one of them; tiny catalogs
# keep every term, or one or two sources would have no vocabulary at all.
MAX_DOCUMENT_SHARE = 0.5
SMALL_CATALOG = 20
MAX_FEATURES = 200_000


@dataclass(frozen=True)
class CatalogVectors:
    ids: np.ndarray  # source ids, one per row
    titles: tuple[str, ...]
    matrix: sparse.csr_matrix  # rows are L2-normalised TF-IDF vectors
    terms: np.ndarray  # the feature names, by column
    row_of: dict[int, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ids)

    def rows(self, source_ids: Iterable[int]) -> list[int]:
        return [self.row_of[pk] for pk in source_ids if pk in self.row_of]

    def shared_terms(self, a_rows: list[int], b_rows: list[int], limit: int = 2) -> list[list[str]]:
        """For each pair of rows (a_rows[i], b_rows[i]), the terms that add most to their
        similarity (ties: the earlier column), skipping a term inside or around one already
        chosen. All pairs in one elementwise product and one sort: at 10,000 sources, one pair
        at a time took 1.7 s for the 76,000 similar neighbours, this takes 0.6 s."""
        if not len(a_rows):
            return []
        products = self.matrix[a_rows].multiply(self.matrix[b_rows]).tocsr()
        products.sort_indices()
        row_of_cell = np.repeat(np.arange(products.shape[0]), np.diff(products.indptr))
        order = np.lexsort((products.indices, -products.data, row_of_cell))
        columns = products.indices[order].tolist()
        bounds = products.indptr.tolist()
        names = self.terms.tolist()
        found: list[list[str]] = []
        for start, end in pairwise(bounds):
            chosen: list[str] = []
            for column in columns[start:end]:
                term = names[column]
                if any(term in kept or kept in term for kept in chosen):
                    continue
                chosen.append(term)
                if len(chosen) == limit:
                    break
            found.append(chosen)
        return found


def source_documents() -> tuple[list[int], list[str], list[str]]:
    """(ids, titles, texts) of every published source, in two queries."""
    topic_names = Source.objects.published().topic_names()
    ids, titles, texts = [], [], []
    rows = Source.objects.published().order_by("pk")
    for pk, title, aliases, summary in rows.values_list("pk", "title", "aliases", "summary"):
        ids.append(pk)
        titles.append(title)
        topics = " ".join(topic_names.get(pk, []))
        texts.append(f"{title}. {title}. {aliases.replace(',', '.')}. {summary} {topics}")
    return ids, titles, texts


def build_vectors(ids: list[int], titles: list[str], texts: list[str]) -> CatalogVectors:
    vectorizer = TfidfVectorizer(
        stop_words="english",
        ngram_range=(1, 2),
        sublinear_tf=True,
        max_df=MAX_DOCUMENT_SHARE if len(texts) > SMALL_CATALOG else 1.0,
        max_features=MAX_FEATURES,
        dtype=np.float32,
    )
    try:
        matrix = vectorizer.fit_transform(texts).tocsr()
        terms = vectorizer.get_feature_names_out()
    except ValueError:  # no sources, or nothing but stop words: nothing is similar
        matrix = sparse.csr_matrix((len(texts), 0), dtype=np.float32)
        terms = np.array([], dtype=object)
    return CatalogVectors(
        ids=np.array(ids, dtype=np.int64),
        titles=tuple(titles),
        matrix=matrix,
        terms=terms,
        row_of={pk: row for row, pk in enumerate(ids)},
    )


_lock = threading.Lock()
_kept: dict[str, CatalogVectors] = {}


def catalog_vectors() -> CatalogVectors:
    """The vectors of the catalog as it is now, built at most once per catalog version."""
    version = catalog_version()
    found = _kept.get(version)
    if found is not None:
        return found
    with _lock:
        found = _kept.get(version)
        if found is None:
            found = build_vectors(*source_documents())
            _kept.clear()
            _kept[version] = found
    return found
