"""An upload handler that stops keeping a file once it passes the size limit, so a 1 GB upload
is never written to disk or memory: the rest of the body is read and dropped, and the form
says the file was too large."""

from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest

TOO_LARGE = "_team_source_upload_too_large"


class SizeLimitHandler(FileUploadHandler):
    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > settings.TEAM_SOURCE_MAX_BYTES:
            setattr(self.request, TOO_LARGE, True)
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> Any:
        return None  # the next handler builds the file


def limit_uploads(request: HttpRequest) -> None:
    """Call before the request's body is read."""
    request.upload_handlers.insert(0, SizeLimitHandler(request))


def upload_was_too_large(request: HttpRequest) -> bool:
    return getattr(request, TOO_LARGE, False)
