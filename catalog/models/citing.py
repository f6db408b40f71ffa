"""A reader's default citation style: the cite pages use it when the address names none."""

from django.conf import settings
from django.db import models


class CitationPreference(models.Model):
    # Its own row rather than a column on the user: the style is the citation feature's concern.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="citation_preference"
    )
    # A key of citation_styles.STYLES, checked by the form that sets it; an unknown key (a style
    # since withdrawn) reads as the site's default.
    style = models.CharField(max_length=20)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.style}"
