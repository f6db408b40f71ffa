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
from dataclasses import dataclass, field

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

    def rows(self, source_ids) -> list[int]:
        return [self.row_of[pk] for pk in source_ids if pk in self.row_of]

    def shared_terms(self, a: int, b: int, limit: int = 2) -> list[str]:
        """The terms that contribute most to the similarity of rows `a` and `b`. Read from the
        CSR arrays directly: building a sparse row per pair cost ~0.5 ms, for every neighbour."""
        m = self.matrix
        a_cols, a_vals = (
            m.indices[m.indptr[a] : m.indptr[a + 1]],
            m.data[m.indptr[a] : m.indptr[a + 1]],
        )
        b_cols, b_vals = (
            m.indices[m.indptr[b] : m.indptr[b + 1]],
            m.data[m.indptr[b] : m.indptr[b + 1]],
        )
        common, in_a, in_b = np.intersect1d(a_cols, b_cols, assume_unique=True, return_indices=True)
        order = np.argsort(-(a_vals[in_a] * b_vals[in_b]))
        chosen: list[str] = []
        for index in order:
            term = str(self.terms[common[index]])
            if any(term in kept or kept in term for kept in chosen):
                continue
            chosen.append(term)
            if len(chosen) == limit:
                break
        return chosen


def source_documents() -> tuple[list[int], list[str], list[str]]:
    """(ids, titles, texts) of every published source, in two queries."""
    topic_names: dict[int, list[str]] = {}
    links = Source.topics.through.objects.filter(source__status=Source.Status.PUBLISHED)
    for source_id, name in links.values_list("source_id", "topic__name"):
        topic_names.setdefault(source_id, []).append(name)
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
