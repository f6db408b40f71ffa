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

import dataclasses
import functools
import io
import threading
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np

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
# What a query word counts for in coverage() when a source has only a form that counts as it.
FORM_SHARE = 0.7


# For a query stem, the stems of each form that counts as its word (equivalents.alternatives()).
type Forms = dict[str, tuple[tuple[str, ...], ...]]


@dataclass(frozen=True)
class WeighedStem:
    column: int | None
    weight: float
    forms: list[set[int]]


@dataclass(frozen=True, eq=False)
class SemanticIndex:
    vocabulary: dict[str, int]  # stem -> column
    idf: np.ndarray  # by column
    components: np.ndarray  # dimensions x columns: each column a stem's direction
    ids: np.ndarray  # source ids, one per row
    vectors: np.ndarray  # rows: unit vectors in the latent space
    # Each row's stems, as columns: row r's are indices[indptr[r]:indptr[r + 1]].
    indptr: np.ndarray
    indices: np.ndarray

    @functools.cached_property
    def rows(self) -> dict[int, int]:
        """{source id: its row}."""
        return {int(pk): row for row, pk in enumerate(self.ids)}

    def to_bytes(self) -> bytes:
        """The index as stored (LatentIndex.data): its arrays in one .npz, no pickles."""
        buffer = io.BytesIO()
        arrays = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "vocabulary"
        }
        words = np.array(sorted(self.vocabulary, key=self.vocabulary.__getitem__), dtype=str)
        np.savez(buffer, words=words, **arrays)
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> "SemanticIndex":
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
        words = arrays.pop("words")
        return cls(vocabulary={str(w): column for column, w in enumerate(words)}, **arrays)

    def coverage(self, words: list[WeighedStem], ids: list[int]) -> float:
        """The largest share of the query's meaning (its `words`, as weigh() gives them) any
        of the sources `ids` has: the weight of the words a source has, over that of all of
        them, so a query of words the catalog never uses is covered by nothing. A source with
        every stem of one of a word's forms has the word at FORM_SHARE of its weight, as a
        search for the word finds it at a lower rank."""
        whole = sum(word.weight for word in words)
        if not whole:
            return 1.0
        best = 0.0
        for pk in ids:
            row = self.rows.get(pk)
            if row is None:
                continue
            has = set(self.indices[self.indptr[row] : self.indptr[row + 1]].tolist())
            found = 0.0
            for word in words:
                if word.column in has:
                    found += word.weight
                elif any(form <= has for form in word.forms):
                    found += word.weight * FORM_SHARE
            best = max(best, found / whole)
        return best

    @staticmethod
    def unknown_share(words: list[WeighedStem]) -> float:
        """The share of the query's meaning (its `words`, as weigh() gives them) in words that
        no source has, neither as typed nor in any form that counts as them."""
        whole = sum(word.weight for word in words)
        unknown = sum(w.weight for w in words if w.column is None and not w.forms)
        return unknown / whole if whole else 0.0

    def weigh(self, stems: tuple[str, ...], forms: Forms) -> list[WeighedStem]:
        """Each distinct query stem's column (None: no source has it), its weight (IDF; the
        rarest there is for an unknown stem) and the columns of the forms that count as its
        word (`forms`, from equivalents.alternatives()) that the catalog has."""
        rarest = float(self.idf.max()) if len(self.idf) else 1.0
        words = []
        for stem in dict.fromkeys(stems):
            column = self.vocabulary.get(stem)
            weight = float(self.idf[column]) if column is not None else rarest
            words.append(WeighedStem(column, weight, self._form_columns(forms.get(stem, ()))))
        return words

    def _form_columns(self, forms: tuple[tuple[str, ...], ...]) -> list[set[int]]:
        """Each form's stems as columns; a form with a stem the catalog lacks is left out."""
        found = []
        for form in forms:
            columns = {self.vocabulary.get(stem) for stem in form}
            if form and None not in columns:
                found.append({c for c in columns if c is not None})
        return found

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
    # Only the worker builds: a process that serves pages never imports scikit-learn for this.
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

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
        indptr=matrix.indptr.astype(np.int32),
        indices=matrix.indices.astype(np.int32),
    )


def catalog_build(using: str) -> SemanticIndex | None:
    """The index of the published catalog in `using`; None past MAX_SOURCES."""
    if Source.objects.using(using).published().count() > MAX_SOURCES:
        return None
    return build_index(*source_texts(using))


def rebuild(using: str = "default") -> SemanticIndex | None:
    """Build the index of the catalog as it is now and store it for every process: what the
    worker's task does after a catalog change (tasks.py)."""
    from .models import LatentIndex

    version = trusted_catalog_version() or ""
    index = catalog_build(using)
    LatentIndex.objects.using(using).update_or_create(
        pk=1,
        defaults={
            "built_for": version,
            "sources": 0 if index is None else len(index.ids),
            "data": b"" if index is None else index.to_bytes(),
        },
    )
    return index


def stored(using: str) -> tuple[str, SemanticIndex | None] | None:
    """(the catalog version it was built for, the index) as stored, or None if none is."""
    from .models import LatentIndex

    row = LatentIndex.objects.using(using).filter(pk=1).values_list("built_for", "data").first()
    if row is None:
        return None
    built_for, data = row
    return built_for, SemanticIndex.from_bytes(bytes(data)) if data else None


@dataclass(frozen=True)
class Kept:
    """A process's copy of the stored index, for the catalog version it last read it at."""

    version: str
    index: SemanticIndex | None
    current: bool  # built for that version, not an earlier one
    read_at: float


# A stored index built for an older catalog version is read again at most this often (seconds),
# until the worker has stored the current one.
RECHECK = 10.0
_lock = threading.Lock()
_kept: dict[str, Kept] = {}  # database alias -> its index


def catalog_index(using: str) -> SemanticIndex | None:
    """The stored index of the catalog in `using`, read once per catalog version (a query and
    a few milliseconds), never built on a reader's request unless no index was ever stored
    (a new database no worker has indexed yet): then the first reader builds and stores it.
    None when the version cannot be read (the cache is down) or the catalog has no index."""
    version = trusted_catalog_version()
    if version is None:
        return None
    kept = _kept.get(using)
    fresh = kept is not None and (kept.current or time.monotonic() - kept.read_at < RECHECK)
    if kept is not None and kept.version == version and fresh:
        return kept.index
    with _lock:
        found = stored(using)
        if found is None:
            found = (version, rebuild(using))
        built_for, index = found
        _kept[using] = Kept(version, index, built_for == version, time.monotonic())
    return index


def similarities(stems: tuple[str, ...], using: str) -> dict[int, float]:
    """{source id: similarity} of the sources nearest a query's meaningful stems
    (SemanticIndex.nearest())."""
    index = catalog_index(using)
    return index.nearest(stems) if index is not None else {}
