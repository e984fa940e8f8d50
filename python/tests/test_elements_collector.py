"""elements() makes its objects a few hundred at a time, each list freed
before the next is made, so that the cyclic collector, which would walk
every element of a large batch, does not run while a loop that keeps no
element reads them (the Speed section of docs/python.md)."""
import gc

import hwtrace


def collections_while(run):
    """How many collections of the cyclic collector ran during @run."""
    ran = []

    def on_gc(phase, info):
        if phase == "stop":
            ran.append(info["generation"])

    gc.collect()
    gc.callbacks.append(on_gc)
    try:
        result = run()
    finally:
        gc.callbacks.remove(on_gc)
    return ran, result


def count_types(cap):
    n = {}
    for e in cap.elements():
        n[e["type"]] = n.get(e["type"], 0) + 1
    return n


def test_no_collection_walks_the_elements(gap_capture, gap_listing):
    expect = {}
    for e in gap_listing[True]:
        expect[e["type"]] = expect.get(e["type"], 0) + 1
    assert sum(expect.values()) > 20000  # many lists of elements
    with hwtrace.open(gap_capture) as cap:
        ran, got = collections_while(lambda: count_types(cap))
    assert got == expect
    assert len(ran) <= 2, ran


def test_a_loop_that_keeps_them_is_collected_as_usual(gap_capture):
    # Positive control: the count above sees collections where they run.
    with hwtrace.open(gap_capture) as cap:
        ran, kept = collections_while(lambda: list(cap.elements()))
    assert len(kept) > 20000
    assert len(ran) > 10
