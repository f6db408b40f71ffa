from candidates.scoring import CatalogDocument, build_scorer, suggested_tier


def documents() -> list[CatalogDocument]:
    return [
        CatalogDocument(
            "paged",
            "PagedAttention",
            "PagedAttention. KV cache paging for LLM serving GPU memory.",
            ("kv-cache",),
        ),
        CatalogDocument(
            "spec",
            "Speculative decoding",
            "Speculative decoding. A draft model proposes tokens the target model verifies.",
            ("speculative-decoding",),
        ),
        CatalogDocument(
            "flash",
            "FlashAttention",
            "FlashAttention. An IO-aware attention kernel tiles attention in GPU shared memory.",
            ("attention", "kernels"),
        ),
    ]


def test_work_in_the_field_scores_above_work_outside_it() -> None:
    scorer = build_scorer(documents(), cut=0.2)

    inside = scorer.score("A paged KV cache for LLM serving", "Saves GPU memory when serving.")
    outside = scorer.score("Zero-shot robot navigation", "Robots find objects in rooms.")

    assert inside.relevance > outside.relevance
    assert inside.relevant and not outside.relevant
    assert inside.topics[0][0] == "kv-cache"
    assert inside.nearest[0][:2] == ("paged", "PagedAttention")
    assert outside.nearest == [] and outside.relevance == 0


def test_recent_papers_are_frontier_posts_further_reading() -> None:
    from datetime import UTC, datetime

    now = datetime(2025, 12, 1, tzinfo=UTC)
    assert (
        suggested_tier(is_paper=True, published=datetime(2025, 11, 1, tzinfo=UTC), now=now)
        == "frontier"
    )
    assert (
        suggested_tier(is_paper=True, published=datetime(2020, 1, 1, tzinfo=UTC), now=now) == "core"
    )
    assert suggested_tier(is_paper=False, published=None, now=now) == "further-reading"
