"""A proposal's answers, declared once.

The model takes its length limits (and the check constraints that enforce them) from here, the
form its questions, help, required answers and widgets, the services the answers they accept and
what accepting copies onto the new source, and the admin its fieldsets.
"""

from dataclasses import dataclass

from catalog.models import Tier

TITLE_MAX = 300
URL_MAX = 2000
SHORT_TEXT_MAX = 2000
LONG_TEXT_MAX = 10_000
AUTHORS_MAX = 300

# Tiers a reader may propose into; "Start here" is curated by maintainers alone.
PROPOSABLE_TIERS = frozenset({Tier.CORE, Tier.FRONTIER, Tier.FURTHER_READING})

# Tiers whose sources must be primary sources, and so answer the contribution rules' questions.
PRIMARY_TIERS = frozenset({Tier.CORE, Tier.FRONTIER})
FURTHER_TIERS = frozenset({Tier.FURTHER_READING})

TIER_GROUP = "Tier"
SOURCE_GROUP = "The source"
DETAILS_GROUP = "Authors, year and venue"
QUESTIONS_GROUP = "For Core and Frontier: the contribution rules"
WORTH_GROUP = "For Further reading"
PLACE_GROUP = "Where it fits"
REPLACES_GROUP = "Replaces a source"
CLAIM_GROUP = "Performance claim"
DISCLOSURE_GROUP = "Conflict of interest"
GROUP_NOTES = {
    CLAIM_GROUP: "If the source makes a performance claim you want the catalog to repeat, give "
    "all five parts. A claim missing any of them is left out, so fill in all five or none.",
}
# Which tiers a group is asked for; the page shows it only once one of them is chosen.
GROUP_TIERS: dict[str, frozenset[str]] = {
    QUESTIONS_GROUP: PRIMARY_TIERS,
    WORTH_GROUP: FURTHER_TIERS,
}
# A short explanation beside each tier's choice.
TIER_EXPLANATIONS: dict[str, str] = {
    Tier.CORE: "A primary source, placed in reading order.",
    Tier.FRONTIER: "Fast-moving work, dated, kept apart until its evidence settles.",
    Tier.FURTHER_READING: "A good article, talk or course that is not a primary source.",
}


@dataclass(frozen=True)
class Answer:
    name: str
    label: str
    group: str
    help_text: str = ""
    # Tiers whose proposals must give this answer; empty means it is always optional.
    required_for: frozenset[str] = frozenset()
    required_message: str = ""
    max_length: int | None = None
    # Rows of the textarea that asks for it; None keeps the field's own widget.
    rows: int | None = None
    # The Source field that accepting the proposal fills from this answer, if any.
    source_field: str = ""

    @property
    def always_required(self) -> bool:
        return self.required_for >= PROPOSABLE_TIERS


def _claim(name: str, label: str) -> Answer:
    return Answer(name, label, CLAIM_GROUP, max_length=SHORT_TEXT_MAX, rows=2)


ANSWERS: tuple[Answer, ...] = (
    Answer(
        "tier",
        "Tier",
        TIER_GROUP,
        help_text="Choose first: what the form asks depends on it.",
        required_for=PROPOSABLE_TIERS,
        required_message="Choose the tier the source belongs in.",
        source_field="tier",
    ),
    Answer(
        "url",
        "URL",
        SOURCE_GROUP,
        help_text="The source itself, not a post about it. An arXiv id or DOI fills the form.",
        required_for=PROPOSABLE_TIERS,
        max_length=URL_MAX,
        source_field="url",
    ),
    Answer(
        "title",
        "Title",
        SOURCE_GROUP,
        help_text="As the source itself titles it.",
        required_for=PROPOSABLE_TIERS,
        required_message="Give the title of the source.",
        max_length=TITLE_MAX,
        source_field="title",
    ),
    Answer("kind", "Kind", SOURCE_GROUP, required_for=PROPOSABLE_TIERS, source_field="kind"),
    Answer(
        "authors",
        "Authors",
        DETAILS_GROUP,
        help_text="As the source lists them; “et al.” is fine.",
        max_length=AUTHORS_MAX,
        source_field="authors",
    ),
    Answer("year", "Year", DETAILS_GROUP, source_field="year"),
    Answer(
        "venue",
        "Venue or publisher",
        DETAILS_GROUP,
        max_length=AUTHORS_MAX,
        source_field="venue",
    ),
    Answer(
        "topics",
        "Topics",
        SOURCE_GROUP,
        help_text="The topics a reader would look under.",
        required_for=PROPOSABLE_TIERS,
        required_message="Pick at least one topic.",
        source_field="topics",
    ),
    Answer(
        "mechanism",
        "What mechanism or idea it teaches",
        QUESTIONS_GROUP,
        help_text="What a reader understands after reading it.",
        required_for=PRIMARY_TIERS,
        required_message="Say what mechanism or idea it teaches.",
        max_length=SHORT_TEXT_MAX,
        rows=2,
        source_field="summary",
    ),
    Answer(
        "basis",
        "Why it is a primary source",
        QUESTIONS_GROUP,
        help_text="Commentary, summaries and vendor marketing are not primary sources.",
        required_for=PRIMARY_TIERS,
        required_message="Say which kind of primary source this is.",
        source_field="basis",
    ),
    Answer(
        "basis_explanation",
        "How it meets that bar",
        QUESTIONS_GROUP,
        help_text="For example: it introduced the technique, or its authors built what it "
        "measures.",
        required_for=PRIMARY_TIERS,
        required_message="Explain how it meets the primary-source bar.",
        max_length=SHORT_TEXT_MAX,
        rows=2,
    ),
    Answer(
        "worth_reading",
        "Why it is worth a reader's time",
        WORTH_GROUP,
        help_text="One or two sentences: what a reader gets from it that the primary sources "
        "do not give as well.",
        required_for=FURTHER_TIERS,
        required_message="Say why it is worth a reader's time.",
        max_length=SHORT_TEXT_MAX,
        rows=2,
    ),
    Answer(
        "after_source",
        "Belongs after",
        PLACE_GROUP,
        help_text="The source to read first; optional for Further reading.",
        required_for=PRIMARY_TIERS,
        required_message="Say which source a reader should read before this one.",
    ),
    Answer(
        "replaces",
        "Which existing source it replaces",
        REPLACES_GROUP,
        help_text="Type its title, only when it supersedes a source in the catalog.",
    ),
    _claim("hardware_software", "Hardware and software versions"),
    _claim("workload", "Workload shapes or request distribution"),
    _claim("precision_algorithm", "Precision and algorithm"),
    _claim("baseline", "Baseline compared against"),
    _claim("correctness_method", "How correctness was checked"),
    Answer(
        "conflict_of_interest",
        "Conflict of interest",
        DISCLOSURE_GROUP,
        help_text="Say if you wrote it, work for its publisher or are paid to promote it. "
        "Leave empty if none.",
        max_length=SHORT_TEXT_MAX,
        rows=2,
    ),
)

BY_NAME: dict[str, Answer] = {answer.name: answer for answer in ANSWERS}
ANSWER_NAMES: list[str] = [answer.name for answer in ANSWERS]
# A claim missing any one of these is omitted, so the five are stored all together or not at all.
CLAIM_FIELDS: list[str] = [answer.name for answer in ANSWERS if answer.group == CLAIM_GROUP]
# What accepting copies onto the new Source: {source field: proposal field}.
COPIED_TO_SOURCE: dict[str, str] = {
    answer.source_field: answer.name for answer in ANSWERS if answer.source_field
}


def max_length(name: str) -> int:
    limit = BY_NAME[name].max_length
    if limit is None:
        raise KeyError(f"{name} has no length limit")
    return limit


def groups() -> list[tuple[str, list[str]]]:
    """The answers by group, in the order they are asked."""
    ordered: dict[str, list[str]] = {}
    for answer in ANSWERS:
        ordered.setdefault(answer.group, []).append(answer.name)
    return list(ordered.items())


def missing_for_tier(tier_slug: str, values: dict) -> dict[str, str]:
    """The answers this tier requires that are empty: {answer: the message a reader sees}."""
    return {
        answer.name: answer.required_message or "This tier needs this answer."
        for answer in ANSWERS
        if tier_slug in answer.required_for and values.get(answer.name) in (None, "", [])
    }


def asked_for_tier(answer: Answer, tier_slug: str) -> bool:
    """Whether the page asks this answer of a proposal in this tier."""
    tiers = GROUP_TIERS.get(answer.group)
    return tiers is None or tier_slug in tiers
