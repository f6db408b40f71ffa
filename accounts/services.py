"""Writes to a reader's account. Keyword-only, one transaction each."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction


@transaction.atomic
def delete_account(*, user: AbstractBaseUser) -> None:
    """Delete a reader and everything they keep (bookmarks, notes, email addresses cascade)."""
    get_user_model().objects.filter(pk=user.pk).delete()
