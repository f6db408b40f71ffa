"""The request type of views behind a login check.

Every app may use `accounts` (docs/architecture.md), so this sits here rather than in the project
package, which names no app outside its composition root.
"""

from accounts.models import User
from readinglist.requests import HtmxHttpRequest


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request from a signed-in reader (`login_required` or `login_required_htmx` has run)."""

    user: User
