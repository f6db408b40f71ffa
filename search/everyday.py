"""Everyday words for what the field names otherwise: a newcomer's "graphics card", "chatbot"
or "picture maker" for the GPU, the language model or the diffusion model the catalog's sources
describe.

A need put in a practitioner's or a newcomer's words shares no word with the sources that
answer it, so neither the word match nor the latent index (which only reorders sources that
share a word) can find them. Each row reads one way: a query with one of the everyday forms
also searches the field's words, as a form of the words it spelled (equivalents.alternatives(),
at FORM_WEIGHT), never the other way round: a query in the field's own words is unchanged.

The rows are general vocabulary, written from how the catalog's sources describe their subjects
(summaries, topics) against how people outside the field talk about the same things; not from any
query. Everyday forms the catalog itself uses often are left out: they would widen every search.
"""

# (everyday forms, the field's forms). A form of several words counts when the query has its
# words side by side, in any order.
EVERYDAY: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    # Hardware.
    (
        ("graphics card", "video card", "graphics processor", "graphics chip", "card", "cards"),
        ("gpu",),
    ),
    (("video ram", "vram", "graphics memory", "card memory"), ("gpu memory",)),
    # Models and what they make.
    (
        ("chatbot", "chatbots", "chat bot", "chat assistant", "assistant", "assistants", "bot"),
        ("llm", "chat"),
    ),
    (("net", "nets", "neural net", "brain"), ("neural network", "model")),
    (("picture", "pictures", "photo", "photos", "drawing", "drawings"), ("image",)),
    (
        ("picture maker", "image maker", "art generator", "image generator"),
        ("diffusion", "text to image"),
    ),
    (("static", "noise", "denoise", "denoising"), ("diffusion",)),
    (("few passes", "few steps", "fewer passes"), ("few step", "distillation")),
    (("spoken", "voice", "talking", "recording", "recordings"), ("speech", "audio")),
    (("captions", "subtitles", "transcript", "dictation"), ("transcription", "speech recognition")),
    (("see images", "look at pictures"), ("vision language model", "multimodal")),
    (("outline drawing", "stick figure", "sketch", "pose"), ("conditioning", "control")),
    (("cut out", "outline objects", "select objects"), ("segmentation", "mask")),
    (("fingerprint", "fingerprints"), ("embedding",)),
    (("cut shorter", "shorter vectors"), ("truncate", "dimensions")),
    # Making models smaller.
    (("squeeze", "shrink", "compress", "trim", "smaller numbers"), ("compression", "quantization")),
    (("tiny integers", "small integers", "fewer bits", "rounding"), ("quantization", "low bit")),
    (("thin out", "remove weights", "drop weights"), ("pruning", "sparsity")),
    (("after training", "once trained", "training done"), ("post training",)),
    # Serving.
    (
        (
            "remembered conversation",
            "conversation history",
            "chat history",
            "previous turns",
            "conversation turns",
            "conversation state",
        ),
        ("kv cache",),
    ),
    (("slow start", "first word", "waiting before"), ("time to first token",)),
    (("boot", "wake", "warm up", "idle start"), ("cold start",)),
    (("reading stage", "prompt reading", "reading prompt"), ("prefill",)),
    (("writing stage", "writing answer", "generating answer"), ("decode",)),
    (("different boxes", "separate machines", "different machines"), ("disaggregated",)),
    (
        (
            "hop in",
            "join mid",
        ),
        ("continuous batching",),
    ),
    (
        ("boilerplate", "preamble", "same beginning", "shared beginning", "same prompt"),
        ("prefix caching", "prompt caching"),
    ),
    (("machine readable", "form filling"), ("structured output", "json")),
    (("starve", "starved", "hog"), ("fairness", "scheduling")),
    (
        (
            "specialist",
            "specialists",
        ),
        ("mixture of experts", "expert"),
    ),
    (("swamped", "overloaded", "sit idle", "uneven"), ("load balancing", "imbalance")),
    (("helper model", "guesses", "approves"), ("speculative decoding", "draft model")),
    # Kernels and performance.
    (
        (
            "milliseconds",
            "where time goes",
            "slow parts",
        ),
        ("profiler", "profiling"),
    ),
    (
        (
            "peek underneath",
            "look underneath",
            "disassemble",
        ),
        ("binary utilities", "sass", "disassembler"),
    ),
    (
        ("past end", "out of bounds", "memory errors", "array overflow"),
        ("memory checking", "sanitizer"),
    ),
    (
        ("starved for data", "waiting on memory", "waiting for data"),
        ("memory bound", "compute bound"),
    ),
    (("running totals", "cumulative sum", "running sum"), ("prefix sum", "scan")),
    (("summing", "total", "add up", "adding up"), ("reduction", "sum")),
    (
        ("summing gradients", "averaging gradients", "share gradients"),
        ("all reduce", "collective communication"),
    ),
    (("swap rows", "rows cols", "rows columns", "flip matrix"), ("transpose",)),
    (("share out", "split among", "spread across", "divide among"), ("parallelism", "sharding")),
    # Positions, context and attention.
    (("twist", "angles", "rotate", "rotation"), ("rotary",)),
    (("word order", "token position"), ("position embedding",)),
    (("huge documents", "long documents", "whole books"), ("long context",)),
    (("circle",), ("ring",)),
    # Evaluation.
    (("quiz", "quizzes", "exam", "exams", "test questions"), ("benchmark", "evaluation")),
    (("league table", "leaderboard", "scorecard", "grading"), ("benchmark",)),
    (("routines", "codebases", "programs"), ("code",)),
    (("fix bugs", "real bugs"), ("software engineering", "github issues")),
    # Operations.
    (
        ("pager", "on call", "outages", "keeping alive", "uptime"),
        ("reliability", "site reliability engineering"),
    ),
    (
        (
            "app bundles",
            "containers",
        ),
        ("container orchestration", "cluster"),
    ),
    (("record store", "database", "databases"), ("data systems", "storage")),
    (("copies data", "keep copies"), ("replication",)),
    (("reaches agreement", "agree", "agreement"), ("consensus",)),
    (("lexicon", "dictionary", "word list"), ("glossary",)),
    (("newcomers", "beginners", "novice"), ("introduction", "glossary")),
)
