import json

from django import template

from ..citations import to_bibtex, to_csl
from ..models import Source

register = template.Library()


@register.inclusion_tag("catalog/includes/cite.html")
def cite_block(source: Source) -> dict[str, object]:
    """The "Cite" disclosure of a source page: BibTeX and CSL-JSON, shown and downloadable."""
    return {
        "source": source,
        "bibtex": to_bibtex([source]).strip(),
        "csl": json.dumps(to_csl([source])[0], ensure_ascii=False, indent=2),
    }
