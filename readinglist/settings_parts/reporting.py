"""Error reporting to Sentry (or any server that speaks its protocol, such as GlitchTip), on
only when SENTRY_DSN is set. Readers' personal data (addresses, cookies, request bodies) is not
sent: an error report says where the code failed, not who was reading."""

from readinglist import __version__


def start_error_reporting(dsn: str, *, environment: str, traces_sample_rate: float) -> bool:
    """Start the Sentry client when a DSN is configured; True when it was started."""
    if not dsn:
        return False
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=f"readinglist@{__version__}",
        # Where the code failed, not who was reading: no user, cookies, bodies or query strings.
        data_collection={
            "user_info": False,
            "cookies": {"mode": "off"},
            "http_bodies": [],
            "url_query_params": {"mode": "off"},
        },
        traces_sample_rate=traces_sample_rate,
    )
    return True
