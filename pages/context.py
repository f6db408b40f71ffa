"""What the topic index gathers from the catalog's querysets."""

from collections import defaultdict

from catalog.models import Topic


def topic_tree() -> list[Topic]:
    """Every topic with its source count, top level first, each with its `subtopics`: one query."""
    topics = list(Topic.objects.with_counts())
    children: defaultdict[int | None, list[Topic]] = defaultdict(list)
    for topic in topics:
        children[topic.parent_id].append(topic)
    for topic in topics:
        topic.subtopics = children[topic.pk]
    return children[None]
