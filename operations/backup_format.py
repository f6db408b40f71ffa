"""Django's JSON serializer, keeping datetimes and times to the microsecond.

The stock encoder cuts them to milliseconds (ECMA-262 dates), so a backup would not restore the
exact values. Files made with it are plain JSON fixtures that the stock deserializer reads.
"""

import datetime
from typing import Any

from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder


class ExactJSONEncoder(DjangoJSONEncoder):
    def default(self, o: object) -> Any:
        if isinstance(o, datetime.datetime):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        if isinstance(o, datetime.time):
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    def _init_options(self) -> None:
        self.options.setdefault("cls", ExactJSONEncoder)
        # Django's JSON serializer defines _init_options; django-stubs leaves it out.
        super()._init_options()  # type: ignore[misc]


Deserializer = django_json.Deserializer
