"""Scores a found work against the catalog: how relevant it is, which topics it belongs to, and
which catalogued sources it is closest to (the reason a maintainer reads).

The model is trained on the catalog's own sources, as arxiv-sanity-lite trains a reader's SVM on
their tagged papers: TF-IDF over title, aliases, summary and topic names. Topics come from a
one-vs-rest logistic regression blended with the topics of the nearest sources. Relevance is the
cosine similarity to the catalog's centroid (how much a work speaks the catalog's language as a
whole) plus a fifth of the mean similarity to its three nearest sources (how close it is to any
one of them). docs/candidates.md gives the measured precision, recall and topic accuracy on a
labelled month of arXiv listings.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
from django.conf import settings
from django.utils import timezone
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier

from catalog.models import Source, Tier

NEIGHBOURS = 3
NEAREST_WEIGHT = 0.2
TOPICS_SHOWN = 3
RECENT = timedelta(days=365)


@dataclass(frozen=True)
class CatalogDocument:
    slug: str
    title: str
    text: str
    topics: tuple[str, ...]


@dataclass(frozen=True)
class Score:
    relevance: float
    relevant: bool
    topics: list[tuple[str, float]]
    nearest: list[tuple[str, str, float]]


@dataclass
class Scorer:
    vectorizer: TfidfVectorizer
    matrix: sparse.csr_matrix
    centroid: np.ndarray
    documents: list[CatalogDocument]
    topic_names: list[str]
    classifier: OneVsRestClassifier | None
    cut: float

    def score(self, title: str, abstract: str = "") -> Score:
        return self.score_many([(title, abstract)])[0]

    def score_many(self, works: list[tuple[str, str]]) -> list[Score]:
        """Scores for many works in one matrix product (10,000 entries in about a second)."""
        if not works:
            return []
        vectors = self.vectorizer.transform([work_text(t, a) for t, a in works])
        similarity = (vectors @ self.matrix.T).toarray()
        on_topic = np.asarray(vectors @ self.centroid).ravel()
        topic_probability = self._topic_probability(vectors, similarity)
        return [
            self._one(similarity[row], float(on_topic[row]), topic_probability[row])
            for row in range(len(works))
        ]

    def _one(self, similarity: np.ndarray, on_topic: float, topic_probability: np.ndarray) -> Score:
        order = np.argsort(-similarity)[:NEIGHBOURS]
        nearest = [
            (self.documents[i].slug, self.documents[i].title, round(float(similarity[i]), 3))
            for i in order
            if similarity[i] > 0
        ]
        closest = float(np.mean(similarity[order])) if len(order) else 0.0
        relevance = round(float(on_topic) + NEAREST_WEIGHT * closest, 4)
        topic_order = np.argsort(-topic_probability)[:TOPICS_SHOWN]
        topics = [
            (self.topic_names[i], round(float(topic_probability[i]), 3))
            for i in topic_order
            if topic_probability[i] > 0
        ]
        return Score(relevance, relevance >= self.cut, topics, nearest)

    def _topic_probability(self, vectors: sparse.csr_matrix, similarity: np.ndarray) -> np.ndarray:
        # The topics of the nearest sources, weighted by closeness...
        membership = np.array(
            [[name in doc.topics for name in self.topic_names] for doc in self.documents],
            dtype=float,
        )
        top = np.argsort(-similarity, axis=1)[:, :NEIGHBOURS]
        weights = np.take_along_axis(similarity, top, axis=1)
        votes = np.einsum("rk,rkt->rt", weights, membership[top])
        totals = votes.sum(axis=1, keepdims=True)
        votes = np.divide(votes, totals, out=np.zeros_like(votes), where=totals > 0)
        if self.classifier is None:
            return votes
        # ...blended with a classifier that has seen every source of every topic.
        return 0.5 * votes + 0.5 * self.classifier.predict_proba(vectors)


def work_text(title: str, abstract: str) -> str:
    # The title twice: it is the densest statement of what a work is about.
    return f"{title}. {title}. {abstract}"


def build_scorer(documents: list[CatalogDocument], *, cut: float | None = None) -> Scorer:
    """A scorer trained on these catalog documents."""
    vectorizer = TfidfVectorizer(
        stop_words="english", ngram_range=(1, 2), sublinear_tf=True, min_df=1, dtype=np.float64
    )
    matrix = vectorizer.fit_transform([doc.text for doc in documents]).tocsr()
    topic_names = sorted({topic for doc in documents for topic in doc.topics})
    labels = np.array([[name in doc.topics for name in topic_names] for doc in documents])
    centroid = np.asarray(matrix.mean(axis=0)).ravel()
    norm = np.linalg.norm(centroid)
    centroid = centroid / norm if norm else centroid
    classifier = None
    # Every topic needs sources inside and outside it for a classifier to learn anything.
    if len(topic_names) > 1 and labels.all(axis=0).sum() == 0 and labels.any(axis=0).all():
        classifier = OneVsRestClassifier(
            LogisticRegression(C=10.0, class_weight="balanced", max_iter=1000)
        ).fit(matrix, labels.astype(int))
    return Scorer(
        vectorizer=vectorizer,
        matrix=matrix,
        centroid=centroid,
        documents=documents,
        topic_names=topic_names,
        classifier=classifier,
        cut=settings.CANDIDATES_RELEVANCE_CUT if cut is None else cut,
    )


def catalog_documents() -> list[CatalogDocument]:
    """Every published source as a training document, in two queries."""
    topics: dict[int, list[tuple[str, str]]] = {}
    links = Source.topics.through.objects.filter(source__status=Source.Status.PUBLISHED)
    for source_id, slug, name in links.values_list("source_id", "topic__slug", "topic__name"):
        topics.setdefault(source_id, []).append((slug, name))
    rows = Source.objects.published().order_by("pk")
    return [
        catalog_document(slug, title, summary, aliases.split(","), topics.get(pk, []))
        for pk, slug, title, aliases, summary in rows.values_list(
            "pk", "slug", "title", "aliases", "summary"
        )
    ]


def catalog_document(
    slug: str, title: str, summary: str, aliases: list[str], topics: list[tuple[str, str]]
) -> CatalogDocument:
    """One source as training text: title, summary, aliases and topic names."""
    names = " ".join(name for _slug, name in topics)
    text = f"{work_text(title, summary)} {'. '.join(aliases)}. {names}"
    return CatalogDocument(slug, title, text, tuple(slug for slug, _name in topics))


def catalog_scorer() -> Scorer:
    return build_scorer(catalog_documents())


def suggested_tier(
    *, is_paper: bool, published: datetime | None, now: datetime | None = None
) -> str:
    """Frontier for recent papers (the field's fast-moving edge), Further reading for posts and
    change logs, Core for an older paper that the catalog lacks."""
    now = now or timezone.now()
    if not is_paper:
        return Tier.FURTHER_READING
    if published is None or now - published <= RECENT:
        return Tier.FRONTIER
    return Tier.CORE
