"""Types the tests' hints name that exist only in stubs, importable at run time."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # The test client's response: django-stubs add `context`, `templates` and `json()` to it.
    from django.test.client import _MonkeyPatchedWSGIResponse as Response
else:
    from django.http import HttpResponse as Response

__all__ = ["Response"]
