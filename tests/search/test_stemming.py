"""Stemming is shared by a server's threads: each must get the stem a lone stemmer gives."""

import sys
import threading

import snowballstemmer

from search.described import stem


def test_threads_stemming_at_once_get_the_stems_a_lone_stemmer_gives() -> None:
    # Switch threads often, as a busy server does, so that stemming calls interleave.
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    words = [[f"{stemmed}{n}ing" for n in range(3000)] for stemmed in ("schedul", "batch", "rout")]
    found: dict[str, str] = {}
    failures: list[BaseException] = []

    def stem_all(batch: list[str]) -> None:
        try:
            found.update({word: stem(word) for word in batch})
        except Exception as error:  # an IndexError from a stemmer another thread is using
            failures.append(error)

    stem.cache_clear()
    try:
        threads = [threading.Thread(target=stem_all, args=(batch,)) for batch in words * 2]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    alone = snowballstemmer.stemmer("english")
    assert failures == []
    assert found == {word: alone.stemWord(word) for batch in words for word in batch}
