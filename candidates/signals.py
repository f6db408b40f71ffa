"""A proposal naming a collected work moves that candidate out of the inbox.

Proposals know nothing of candidates (the dependency runs candidates -> proposals), so the
inbox listens for new proposals instead; docs/wiring.md lists this receiver.
"""

from django.db import transaction
from django.db.models.signals import post_save

from proposals.models import Proposal

from .services import mark_proposed


def _proposal_saved(
    sender: type[Proposal], instance: Proposal, created: bool, **kwargs: object
) -> None:
    if created:
        transaction.on_commit(
            lambda: mark_proposed(proposal_id=instance.pk, url=instance.url, title=instance.title)
        )


def connect_signals() -> None:
    post_save.connect(_proposal_saved, sender=Proposal, dispatch_uid="candidates.proposal_saved")
