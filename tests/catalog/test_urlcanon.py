import pytest

from catalog.urlcanon import InvalidURL, canonical_url


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("https://arxiv.org/abs/2205.14135", "https://arxiv.org/abs/2205.14135"),
        ("https://arxiv.org/abs/2205.14135v3", "https://arxiv.org/abs/2205.14135"),
        ("http://arxiv.org/pdf/2205.14135v1.pdf", "https://arxiv.org/abs/2205.14135"),
        ("https://www.arxiv.org/html/2407.07000v2", "https://arxiv.org/abs/2407.07000"),
        ("https://arxiv.org/pdf/2205.14135", "https://arxiv.org/abs/2205.14135"),
        ("HTTPS://GitHub.com/vllm-project/vllm/", "https://github.com/vllm-project/vllm"),
        ("https://example.org:443/a/b/", "https://example.org/a/b"),
        ("http://example.org:8080/x", "http://example.org:8080/x"),
        ("https://example.org/?q=1#frag", "https://example.org?q=1"),
        ("  https://example.org/x  ", "https://example.org/x"),
        ("", ""),
    ],
)
def test_canonical_forms(raw: str, canonical: str) -> None:
    assert canonical_url(raw) == canonical


@pytest.mark.parametrize(
    "raw", ["javascript:alert(1)", "ftp://example.org/x", "example.org", "https://x.org/a b"]
)
def test_rejects_non_http_and_spaces(raw: str) -> None:
    with pytest.raises(InvalidURL):
        canonical_url(raw)
