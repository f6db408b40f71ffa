from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.search import SearchVectorField
from django.db import models

from .sources import Source, Tier


class SearchEntry(models.Model):
    """PostgreSQL only: one narrow row per published source, what search matches, counts and sorts.

    Written by the triggers declared in catalog/search/triggers.py, never by Django (the table
    does not exist on SQLite). Search reads it instead of catalog_source so that tens of
    thousands of matches cost a few dozen bytes each, not a whole source row, and topics count
    without a join. `document` is the weighted text declared in catalog/search/document.py.
    """

    source = models.OneToOneField(
        Source,
        primary_key=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="search_entry",
    )
    document = SearchVectorField()
    title = models.CharField(max_length=300)
    tier = models.ForeignKey(
        Tier, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    kind = models.CharField(max_length=20)
    year = models.PositiveSmallIntegerField(null=True)
    is_primary = models.BooleanField()
    topic_ids = ArrayField(models.BigIntegerField())
    created = models.DateTimeField()
    # Where reading lists cite the source: the lists, for the list facet, and
    # the first list, section and entry positions, for list order (None when no list cites it).
    list_ids = ArrayField(models.BigIntegerField(), default=list)
    first_list = models.IntegerField(null=True)
    first_section = models.IntegerField(null=True)
    first_position = models.IntegerField(null=True)

    class Meta:
        managed = False
        db_table = "catalog_search_entry"

    def __str__(self):
        return self.title
