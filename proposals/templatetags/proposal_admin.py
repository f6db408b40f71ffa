from django import template
from django.template import Context

from proposals.models import Proposal

register = template.Library()


@register.simple_tag(takes_context=True)
def pending_proposal_count(context: Context) -> int | None:
    """How many proposals wait for a decision, for maintainers who may see them; else None."""
    request = context.get("request")
    if request is None or not request.user.has_perm("proposals.view_proposal"):
        return None
    return Proposal.objects.pending().count()
