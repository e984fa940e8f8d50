"""Decode captures on a Dask cluster, with the bytes one process gives.

``run(client, files, kind, out)`` plans the work with ``hwtrace units``,
submits one task per capture (``report``, ``collapsed``, the
per-binary profiles ``autofdo``, ``bolt``, ``bolt-preagg``, the
``pprof`` profile and the ``sqlite`` database in perf's schema) or per unit
(``edges``, and ``branch-profile``: the profile of ``decode
--branch-profile``) to a ``distributed.Client``, each running the hwtrace CLI on a
worker, merges the partial results as they come in (a tree of ``hwtrace
merge --partial``), and writes ``out`` with ``hwtrace merge``. The merge
does not depend on order or grouping, so the output is the same bytes as
``hwtrace report FILE...`` (or ``decode --edges`` or ``decode
--branch-profile`` of each capture added up, or ``export --to KIND
-o OUT FILE...``, whose files, one per binary, are named from ``out``) in
one process.

The captures are read by the workers from their paths: every worker must
see the same files at the same paths (a shared filesystem). Only paths and
partial results (small text) travel through the scheduler, never the
captures. Each worker needs the hwtrace CLI and this module importable.

A task that fails is retried by Dask (``retries``); one that fails again is
left out of the merge and returned in ``Result.missing`` with its file,
unit and the CLI's message, while the rest completes.
"""

import json
import os
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field

from distributed import as_completed

KINDS = ("report", "collapsed", "edges", "autofdo", "bolt", "bolt-preagg",
         "pprof", "sqlite", "branch-profile")
# The kinds whose units' partials add up to the capture's: a branch is
# counted where it was decoded, whichever unit that is.
UNIT_KINDS = ("edges", "branch-profile")
# The kinds `hwtrace export --to KIND --partial` makes: the per-binary
# profiles (one file per binary, named from the output's prefix or
# directory), pprof's (one file) and the SQLite database (one new file;
# its partial holds each capture's database, compressed).
EXPORT_KINDS = ("autofdo", "bolt", "bolt-preagg", "pprof", "sqlite")


class UnitFailed(Exception):
    """The CLI failed on one unit; the message names its file and unit."""


@dataclass
class Missing:
    """A unit whose partial result is not in the output, and why."""

    file: str
    unit: int
    error: str


@dataclass
class Result:
    """What ``run`` did: the tasks it planned and the units it left out."""

    tasks: int
    merges: int
    missing: list = field(default_factory=list)


def _check_kind(kind):
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: use one of {', '.join(KINDS)}")


def plan(files, kind, hwtrace="hwtrace"):
    """The tasks of a run, as (file, unit, cost) tuples, largest first.

    Reports merge exactly only per capture (a thread's stack runs across
    the units of its queue): one task per file, unit 0. Edges and the
    branch profile merge per unit: ``hwtrace units`` lists them (unit 0
    for a capture without units, AUX samples or branch records alone,
    decoded whole; a file it lists no line for is decoded whole too).
    """
    _check_kind(kind)
    files = [os.fspath(f) for f in files]
    if kind not in UNIT_KINDS:
        tasks = [(f, 0, os.path.getsize(f)) for f in files]
    else:
        proc = subprocess.run([hwtrace, "units", "--", *files],
                              capture_output=True, text=True, check=False)
        if proc.returncode:
            raise RuntimeError(f"hwtrace units: {proc.stderr.strip()}")
        tasks = []
        for line in proc.stdout.splitlines():
            u = json.loads(line)
            tasks.append((u["file"], u["unit"], u["cost"]))
        listed = {t[0] for t in tasks}
        tasks += [(f, 0, os.path.getsize(f)) for f in files
                  if f not in listed]
    # The costly ones first, so that they do not end the run alone.
    return sorted(tasks, key=lambda t: -t[2])


def _cli(args, what):
    proc = subprocess.run(args, capture_output=True, check=False)
    if proc.returncode:
        message = proc.stderr.decode(errors="replace").strip().splitlines()
        raise UnitFailed(f"{what}: {message[-1] if message else 'failed'}"
                         f" (exit {proc.returncode})")
    return proc.stdout


def decode_unit(hwtrace, kind, file, unit):
    """On a worker: the partial result of one unit (0: the whole file)."""
    if kind == "edges":
        args = [hwtrace, "decode", "--edges", "--partial", "-q"]
    elif kind == "branch-profile":
        args = [hwtrace, "decode", "--branch-profile", "--partial", "-q"]
    elif kind in EXPORT_KINDS:
        args = [hwtrace, "export", "--to", kind, "--partial", "-j", "1"]
    else:
        args = [hwtrace, "report", "--partial", "-j", "1"]
    if unit:
        args += ["--unit", str(unit)]
    return _cli(args + ["--", file], f"{file}, unit {unit}")


def _merge_args(kind):
    return ["merge", "--kind", kind]


@contextmanager
def _part_files(parts):
    """The partial results @parts as files (removed afterwards)."""
    with tempfile.TemporaryDirectory(prefix="hwtrace-merge-") as tmp:
        paths = []
        for i, part in enumerate(parts):
            path = os.path.join(tmp, f"{i}.part")
            with open(path, "wb") as f:
                f.write(part)
            paths.append(path)
        yield paths


def merge_parts(hwtrace, kind, parts):
    """On a worker: the partial results @parts merged into one."""
    with _part_files(parts) as paths:
        return _cli([hwtrace, *_merge_args(kind), "--partial", "--", *paths],
                    f"merging {len(parts)} partial results")


def _write_out(hwtrace, kind, parts, out, options):
    with _part_files(parts) as paths:
        _cli([hwtrace, *_merge_args(kind), *options, "-o", os.fspath(out),
              "--", *paths], f"writing {out}")


def run(client, files, kind, out, *, hwtrace="hwtrace", fanin=4,
        retries=1, top=0, weight="insns", on_progress=None):
    """Decodes @files on @client's cluster into @out (a path on this host).

    @kind: "report" (the table, ``--top`` @top, 0 for all), "collapsed"
    (folded stacks by @weight), "edges", "branch-profile" (the lines of
    ``decode --branch-profile``, each capture's added up), or a per-binary profile
    ("autofdo", "bolt", "bolt-preagg": @out is then the prefix or
    directory of its files, as ``hwtrace export -o``), "pprof" (the
    compressed profile.proto) or "sqlite" (the database in perf's schema,
    @out a file that does not exist yet). @fanin partial results are
    merged at a time as they arrive. @on_progress(done, total) is called
    here after each unit. Returns a Result; its ``missing`` lists the
    units that failed twice (the output holds all the others). Raises
    RuntimeError when nothing could be decoded.
    """
    _check_kind(kind)
    if fanin < 2:
        raise ValueError("fanin: merge at least 2 parts at a time")
    tasks = plan(files, kind, hwtrace)
    units = {}
    for file, unit, _ in tasks:
        fut = client.submit(decode_unit, hwtrace, kind, file, unit,
                            retries=retries, pure=False)
        units[fut] = (file, unit)
    result = Result(tasks=len(tasks), merges=0)
    ready = []
    done = 0
    stream = as_completed(list(units))
    for fut in stream:
        if fut in units:
            done += 1
            if fut.status == "error":
                file, unit = units[fut]
                result.missing.append(Missing(file, unit, str(fut.exception())))
                fut = None
            if on_progress:
                on_progress(done, len(tasks))
        elif fut.status == "error":
            raise RuntimeError(f"a merge failed: {fut.exception()}")
        if fut is not None:
            ready.append(fut)
        # With nothing else to wait for, the last parts (at most @fanin)
        # are merged here, into the output, without one more merge on the
        # cluster before it.
        if len(ready) >= fanin and stream.count():
            group, ready = ready[:fanin], ready[fanin:]
            stream.add(client.submit(merge_parts, hwtrace, kind, group,
                                     retries=retries, pure=False))
            result.merges += 1
    if not ready:
        raise RuntimeError("no unit was decoded: " + "; ".join(
            m.error for m in result.missing))
    options = []
    if kind == "report":
        options = ["--top", str(top)]
    elif kind == "collapsed":
        options = ["--weight", weight]
    _write_out(hwtrace, kind, client.gather(ready), out, options)
    return result


def _parse_args(argv):
    import argparse
    parser = argparse.ArgumentParser(
        prog="hwtrace cluster",
        description="Decode captures on a Dask cluster (docs/scale-out.md).")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="the scheduler of a running cluster")
    where.add_argument("--local", metavar="N", type=int,
                       help="start a cluster of N workers on this host")
    parser.add_argument("--to", required=True, choices=KINDS,
                        help="what to write")
    parser.add_argument("-o", "--output", required=True, metavar="OUT")
    parser.add_argument("--top", type=int, default=25, metavar="N",
                        help="report: the N first functions (0: all)")
    parser.add_argument("--weight", choices=("insns", "time", "calls"),
                        default="insns", help="collapsed: what a stack counts")
    parser.add_argument("--fanin", type=int, default=4, metavar="N",
                        help="partial results merged at a time")
    parser.add_argument("--hwtrace", default=os.environ.get("HWTRACE_CLI",
                                                            "hwtrace"),
                        help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args(argv)
    if args.local is not None and args.local < 1:
        parser.error("--local N: at least one worker")
    if args.fanin < 2:
        parser.error("--fanin N: at least 2")
    return args


def _join_children():
    """Waits for the local cluster's processes to end (close() may return
    before they are gone), so that none outlives the command."""
    import multiprocessing
    for child in multiprocessing.active_children():
        child.join(timeout=10)
        if child.is_alive():
            child.kill()
            child.join()
    # The tracker of the workers' semaphores ends by itself only after
    # this process: end it now (Python's own way of stopping it).
    from multiprocessing import resource_tracker
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)
    if stop:
        stop()


def main(argv=None):
    """`hwtrace cluster`: exit 0 done, 1 failed or units missing, 2 usage."""
    import sys
    args = _parse_args(argv)
    from distributed import Client, LocalCluster
    cluster = None
    try:
        if args.local is not None:
            cluster = LocalCluster(n_workers=args.local, threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(args.scheduler, timeout=60)
        with client:
            res = run(client, args.files, args.to, args.output,
                      hwtrace=args.hwtrace, fanin=args.fanin, top=args.top,
                      weight=args.weight)
    except (RuntimeError, UnitFailed, OSError) as e:
        print(f"hwtrace cluster: {e}", file=sys.stderr)
        return 1
    finally:
        if cluster is not None:
            cluster.close()
            _join_children()
    for m in res.missing:
        print(f"hwtrace cluster: missing {m.file}, unit {m.unit}: {m.error}",
              file=sys.stderr)
    print(f"hwtrace cluster: {res.tasks - len(res.missing)} of {res.tasks} "
          f"units merged ({res.merges} merges on the cluster) into "
          f"{args.output}", file=sys.stderr)
    return 1 if res.missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
