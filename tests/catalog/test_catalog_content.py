"""The shipped catalog against the two seed documents."""

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from catalog.models import ListEntry, ReadingList, Source
from catalog.querysets import SourceQuerySet
from catalog.services import LoadReport
from catalog.urlcanon import canonical_url

pytestmark = pytest.mark.django_db

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
WAFER_SEED = SEEDS / "000_bc9784edd6adcbe2.txt"
APPENDIX_SEED = SEEDS / "004_f4ff17803cba0ad9.txt"
WAFER, APPENDIX = "wafer-gpu-performance", "inference-engineering-further-reading"
needs_seeds = pytest.mark.skipif(
    not WAFER_SEED.exists(), reason="../shared/seeds is not beside the repo"
)


def seed_urls() -> set[str]:
    """Every URL the Wafer seed links, with the underscores it lost restored."""
    text = WAFER_SEED.read_text()
    stops = r"(?= - | , | \. | and Rubin| and TensorRT|, SGLang|$)"
    urls = {m.replace(" ", "_") for m in re.findall(r"https?://.*?" + stops, text)}
    urls.discard("https://wafer.ai")  # the publisher's hiring link, not a source
    return {canonical_url(u) for u in urls}


def list_sources(slug: str) -> SourceQuerySet[Source, Source]:
    return Source.objects.filter(entries__section__reading_list__slug=slug).distinct()


@needs_seeds
def test_every_wafer_url_is_a_source(full_catalog: LoadReport) -> None:
    expected = seed_urls()
    assert len(expected) == 119
    in_catalog = set(list_sources(WAFER).exclude(url="").values_list("url", flat=True))
    assert in_catalog == expected


@needs_seeds
def test_every_appendix_entry_is_placed(full_catalog: LoadReport) -> None:
    printed = [line for line in APPENDIX_SEED.read_text().splitlines() if line.startswith("- ")]
    assert len(printed) == 95
    entries = ListEntry.objects.filter(section__reading_list__slug=APPENDIX)
    assert entries.count() == 95
    sections = ReadingList.objects.get(slug=APPENDIX).sections.order_by("position")
    assert [(s.title, s.entries.count()) for s in sections] == [
        ("Architecture", 27),
        ("Developer Tools", 20),
        ("Frontier Open Models", 0),
        ("GPU Infrastructure", 12),
        ("Inference Optimization Research", 27),
        ("Intelligence Evaluation", 9),
    ]


def test_start_here_has_eight_in_order(full_catalog: LoadReport) -> None:
    entries = ListEntry.objects.filter(
        section__reading_list__slug=WAFER, section__slug="start-here"
    ).order_by("position")
    titles = [e.source.title for e in entries]
    assert len(titles) == 8
    assert titles[0] == "How to Scale Your Model: Inference"
    assert titles[1] == "Attention Is All You Need"
    assert titles[-1] == "Etalon"
    assert all(e.source.tier.slug == "start-here" for e in entries)
    companion = ListEntry.objects.get(section__slug="practical-companion")
    assert "GPU Mode" in companion.source.title


def test_wafer_sections_follow_the_path(full_catalog: LoadReport) -> None:
    slugs = list(
        ReadingList.objects.get(slug=WAFER)
        .sections.order_by("position")
        .values_list("slug", flat=True)
    )
    assert slugs[:3] == ["start-here", "practical-companion", "cuda-model-and-references"]
    assert slugs.index("kernel-fundamentals") < slugs.index("serving-engines-and-scheduling")
    assert slugs.index("serving-engines-and-scheduling") < slugs.index("disaggregated-serving")
    assert slugs[-2:] == ["hardware-architectures", "frontier"]


def test_frontier_is_dated_and_keeps_items_awaiting_evidence(full_catalog: LoadReport) -> None:
    frontier = Source.objects.filter(tier__slug="frontier")
    assert frontier.exists()
    assert not frontier.filter(verified_on__isnull=True).exists()
    assert {str(d) for d in frontier.values_list("verified_on", flat=True)} == {"2026-08-23"}
    awaiting = frontier.filter(awaiting_evidence=True)
    assert awaiting.count() == 6
    assert not awaiting.exclude(url="").exists()
    titles = " ".join(awaiting.values_list("title", flat=True))
    for word in ["Rubin CPX", "MI400", "voice", "kernel agents"]:
        assert word in titles


@pytest.mark.parametrize(
    "slug",
    [
        "attention-is-all-you-need",
        "flashattention",
        "flashattention-2",
        "flashattention-3",
        "flashattention-4",
        "gptq",
        "awq",
        "smoothquant",
        "medusa",
        "eagle",
        "megatron-lm",
        "pagedattention",
        "ring-attention",
        "speculative-decoding-leviathan",
        "pmpp",
        "deepgemm",
        "tensorrt-llm",
    ],
)
def test_shared_works_are_one_source_in_both_lists(full_catalog: LoadReport, slug: str) -> None:
    source = Source.objects.get(slug=slug)
    lists = set(source.entries.values_list("section__reading_list__slug", flat=True))
    assert lists == {WAFER, APPENDIX}


def test_paper_and_repository_are_related(full_catalog: LoadReport) -> None:
    assert Source.objects.get(slug="pagedattention").related.filter(slug="vllm").exists()
    assert Source.objects.get(slug="flashinfer-paper").related.filter(slug="flashinfer").exists()


def test_no_url_has_a_space_and_all_are_canonical(full_catalog: LoadReport) -> None:
    for url in Source.objects.exclude(url="").values_list("url", flat=True):
        assert " " not in url
        assert canonical_url(url) == url


def test_every_source_is_classified(full_catalog: LoadReport) -> None:
    for source in Source.objects.prefetch_related("topics"):
        assert source.kind and source.basis and source.tier_id, source.slug
        assert source.topics.exists(), source.slug
        assert 4 <= len(source.summary.split()) <= 40, source.slug


def test_contribution_rules_are_stored(full_catalog: LoadReport) -> None:
    rules = ReadingList.objects.get(slug=WAFER).contribution_rules
    for phrase in ["paper that introduced the mechanism", "baseline", "correctness"]:
        assert phrase in rules


def test_contribution_rules_shown_on_list_and_tier_pages(
    client: Client, full_catalog: LoadReport
) -> None:
    for url in [f"/lists/{WAFER}/", "/tiers/core/", "/tiers/frontier/"]:
        assert "paper that introduced the mechanism" in client.get(url).content.decode(), url


def test_catalog_json_has_the_documented_shape(client: Client, full_catalog: LoadReport) -> None:
    doc = client.get("/catalog.json").json()
    assert set(doc) >= {"lists", "tiers", "topics", "sources"}
    source = next(s for s in doc["sources"] if s["slug"] == "flashattention")
    assert set(source) >= {
        "slug",
        "title",
        "url",
        "kind",
        "basis",
        "authors",
        "venue",
        "year",
        "tier",
        "topics",
        "summary",
        "verified_on",
        "entries",
    }
    assert {e["list"] for e in source["entries"]} == {WAFER, APPENDIX}
    assert set(source["entries"][0]) >= {"list", "section", "position"}


def test_export_command_writes_the_same_document(
    full_catalog: LoadReport, tmp_path: Path, client: Client
) -> None:
    out = tmp_path / "export.json"
    call_command("export_catalog", output=str(out), verbosity=0)
    assert json.loads(out.read_text()) == client.get("/catalog.json").json()


def test_home_and_start_here_show_the_path_and_its_companion(
    client: Client, full_catalog: LoadReport
) -> None:
    for url in ["/", "/tiers/start-here/"]:
        html = client.get(url).content.decode()
        assert html.count('class="path-step') == 8, url
        assert "Practical companion" in html and "GPU Mode lectures" in html, url
