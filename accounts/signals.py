"""Signals accounts sends for other apps (which it does not import) to act on."""

from django.dispatch import Signal

# Sent with `user` when a verified identity-provider sign-in takes over an account whose
# address was never verified: whoever registered it may not be the address's owner, so apps
# drop what that account was given (teams: its memberships).
unverified_account_reclaimed = Signal()
