"""Who may sign up by invitation: apps that issue invitations register a gate here.

Accounts decides who may sign up but does not know what an invitation is; the app that issues
them (teams) registers a gate in its AppConfig.ready(), so accounts depends on no other app.
"""

from collections.abc import Callable
from typing import Any, Protocol

from django.http import HttpRequest


class Admission(Protocol):
    """A valid permission to sign up, such as a team invitation the visitor arrived with."""

    def admits(self, email: str) -> bool:
        """Whether a reader signing up with `email` may use this permission."""
        ...


SignupGate = Callable[[HttpRequest | None], Admission | None]

# Where a reader goes once they confirmed their address, when another app asked them to verify
# it first (teams: a join that waits for it). A path on this site, kept in their session.
AFTER_VERIFICATION_SESSION_KEY = "accounts_after_verification"

# Where a reader goes right after signing up, when another app gave the sign-up its purpose
# (teams: the team they joined, or the join waiting for their address). Whichever sign-up
# button they pressed, they come back to it.
AFTER_SIGNUP_SESSION_KEY = "accounts_after_signup"

_gates: list[SignupGate] = []


def register_signup_gate(gate: SignupGate) -> None:
    """Add a gate: given the request, it returns the visitor's admission, or None."""
    if gate not in _gates:
        _gates.append(gate)


def pending_admission(request: HttpRequest | None) -> Admission | None:
    """The first admission a registered gate finds for this visitor, or None."""
    for gate in _gates:
        admission = gate(request)
        if admission is not None:
            return admission
    return None


def admission_admits(request: HttpRequest | None, email: str) -> bool:
    admission = pending_admission(request)
    return admission is not None and admission.admits(email)


# A claim uses the visitor's admission up for the account being created (an invitation is
# single use) and says whether it could; it runs in the transaction that creates the account.
AdmissionClaim = Callable[[HttpRequest | None, Any], bool]
_claims: list[AdmissionClaim] = []


def register_admission_claim(claim: AdmissionClaim) -> None:
    if claim not in _claims:
        _claims.append(claim)


def claim_admission(request: HttpRequest | None, user: Any) -> bool:
    """Whether a registered claim used an admission up for `user` (False when none could:
    someone else used it first)."""
    return any(claim(request, user) for claim in _claims)
