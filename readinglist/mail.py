"""Mail transports whose plain-text parts keep every line whole.

Python's email package sends a text part with a line longer than 78 characters as
quoted-printable, which breaks a long link with `=` at the end of each 76-character piece: copied
from a terminal or a mail client showing the raw text, the link is dead. These backends send
such parts unencoded instead: 7bit when the text is ASCII, 8bit UTF-8 otherwise (every current
SMTP server accepts 8BITMIME). The limit that matters, 998 octets a line (RFC 5322), is far
above any link the site sends; a part with a longer line keeps Python's encoding.

EMAIL_URL picks the transport; readinglist/settings_parts/mail.py maps Django's console and SMTP
backends to these.
"""

from collections.abc import Sequence
from email.message import EmailMessage as MIMEMessage
from email.message import MIMEPart
from typing import Any

from django.core.mail import EmailMessage
from django.core.mail.backends import console, smtp

# RFC 5322 2.1.1: a line is at most 998 characters, excluding the CRLF.
LONGEST_LINE = 998


def keep_lines_whole(message: MIMEMessage) -> MIMEMessage:
    """Re-encode every text part that Python encoded (quoted-printable or base64) as 7bit or
    8bit, when its lines allow it. Attachments are left alone."""
    for part in message.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        if part.get_content_disposition() == "attachment":
            continue
        if part.get("Content-Transfer-Encoding", "7bit").lower() not in {
            "quoted-printable",
            "base64",
        }:
            continue
        _reencode(part)
    return message


def _reencode(part: MIMEPart) -> None:
    text = part.get_content()
    charset = part.get_content_charset() or "utf-8"
    if any(len(line.encode(charset)) > LONGEST_LINE for line in text.splitlines()):
        return
    transfer = "7bit" if text.isascii() else "8bit"
    part.set_content(text, subtype=part.get_content_subtype(), charset=charset, cte=transfer)


class _WholeLines:
    """The Django message as backends see it, except that its MIME form keeps lines whole."""

    def __init__(self, message: EmailMessage):
        self._message = message

    def __getattr__(self, name: str) -> Any:
        return getattr(self._message, name)

    def message(self, **kwargs: Any) -> MIMEMessage:
        return keep_lines_whole(self._message.message(**kwargs))


class _KeepsLinesWhole:
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        wrapped = [_WholeLines(message) for message in email_messages]
        # A mixin: the backend after it in the MRO sends, which mypy cannot see from here.
        return super().send_messages(wrapped) or 0  # type: ignore[misc]


class ConsoleEmailBackend(_KeepsLinesWhole, console.EmailBackend):
    """Prints each email on standard output, its text readable and its links whole."""


class SMTPEmailBackend(_KeepsLinesWhole, smtp.EmailBackend):
    """Django's SMTP backend, sending text parts with their lines whole."""
