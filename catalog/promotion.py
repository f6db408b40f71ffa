"""Frontier sources move into the core once their evidence is complete."""

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from accounts.models import User

from .changelog import record_change
from .models import ChangeLogEntry, Source, Tier

EVIDENCE_FIELDS = {
    "evidence_spec_url": "a technical specification or original paper",
    "evidence_implementation_url": "a shipped implementation",
    "evidence_measurement_url": "a reproducible measurement",
}


def missing_evidence(source: Source) -> list[str]:
    return [label for name, label in EVIDENCE_FIELDS.items() if not getattr(source, name)]


@transaction.atomic
def promote_to_core(*, source: Source, by: User | AnonymousUser) -> Source:
    """Move a frontier source into the core once all three kinds of evidence are recorded."""
    if not by.has_perm("catalog.change_source"):
        raise PermissionDenied("Only maintainers promote sources.")
    source = Source.objects.select_for_update().select_related("tier").get(pk=source.pk)
    if not source.tier.is_frontier:
        raise ValidationError(f"“{source.title}” is not a frontier source.")
    missing = missing_evidence(source)
    if missing:
        raise ValidationError(
            f"“{source.title}” stays in the frontier until it has "
            + ", ".join(missing)
            + ". Record the missing evidence first."
        )
    before = source.tier
    source.tier = Tier.objects.get(slug=Tier.CORE)
    source.save(update_fields=["tier", "updated"])
    record_change(
        source=source,
        kind=ChangeLogEntry.Kind.PROMOTED,
        detail=f"Moved from {before.name} to {source.tier.name}: the evidence is complete.",
        actor=by,
        via=ChangeLogEntry.Via.ADMIN,
    )
    return source
