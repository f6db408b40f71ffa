from django.db import models
from django.db.models import F, Q


class NeighbourReason(models.TextChoices):
    LINKED = "linked", "Linked by the curators"
    SECTION = "section", "Same list section"
    SIMILAR = "similar", "Similar content"
    CO_READ = "co_read", "Read next by other readers"


class SourceNeighbour(models.Model):
    """One stored "related source": computed from catalog data (and readers' co-reading counts
    offered through a hook), never edited by hand. Pages read these rows instead of computing."""

    Reason = NeighbourReason

    source = models.ForeignKey(
        "catalog.Source", on_delete=models.CASCADE, related_name="neighbour_rows"
    )
    neighbour = models.ForeignKey("catalog.Source", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveSmallIntegerField()
    score = models.FloatField()
    reason_kind = models.CharField(max_length=10, choices=Reason)
    reason_text = models.CharField(max_length=200)

    class Meta:
        ordering = ["source", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["source", "neighbour"], name="neighbour_unique_per_source"
            ),
            models.UniqueConstraint(fields=["source", "rank"], name="neighbour_unique_rank"),
            models.CheckConstraint(
                condition=~Q(neighbour=F("source")), name="neighbour_not_itself"
            ),
            models.CheckConstraint(
                condition=Q(reason_kind__in=NeighbourReason.values),
                name="neighbour_reason_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} → {self.neighbour_id} ({self.reason_text})"
