import json

from django import template

from ..citation_styles import STYLES, default_style, format_references
from ..citations import to_bibtex, to_csl
from ..models import Source

register = template.Library()


@register.inclusion_tag("catalog/includes/cite.html", takes_context=True)
def cite_block(context: template.Context, source: Source) -> dict[str, object]:
    """The "Cite" disclosure of a source page: the reference in the reader's default style (the
    site's for a visitor), ready to copy, links to the other styles, and BibTeX and CSL-JSON,
    shown and downloadable."""
    request = context.get("request")
    style = default_style(getattr(request, "user", None))
    return {
        "source": source,
        "style": style,
        "reference": format_references([source], style)[0],
        "other_styles": [choice for choice in STYLES.values() if choice != style],
        "bibtex": to_bibtex([source]).strip(),
        "csl": json.dumps(to_csl([source])[0], ensure_ascii=False, indent=2),
    }
