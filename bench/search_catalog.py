"""The synthetic catalog the search and "For you" benchmarks run against, and their queries.

Titles and summaries are drawn from a domain word list followed by the shipped catalog's own
words (as many as its vocabulary has) with a Zipf distribution, so a few words are common
(10-30 % of the sources) and most are rare; a twentieth of the titles start with an
invented word ("Zenora: ...") that about 60 sources share.
"""

import functools
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from django.core.management.base import OutputWrapper
from django.db import connection, transaction


def word_list(text: str) -> list[str]:
    return text.split()


DOMAIN = word_list("""
attention flash paged kernel tensor core memory bandwidth cache quantization sparsity
mixture experts speculative decoding prefill batching scheduling serving inference training
pipeline parallelism sharding collective allreduce interconnect hopper blackwell ampere warp
thread block shared register occupancy roofline throughput latency gemm matmul softmax
layernorm fusion compiler triton cutlass cuda ptx profiling tokenizer transformer diffusion
vision multimodal retrieval embedding rotary positional context ring sequence tiling
asynchronous copy fp8 fp4 int8 int4 bf16 mixed precision rounding calibration outlier
distillation pruning adapter finetuning reward benchmark evaluation goodput autoscaling
disaggregated cluster datacenter power energy network rdma infiniband topology placement
routing balancing gating dense sparse structured hardware accelerator systolic array vector
coalescing bank conflicts prefetch eviction offloading swapping allocator fragmentation
compression encoding decoder encoder language model large small efficient scalable fast
optimal adaptive dynamic static hierarchical distributed federated streaming online""")
FILLER = word_list("the a of with for and that we show improves reduces by using on in to")
# The shipped catalog's vocabulary is some 4,200 words; a benchmark of a few hundred would ask
# the corrections statement about words it lacks, rather than knows, and show described queries
# cheaper or dearer than they are. So the words after DOMAIN (the Zipf head the queries use) are
# the shipped catalog's own, most frequent first: a vocabulary as large as the real one.
CATALOG_WORD = re.compile(r"[a-z][a-z0-9]{2,39}")


def catalog_words() -> list[str]:
    """DOMAIN, then the shipped catalog's other words (as the search vocabulary keeps them:
    three letters or more, starting with a letter), most frequent first, then alphabetically:
    the same list on every build."""
    from catalog.catalog_file import read_catalog

    counts: Counter[str] = Counter()
    for source in read_catalog()["sources"]:
        fields = ("title", "aliases", "summary", "authors", "venue", "keywords")
        text = " ".join(str(source.get(name) or "") for name in fields)
        counts.update(CATALOG_WORD.findall(text.lower()))
    known = set(DOMAIN) | set(FILLER)
    rest = sorted((w for w in counts if w not in known), key=lambda w: (-counts[w], w))
    return [*DOMAIN, *rest]


RARE = [
    f"{a}{b}"
    for a in ("zen", "kyo", "vort", "quil", "maro", "tesk", "bryn", "sol", "orv", "lum")
    for b in ("ax", "ion", "etta", "ora", "ix", "und", "eph", "arn", "oss", "yth")
]
FIRST = word_list("Ada Alan Grace Tri Wei Li Yuki Priya Omar Sofia Lars Nina Chen Maria Ivan Aisha")
LAST = word_list("""Dao Chen Smith Kumar Garcia Nakamura Ivanova Okafor Muller Rossi Kim Zhang Patel
Novak Haddad Silva Johansson Tanaka Cohen Moreau""")
KINDS = ["paper"] * 6 + ["article", "documentation", "repository", "book", "specification"]
BASES = ["mechanism-paper", "none", "none", "implementation", "specification"]
TIERS = ["start-here", "core", "core", "frontier", "further-reading", "further-reading"]

# "common" words each match 10-30% of the synthetic sources (the Zipf head matches nearly all of
# them, which no reader types alone); "rare" ones match about 60 sources each.
QUERIES = {
    "common": [
        "experts",
        "speculative",
        "decoding",
        "prefill",
        "batching",
        "scheduling",
        "serving",
        "inference",
        "training",
        "pipeline",
    ],
    "rare": RARE[3:13],
    "multi-word": [
        "speculative decoding latency",
        "pipeline parallelism interconnect",
        "prefill scheduling",
        "tensor core gemm",
        "flash attention hopper",
        "mixture of experts routing",
        "fp8 mixed precision",
        "paged memory allocator",
        '"warp occupancy"',
        "disaggregated prefill -training",
    ],
    "typo": [
        "speculatve",
        "schedulng",
        "infrence",
        "paralelism",
        "throughpt",
        "interconect",
        "batchng",
        "decodng",
        "blackwel",
        RARE[20][:-1] + "x",
    ],
    # Eight words a learner types, most of which no source has together: the all-words match
    # is empty, so the any-word match ranks them (compared with "common" above).
    "described": [
        "how does speculative decoding reduce latency for serving",
        "why is my prefill slow with long context",
        "best way to reduce memory bandwidth in attention",
        "what is paged memory allocator for the cache",
        "how do tensor core gemm kernels use shared memory",
        "why does quantization with fp8 lose accuracy here",
        "how to balance experts across gpus with routing",
        "what limits throughput of disaggregated prefill and decoding",
        "how is ring attention different from sequence parallelism",
        "why is my kernel occupancy low with many registers",
    ],
    "with facets": [
        "q=serving&topic=topic-1",
        "q=prefill&tier=core&kind=paper",
        "q=inference&year=2020-2025",
        "q=serving+latency&topic=topic-2&list=bench-list-1",
        "topic=topic-3&sort=newest",
        "tier=frontier&year=2024",
        "q=training&sort=year&page=3",
        "kind=repository&topic=topic-4",
        "q=batching&topic=topic-1&topic=topic-7",
        "list=bench-list-2&page=40",
    ],
}


def build_catalog(total: int, stdout: OutputWrapper, stderr: TextIO) -> None:
    """Replace the catalog with `total` synthetic sources: Zipf word lists, 30 topics in a
    two-level tree, 3 lists of 10 sections, 1 to 3 topics each, a fifth of them listed."""
    from catalog.progress import Progress

    rng = random.Random(20261129)
    stdout.write(f"Building {total:,} synthetic sources in {connection.settings_dict['NAME']}")
    _clear_catalog()
    shape = _catalog_shape()
    batch = 2000
    with Progress(total, "sources", stream=stderr) as bar:
        for start in range(0, total, batch):
            rows = [_source(rng, i, shape) for i in range(start, min(start + batch, total))]
            _save_batch(rng, rows, shape)
            bar.advance(len(rows))
    with connection.cursor() as cursor:
        # Packed as after a restore: adding topics rewrote each search entry once, and
        # half-empty pages would be measured as search cost.
        cursor.execute("VACUUM FULL" if connection.vendor == "postgresql" else "VACUUM")
        cursor.execute("ANALYZE")


def _clear_catalog() -> None:
    from catalog.models import ListEntry, ListSection, ReadingList, Source, Tier, Topic

    with transaction.atomic():
        ListEntry.objects.all().delete()
        ListSection.objects.all().delete()
        ReadingList.objects.all().delete()
        Source.topics.through.objects.all().delete()
        Source.objects.all().delete()
        # A parent topic is protected while it has children: leaves first, up the tree.
        while Topic.objects.exists():
            Topic.objects.filter(children__isnull=True).delete()
        Tier.objects.all().delete()


@dataclass
class _Shape:
    """What every synthetic source is placed in: tiers, topics and list sections."""

    tiers: dict[str, Any]
    topics: list[Any]
    sections: list[Any]
    # The last position used in each section, by section id.
    positions: dict[int, int] = field(default_factory=dict)


def _catalog_shape() -> _Shape:
    from catalog.models import ListSection, ReadingList, Tier, Topic

    tiers = {
        slug: Tier.objects.create(slug=slug, name=slug.replace("-", " ").title(), position=i)
        for i, slug in enumerate(dict.fromkeys(TIERS))
    }
    parents = [
        Topic.objects.create(slug=f"topic-{i}", name=f"{DOMAIN[i * 7].title()} systems")
        for i in range(6)
    ]
    topics = parents + [
        Topic.objects.create(
            slug=f"topic-{6 + i}",
            name=f"{DOMAIN[40 + i].title()} {DOMAIN[80 + i]}",
            parent=parents[i % 6],
        )
        for i in range(24)
    ]
    sections = []
    for n in range(1, 4):
        reading_list = ReadingList.objects.create(
            slug=f"bench-list-{n}", title=f"Benchmark list {n}", position=n
        )
        sections += [
            ListSection.objects.create(
                reading_list=reading_list, slug=f"s{s}", title=f"Section {s}", position=s
            )
            for s in range(1, 11)
        ]
    return _Shape(tiers, topics, sections, {section.pk: 0 for section in sections})


@functools.cache
def _vocabulary() -> tuple[list[str], list[float]]:
    """The words and their Zipf weights: a few common words, a long tail of rare ones."""
    words = catalog_words()
    return words, [1 / (rank + 1) for rank in range(len(words))]


def _words(rng: random.Random, count: int) -> list[str]:
    words, weights = _vocabulary()
    return rng.choices(words, weights=weights, k=count)


def _source(rng: random.Random, i: int, shape: _Shape) -> Any:
    """The i-th synthetic source (unsaved); the draws keep their order so every build is alike."""
    from catalog.models import Source

    title = " ".join(_words(rng, rng.randint(2, 5))).capitalize()
    if rng.random() < 0.05:
        title = f"{rng.choice(RARE).capitalize()}: {title}"
    summary = " ".join(
        rng.choice(FILLER) if rng.random() < 0.3 else w for w in _words(rng, rng.randint(18, 40))
    )
    authors = ", ".join(f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(1, 4)))
    return Source(
        slug=f"s{i}",
        title=title,
        url=f"https://bench.example.org/{i}",
        kind=rng.choice(KINDS),
        basis=rng.choice(BASES),
        authors=authors,
        venue=rng.choice(["", "NeurIPS", "MLSys", "ISCA", "arXiv", "OSDI"]),
        year=min(2025, 1995 + int(rng.betavariate(5, 1.5) * 31)),
        summary=summary.capitalize() + ".",
        aliases=rng.choice(["", "", "", title.split()[0].upper()[:4]]),
        tier=shape.tiers[rng.choice(TIERS)],
    )


def _save_batch(rng: random.Random, rows: list[Any], shape: _Shape) -> None:
    """Save `rows` with 1 to 3 topics each, a fifth of them in a list section."""
    from catalog.models import ListEntry, Source

    with transaction.atomic():
        created = Source.objects.bulk_create(rows)
        links = [
            Source.topics.through(source_id=s.pk, topic_id=t.pk)
            for s in created
            for t in rng.sample(shape.topics, rng.randint(1, 3))
        ]
        Source.topics.through.objects.bulk_create(links)
        entries = []
        for s in created:
            if rng.random() < 0.2:
                section = rng.choice(shape.sections)
                shape.positions[section.pk] += 1
                entries.append(
                    ListEntry(section=section, source=s, position=shape.positions[section.pk])
                )
        ListEntry.objects.bulk_create(entries)
