from django import template

from readinglist import __version__

register = template.Library()


@register.simple_tag
def site_version() -> str:
    """The release this site runs, for the admin's footer (CHANGELOG.md lists them)."""
    return __version__
