"""Shared answers for proposal tests: a complete, valid proposal a reader might send."""

from typing import Any, TypedDict

from accounts.models import User
from catalog.models import Source, Topic
from proposals.models import Proposal
from proposals.services import submit_proposal

CLAIM = {
    "hardware_software": "H100 SXM, CUDA 12.4, PyTorch 2.3",
    "workload": "Llama 2 70B, 2k prompt, 256 output tokens, batch 32",
    "precision_algorithm": "FP8 weights, FP16 accumulation, paged attention",
    "baseline": "vLLM 0.4 with FP16 weights",
    "correctness_method": "Perplexity on WikiText within 0.1 of baseline",
}


class ProposalCatalog(TypedDict):
    """What proposing reads of a catalog (a SmallCatalog has it): the source to follow, topics."""

    flash: Source
    topics: list[Topic]


def form_data(catalog: ProposalCatalog, **changes: object) -> dict[str, Any]:
    data: dict[str, Any] = {
        "url": "https://example.org/papers/new-kernel",
        "title": "A new fused attention kernel",
        "kind": "paper",
        "topics": [catalog["topics"][1].pk],
        "tier": catalog["flash"].tier.slug,
        "mechanism": "How to fuse softmax into the matmul loop.",
        "basis": "mechanism-paper",
        "basis_explanation": "It is the paper that introduced the technique.",
        "after_source": catalog["flash"].title,
        "replaces": "",
        "conflict_of_interest": "",
    }
    data.update({name: "" for name in CLAIM})
    data.update(changes)
    return data


def make_proposal(catalog: ProposalCatalog, proposer: User, **changes: Any) -> Proposal:
    answers: dict[str, Any] = {
        "url": "https://example.org/papers/new-kernel",
        "title": "A new fused attention kernel",
        "kind": "paper",
        "tier": catalog["flash"].tier,
        "mechanism": "How to fuse softmax into the matmul loop.",
        "basis": "mechanism-paper",
        "basis_explanation": "It is the paper that introduced the technique.",
        "after_source": catalog["flash"],
        "replaces": None,
        "conflict_of_interest": "",
        **{name: "" for name in CLAIM},
    }
    topics = changes.pop("topics", [catalog["topics"][1]])
    answers.update(changes)
    return submit_proposal(proposer=proposer, topics=topics, **answers)


def pending_count() -> int:
    return Proposal.objects.pending().count()
