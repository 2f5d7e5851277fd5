"""Runs a study's rows on a Dask cluster (docs/python.md).

    python3 -m roverlab.study STUDY.json [--scheduler ADDRESS] [--workers N]
                                         [--out RESULTS.csv] [--json]

Without ``--scheduler`` it starts a local cluster of N worker processes (one
thread each; N = the machine's cores by default); with it, it uses the
cluster whose scheduler listens at ADDRESS (``tcp://HOST:8786``). A task
runs a chunk of consecutive grid rows (or, in a threshold study, of
combinations' searches): about 8 chunks per worker, at most 32 rows each,
so the scheduler's cost per task is shared by its rows. A task carries the
study's document and folder (as one shared task the chunks depend on) and
its runs; the worker reads the study itself, so a study naming its
scenario by file needs that folder at the same path on every worker (one
machine, or a shared file system).

Every task has a fixed key, so when a worker dies the scheduler runs again
the tasks it was running or whose results it held, and each row is delivered
once. The output is what ``roverlab study`` writes for the same study, in
the grid's order: a CSV (``--out``, or the standard output) with the same
header and fields, or with ``--json`` the ``{"columns", "rows"}`` document
(with ``"threshold_columns"`` and ``"thresholds"`` for a threshold study,
whose ``--out`` holds the answers and RESULTS.runs.csv every run). Progress
goes to the standard error. Exit status: 0 done; 1 refused study or options;
2 a task failed (the other rows are written) or another error; 130
interrupted (nothing is written).
"""

import argparse
import functools
import hashlib
import json
import os
import signal
import sys
import time

from . import ScenarioError, Study, csv_field


def _study_document(text, folder):
    """The study as a task's result: what the row tasks depend on."""
    return text, folder


@functools.lru_cache(maxsize=4)
def _study(text, folder):
    return Study(text, folder)


def _run_rows(document, runs):
    study = _study(*document)
    return [study.run_row(run) for run in runs]


def _searches(document, runs):
    study = _study(*document)
    out = []
    for run in runs:
        rows = []
        result = study.search(run, rows)
        out.append({"result": result, "rows": rows})
    return out


def _chunks(count, workers):
    """Index ranges of the tasks: about 8 per worker, at most 32 rows each, so
    that the scheduler's cost per task is shared by the rows of a chunk while a
    lost worker loses little."""
    size = max(1, min(32, count // max(1, 8 * workers)))
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


def _row_key(columns, values_count, row):
    """The CLI's key of a row (its values' CSV fields, then the repeat): the order of its runs."""
    fields = ",".join(csv_field(row[c]) for c in columns[:values_count])
    return f"{fields}|{row.get('repeat', 0)}"


def run_study(study, client, progress=None):
    """Runs every row (or search) of ``study`` on a ``distributed.Client``.

    Returns the document ``roverlab study --json`` prints: ``columns`` and
    ``rows`` (in the grid's order; for a threshold study every run, in the
    order of their values), plus ``threshold_columns`` and ``thresholds`` (in
    the grid's order) for a threshold study, and ``failed``: the grid indices
    whose task failed (KilledWorker after too many worker deaths, ...), with
    their errors. ``progress(done, total)`` is called after each task.
    """
    from distributed import as_completed

    grid = study.grid()
    digest = hashlib.sha256(f"{study.folder}\0{study.document}".encode()).hexdigest()[:16]
    document = client.submit(_study_document, study.document, study.folder,
                             key=f"roverlab-study-{digest}")
    kind, task = ("search", _searches) if study.is_threshold else ("row", _run_rows)
    workers = max(1, sum(client.nthreads().values()))
    chunks = _chunks(len(grid), workers)
    futures = {client.submit(task, document, [grid[i] for i in chunk],
                             key=f"roverlab-{kind}-{digest}-{chunk.start}-{chunk.stop}"): chunk
               for chunk in chunks}
    results, failed = [None] * len(grid), {}
    done = 0
    for future in as_completed(futures):
        chunk = futures[future]
        try:
            for index, result in zip(chunk, future.result()):
                results[index] = result
        except Exception as error:  # noqa: BLE001 (a task's error is reported, not raised)
            for index in chunk:
                failed[index] = f"{type(error).__name__}: {error}"
        future.release()
        done += len(chunk)
        if progress:
            progress(done, len(grid))
    out = {"columns": study.columns}
    if study.is_threshold:
        runs = {}
        values_count = len(grid[0]["values"]) + 1 if grid else 0
        for r in results:
            for row in r["rows"] if r else []:
                runs[_row_key(study.columns, values_count, row)] = row
        out["rows"] = [runs[k] for k in sorted(runs)]
        out["threshold_columns"] = study.threshold_columns
        out["thresholds"] = [r["result"] for r in results if r]
    else:
        out["rows"] = [r for r in results if r]
    out["failed"] = [{"index": i, "run": grid[i], "error": e} for i, e in sorted(failed.items())]
    return out


def csv_text(columns, rows):
    """The CSV ``roverlab study`` writes: the header, then one line per row."""
    lines = [",".join(columns)]
    lines += [",".join(csv_field(row.get(c)) for c in columns) for row in rows]
    return "\n".join(lines) + "\n"


def _runs_file(out):
    return (out[:-4] if out.endswith(".csv") else out) + ".runs.csv"


class _Progress:
    """Progress on the standard error: on a terminal a line redrawn each second, else each 10 s."""

    def __init__(self):
        self.tty = sys.stderr.isatty()
        self.start = self.last = time.monotonic()

    def __call__(self, done, total):
        now = time.monotonic()
        if now - self.last < (1 if self.tty else 10) and done < total:
            return
        self.last = now
        elapsed = now - self.start
        left = f", ~{elapsed * (total - done) / done:.0f} s left" if 0 < done < total else ""
        end = "" if self.tty and done < total else "\n"
        print(f"{chr(13) if self.tty else ''}roverlab.study: {done} of {total} tasks, "
              f"{elapsed:.0f} s elapsed{left}", end=end, file=sys.stderr, flush=True)


def _local_cluster(workers):
    """A LocalCluster of `workers` processes, one thread each, started with Ctrl-C ignored.

    The worker processes keep ignoring it (an ignored signal stays ignored in a
    child), so Ctrl-C reaches only this process, which then shuts them down.
    """
    from distributed import LocalCluster

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            dashboard_address=None)
    finally:
        signal.signal(signal.SIGINT, previous)


def _write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m roverlab.study",
        description="Runs a study's rows on a Dask cluster (a local one by default).")
    parser.add_argument("study", help="the study document (JSON)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="a running Dask scheduler, e.g. tcp://HOST:8786")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="worker processes of the local cluster (default: the cores)")
    parser.add_argument("--out", metavar="RESULTS.csv", help="write the CSV here")
    parser.add_argument("--json", action="store_true",
                        help="print the results as JSON {columns, rows, ...}")
    args = parser.parse_args(argv)
    if args.scheduler and args.workers is not None:
        parser.error("--workers sizes the local cluster; a --scheduler's cluster has its own")
    if args.workers is not None and not 1 <= args.workers <= 1024:
        parser.error("--workers must be a whole number in [1, 1024]")
    try:
        study = Study(args.study)
    except ScenarioError as refused:
        print(json.dumps({"ok": False, "issues": refused.issues}, indent=2))
        return 1

    from distributed import Client

    progress = _Progress()
    try:
        if args.scheduler:
            with Client(args.scheduler) as client:
                results = run_study(study, client, progress)
        else:
            workers = args.workers or os.cpu_count() or 1
            with _local_cluster(workers) as cluster, Client(cluster) as client:
                results = run_study(study, client, progress)
    except KeyboardInterrupt:
        print("\nroverlab.study: interrupted; nothing written", file=sys.stderr)
        return 130

    answers = (results["threshold_columns"], results["thresholds"]) if study.is_threshold \
        else (results["columns"], results["rows"])
    if args.out:
        _write(args.out, csv_text(*answers))
        if study.is_threshold:
            _write(_runs_file(args.out), csv_text(results["columns"], results["rows"]))
    failed = results.pop("failed")
    if args.json:
        print(json.dumps(results))
    elif not args.out:
        sys.stdout.write(csv_text(*answers))
    for f in failed:
        print(f"roverlab.study: task {f['index']} ({json.dumps(f['run'])}) failed: {f['error']}",
              file=sys.stderr)
    runs = len(results["rows"])
    print(f"roverlab.study: {runs} runs" + (f"; results in {args.out}" if args.out else ""),
          file=sys.stderr)
    return 2 if failed else 0


if __name__ == "__main__":
    # Run through the module's own name, so tasks refer to roverlab.study, not __main__.
    from roverlab import study as _module

    sys.exit(_module.main())
