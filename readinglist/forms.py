"""Form helpers more than one app uses."""

from django import forms
from django.core.exceptions import ValidationError


def add_service_error(form: forms.BaseForm, error: ValidationError) -> None:
    """Put a service's ValidationError onto the form: each field's message beside its answer,
    the rest (or a message for a field the form does not show) at the top."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, error)
