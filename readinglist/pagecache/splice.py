"""Per-visitor values in a stored page: the CSRF token and the CSP nonce.

A page rendered for the cache gets placeholders instead of those values, from a context
processor listed after Django's csrf and csp ones. Each placeholder holds `<` and a NUL byte
around a random value drawn when the process starts: reader text is escaped (or sanitised
Markdown), which never leaves a raw `<` followed by NUL, so only the template can produce one.
The page is stored cut at the placeholders, and every response, the miss that rendered it as
well as each hit, joins the pieces around this visitor's own values.
"""

import re
import secrets

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.safestring import SafeString, mark_safe

# Set on a request whose page is rendered for the cache: templates then get placeholders.
PLACEHOLDERS_ATTRIBUTE = "_page_cache_placeholders"
_MARK = secrets.token_hex(16)
CSRF_PLACEHOLDER = f"<\x00{_MARK}:csrf\x00>"
NONCE_PLACEHOLDER = f"<\x00{_MARK}:nonce\x00>"
_CSRF, _NONCE = 0, 1
_SLOTS = {CSRF_PLACEHOLDER.encode(): _CSRF, NONCE_PLACEHOLDER.encode(): _NONCE}
_SPLIT_RE = re.compile(b"(" + b"|".join(map(re.escape, _SLOTS)) + b")")


def placeholders(request: HttpRequest) -> dict[str, SafeString]:
    """Context processor: placeholders while a page is rendered for the cache."""
    if not getattr(request, PLACEHOLDERS_ATTRIBUTE, False):
        return {}
    return {"csrf_token": mark_safe(CSRF_PLACEHOLDER), "csp_nonce": mark_safe(NONCE_PLACEHOLDER)}


def cut(content: bytes) -> tuple[tuple[bytes, ...], bytes]:
    """Split a page at its placeholders: (pieces, slots), len(pieces) == len(slots) + 1."""
    parts = _SPLIT_RE.split(content)
    return tuple(parts[0::2]), bytes(_SLOTS[part] for part in parts[1::2])


def personalise(request: HttpRequest, pieces: tuple[bytes, ...], slots: bytes) -> bytes:
    """The stored page with this visitor's CSRF token and CSP nonce put in."""
    if not slots:
        return pieces[0]
    values = [b"", b""]
    if _CSRF in slots:
        # Also asks the CSRF middleware (further out) to set this visitor's cookie.
        values[_CSRF] = get_token(request).encode()
    if _NONCE in slots:
        nonce = getattr(request, "_csp_nonce", None)
        # Without the CSP middleware there is no nonce to match: the attribute is left empty.
        values[_NONCE] = str(nonce).encode() if nonce is not None else b""
    parts = [pieces[0]]
    for slot, piece in zip(slots, pieces[1:], strict=True):
        parts.append(values[slot])
        parts.append(piece)
    return b"".join(parts)
