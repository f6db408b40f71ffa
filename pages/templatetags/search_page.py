"""The search page's long lists as format strings: its facet links and its year chart's bars.

A page has up to a hundred facet links and a hundred bars. As template loops they cost 20-25 µs
an item (a variable lookup through the context per value, a forloop per item), which made them
a third of the page's rendering; as format strings they cost 2-3 µs. The markup stays here, in
one string per item, printed exactly as the template printed it (autoescaped, unlocalised).
"""

from collections.abc import Iterable
from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

from search.facets import FacetItem, YearChart

register = template.Library()

# The whitespace around each item is what the template's loop printed.
FACET_ITEM = (
    '\n      <li><a href="{href}"{current}><span class="facet-label">{label}</span> '
    '<span class="count">{count}</span>{note}</a></li>\n    '
)
CURRENT = ' class="is-selected" aria-current="true"'
CURRENT_NOTE = '<span class="visually-hidden"> (selected; click to remove)</span>'

BAR = (
    '<a href="{link}year={year}"><rect class="bar{selected}" x="{x}" y="{y}" width="{width}" '
    'height="{height}"><title>{year}: {count} source{plural}</title></rect></a>'
)


def _text(value: object) -> str:
    """`value` as `{{ value }}` prints it under `{% localize off %}` (Django's escape() is
    html.escape(); marked-up text is printed as it is)."""
    if hasattr(value, "__html__"):
        html: str = value.__html__()
        return html
    return escape(str(value))


@register.simple_tag
def facet_items(items: Iterable[FacetItem]) -> SafeString:
    """The `<li>` of each item of a facet: its link, count, and whether it is chosen."""
    return mark_safe(
        "".join(
            FACET_ITEM.format(
                href=_text(item.href),
                current=CURRENT if item.selected else "",
                label=_text(item.label),
                count=_text(item.count),
                note=CURRENT_NOTE if item.selected else "",
            )
            for item in items
        )
    )


@register.simple_tag
def year_bars(chart: YearChart, link: str) -> SafeString:
    """The chart's bars, each a link to its year: `link` is the page's query string without
    its year (`?` when nothing is left), to which each bar adds its own."""
    prefix = _text(link) + ("&amp;" if link != "?" else "")
    return mark_safe(
        "".join(
            BAR.format(
                link=prefix,
                year=bar.year,
                selected=" is-selected" if bar.selected else "",
                x=bar.x,
                y=bar.y,
                width=chart.BAR,
                height=bar.height,
                count=bar.count,
                plural="" if bar.count == 1 else "s",
            )
            for bar in chart.bars
            if bar.count
        )
    )
