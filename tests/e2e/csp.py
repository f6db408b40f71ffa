"""Report every Content-Security-Policy violation a page causes, as console errors.

The listener is installed by Playwright (page.add_init_script), outside the page's own code, so
the app itself still has no inline script.
"""

from playwright.sync_api import Page

REPORTER = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


def watch_csp(page: Page) -> list[str]:
    """Start collecting violations on `page`; returns the list they are appended to."""
    violations = []
    page.add_init_script(REPORTER)
    page.on(
        "console",
        lambda message: (
            violations.append(message.text)
            if "Content Security Policy" in message.text or "CSP violation" in message.text
            else None
        ),
    )
    return violations
