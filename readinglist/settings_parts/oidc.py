"""Sign-in with the organisation's OpenID Connect providers, read from the environment:
OIDC_PROVIDERS lists their ids, and each id's OIDC_<ID>_NAME, _ISSUER, _CLIENT_ID and _SECRET
describe it."""

from typing import Any
from urllib.parse import urlsplit

import environ


def _oidc_app(env: environ.Env, provider_id: str) -> dict[str, Any]:
    prefix = f"OIDC_{provider_id.upper().replace('-', '_')}_"
    return {
        "provider_id": provider_id,
        "name": env.str(f"{prefix}NAME", default=provider_id),
        "client_id": env.str(f"{prefix}CLIENT_ID"),
        "secret": env.str(f"{prefix}SECRET", default=""),
        "settings": {"server_url": env.str(f"{prefix}ISSUER")},
    }


def socialaccount_providers(env: environ.Env) -> dict[str, Any]:
    """allauth's SOCIALACCOUNT_PROVIDERS for the configured providers."""
    apps = [_oidc_app(env, provider_id) for provider_id in env.list("OIDC_PROVIDERS", default=[])]
    return {"openid_connect": {"OAUTH_PKCE_ENABLED": True, "APPS": apps}}


def provider_origins(providers: dict[str, Any]) -> list[str]:
    """The scheme and host of each provider's issuer: sign-in redirects there, so the
    Content-Security-Policy's form-action allows them."""
    origins = []
    for app in providers["openid_connect"]["APPS"]:
        parts = urlsplit(app["settings"]["server_url"])
        origins.append(f"{parts.scheme}://{parts.netloc}")
    return origins
