"""What the home page and the topic index gather from the catalog's querysets."""

from collections import defaultdict

from catalog.lists import companion_entries, path_entries
from catalog.models import ReadingList, Source, Tier, Topic


def topic_tree() -> list[Topic]:
    """Every topic with its source count, top level first, each with its `subtopics`: one query."""
    topics = list(Topic.objects.with_counts())
    children: defaultdict[int | None, list[Topic]] = defaultdict(list)
    for topic in topics:
        children[topic.parent_id].append(topic)
    for topic in topics:
        topic.subtopics = children[topic.pk]
    return children[None]


def home_context() -> dict[str, object]:
    return {
        "path": path_entries(),
        "companions": companion_entries(),
        "tiers": Tier.objects.all(),
        "topics": Topic.objects.filter(parent=None).with_counts(),
        "lists": ReadingList.objects.all(),
        "recent": Source.objects.published().for_cards().newest()[:6],
    }
