"""The published reading lists: a list, its ordered sections and the catalog sources in each."""

from django.db import models
from django.urls import reverse

from ..querysets import ReadingListQuerySet
from .sources import Source


class ReadingList(models.Model):
    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=200)
    publisher = models.CharField(max_length=200, blank=True)
    url = models.URLField(max_length=2000, blank=True)
    licence = models.CharField(max_length=60, blank=True)
    description = models.TextField(blank=True)
    contribution_rules = models.TextField(blank=True)
    verified_on = models.DateField(null=True, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    objects = ReadingListQuerySet.as_manager()

    class Meta:
        ordering = ["position", "title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("pages:list-detail", args=[self.slug])


class ListSection(models.Model):
    reading_list = models.ForeignKey(ReadingList, on_delete=models.CASCADE, related_name="sections")
    slug = models.SlugField()
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["reading_list", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["reading_list", "slug"], name="section_unique_slug_in_list"
            ),
            models.UniqueConstraint(
                fields=["reading_list", "position"], name="section_unique_position_in_list"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reading_list.title}: {self.title}"

    def get_absolute_url(self) -> str:
        return f"{self.reading_list.get_absolute_url()}#{self.slug}"


class ListEntry(models.Model):
    section = models.ForeignKey(ListSection, on_delete=models.CASCADE, related_name="entries")
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="entries")
    position = models.PositiveSmallIntegerField()
    label = models.CharField(
        max_length=300, blank=True, help_text="How this list names the source, when it differs."
    )

    class Meta:
        ordering = ["section__reading_list", "section__position", "position"]
        verbose_name_plural = "list entries"
        constraints = [
            models.UniqueConstraint(
                fields=["section", "position"], name="entry_unique_position_in_section"
            ),
            models.UniqueConstraint(
                fields=["section", "source"], name="entry_unique_source_in_section"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.section}: {self.position}. {self.display_title}"

    @property
    def display_title(self) -> str:
        return self.label or self.source.title
