"""Runs a study's rows on a Dask cluster (docs/python.md).

    python3 -m roverlab.study STUDY.json [--scheduler ADDRESS] [--workers N]
                                         [--out RESULTS.csv] [--json]
                                         [--controller FILE.py:NAME]

Without ``--scheduler`` it starts a local cluster of one worker process with N
threads (N = the machine's cores by default); with it, it uses the
cluster whose scheduler listens at ADDRESS (``tcp://HOST:8786``). A task
runs a chunk of grid rows (or, in a threshold study, of combinations'
searches): about 32 chunks per worker, at most 16 rows each, so the
scheduler's cost per task is shared by its rows. A task carries the
study's document and folder (as one shared task the chunks depend on) and
its runs; the worker reads the study itself, so a study naming its
scenario by file needs that folder at the same path on every worker (one
machine, or a shared file system).

With ``--controller`` (or ``run_study(..., controller=)``) a Python
controller runs in every row's loop, one made per row (docs/controllers.md);
the study's parameters may set its ``control.program.params``, which its
``init(model)`` reads as ``model["params"]``.

Every task has a fixed key, so when a worker dies the scheduler runs again
the tasks it was running or whose results it held, and each row is delivered
once. The output is what ``roverlab study`` writes for the same study, in
the grid's order: a CSV (``--out``, or the standard output) with the same
header and fields, or with ``--json`` the ``{"columns", "rows"}`` document
(with ``"threshold_columns"`` and ``"thresholds"`` for a threshold study,
whose ``--out`` holds the answers and RESULTS.runs.csv every run).

With ``--out`` it keeps and resumes as ``roverlab study`` does, in the same
files: each task's rows are appended to the runs file (``--out``, or a
threshold study's RESULTS.runs.csv) as they arrive, so Ctrl-C or a killed
process keeps them; the same command again runs only the rows missing from
it (a threshold search replays its bisection from the kept runs), and a file
whose header is not the study's is refused. Progress goes to the standard
error. Exit status: 0 done; 1 refused study, options or --out file; 2 a task
failed (the other rows are written) or another error; 130 interrupted (the
rows that arrived are kept in the --out file).
"""

import argparse
import contextlib
import functools
import hashlib
import json
import os
import signal
import sys
import threading
import time

from . import ScenarioError, Study, csv_field
from .control import controller_factory, run_controller_row


def _study_document(text, folder):
    """The study as a task's result: what the row tasks depend on."""
    return text, folder


@functools.lru_cache(maxsize=4)
def _study(text, folder):
    return Study(text, folder)


def _in_order(row, columns):
    """The row's keys in the columns' order (the core's JSON objects sort them)."""
    return {**{c: row[c] for c in columns if c in row}, **row}


@functools.lru_cache(maxsize=4)
def _controller(pickled):
    """The controller a task carries, pickled by cloudpickle (Dask's own pickle would name a
    class defined in a file --controller loaded, which a worker process cannot import)."""
    import cloudpickle

    return cloudpickle.loads(pickled)


def _run_rows(document, runs, controller=None):
    study = _study(*document)
    controller = _controller(controller) if controller is not None else None
    return [study.run_row(run, controller) for run in runs]


def _searches(document, runs, kept, controller=None):
    """Each run's search: {"result", "rows"}, the rows those it ran; kept[k] (by key) answers
    runs[k]'s search where it can, as ``roverlab study`` answers from the rows it kept."""
    study = _study(*document)
    controller = _controller(controller) if controller is not None else None
    columns, result_columns = study.columns, study.threshold_columns
    out = []
    for run, rows in zip(runs, kept):
        if controller is None:
            found = json.loads(study._study.search(json.dumps(run), json.dumps(rows)))
        else:
            found = _controller_search(study, run, rows, controller)
        out.append({"result": _in_order(found["result"], result_columns),
                    "rows": [_in_order(row, columns) for row in found["rows"]]})
    return out


def _controller_search(study, run, kept, controller):
    """A threshold search whose runs ``controller`` drives, answered from ``kept`` where it can."""
    ran = []

    def run_row(text):
        at = json.loads(text)
        row = kept.get(_run_key(at))
        if row is None:
            row = json.loads(run_controller_row(study._study.row(text), controller))
            ran.append(row)
        return json.dumps(row)

    found = json.loads(study._study.search_with(json.dumps(run), run_row))
    found["rows"] = ran
    return found


def check_controller(study, controller):
    """Raises ScenarioError when the study cannot run as given: its base scenario carries a
    javascript program (the Node tool and the app run those), or a python one (its params) with
    no controller given to run it; TypeError when ``controller`` makes no controllers."""
    if controller is not None:
        controller_factory(controller)
    program = (json.loads(study._study.base_scenario).get("control") or {}).get("program")
    language = program.get("language") if isinstance(program, dict) else None
    path = "scenario.control.program"
    if language == "javascript":
        raise ScenarioError([{"path": path, "message": (
            "the base scenario carries a javascript controller program: node tools/roverlab.mjs "
            "study and the app's Study tab run it; this package runs Python controllers, given as "
            "objects (docs/controllers.md)")}])
    if language == "python" and controller is None:
        raise ScenarioError([{"path": path, "message": (
            "the base scenario is for a python controller: give it (run_study(..., "
            "controller=MyController), or --controller FILE.py:NAME)")}])


def load_controller(spec):
    """The object NAME of FILE.py (``FILE.py:NAME``), its module loaded under a name of its own
    and pickled by value, so that a cluster's workers (other processes) get its code too."""
    import importlib.util

    import cloudpickle

    file, sep, name = spec.rpartition(":")
    if not sep or not file.endswith(".py") or not name.isidentifier():
        raise ValueError("give FILE.py:NAME (a class, or a function making a controller)")
    module_name = "roverlab_controller_" + hashlib.sha256(os.path.abspath(file).encode()).hexdigest()[:12]
    loaded = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(loaded)
    sys.modules[module_name] = module
    loaded.loader.exec_module(module)
    cloudpickle.register_pickle_by_value(module)
    return getattr(module, name)


def _chunks(indices, workers):
    """The grid indices in tasks: about 32 per worker, at most 16 rows each, so that the
    scheduler's cost per task (about a millisecond) is shared by the rows of a chunk, while
    the last tasks leave workers idle briefly and a lost worker loses little."""
    size = max(1, min(16, len(indices) // max(1, 32 * workers)))
    return [indices[start:start + size] for start in range(0, len(indices), size)]


def _key(fields, repeat):
    """The key ``roverlab study`` finds a row by: its values' CSV fields, then the repeat.

    Values are those of the parameters, then in a threshold study the searched one's. Kept
    rows are in the order of their keys; in a threshold study that is also the order of the
    runs file and of the ``--json`` rows.
    """
    return ",".join(fields) + "|" + str(repeat)


def _run_key(run):
    """The key of a grid run (in a threshold study: of a combination to search)."""
    return _key([csv_field(v) for v in run["values"]], run["repeat"])


def _row_key(columns, values_count, row):
    """The key of a row, from its values (the first `values_count` columns) and repeat."""
    return _key([csv_field(row[c]) for c in columns[:values_count]], row.get("repeat", 0))


def _combination_key(key):
    """The key of the combination whose search ran the run of `key`: the searched value (the
    last, a number: no comma in it) dropped."""
    values, _, repeat = key.rpartition("|")
    return values.rpartition(",")[0] + "|" + repeat


def _values_count(study, grid):
    return (len(grid[0]["values"]) if grid else 0) + (1 if study.is_threshold else 0)


def run_study(study, client, progress=None, kept=None, on_rows=None, controller=None):
    """Runs every row (or search) of ``study`` on a ``distributed.Client``.

    Returns the document ``roverlab study --json`` prints: ``columns`` and
    ``rows`` (in the grid's order; for a threshold study every run, in the
    order of their keys), plus ``threshold_columns`` and ``thresholds`` (in
    the grid's order) for a threshold study, and ``failed``: the grid indices
    whose task failed (KilledWorker after too many worker deaths, ...), with
    their errors. ``progress(done, total)`` is called after each task.

    ``kept`` holds rows an earlier run gave, by key (:func:`read_kept`): a
    grid runs only the rows missing from it (``client`` may be None when none
    is), a threshold search answers from it and runs only what it lacks, as
    ``roverlab study`` does. ``on_rows(rows)`` is called with the rows run
    now (not the kept ones) as each task's arrive, before ``progress``.

    ``controller``: a class (or function) making a controller (docs/controllers.md), one per
    row: it runs in every row's loop, its ``init(model)`` given ``model["params"]`` (the
    scenario's control.program.params, which the study's parameters may set). It travels to
    the workers by pickle (cloudpickle: by value for one defined in ``__main__``).
    """
    check_controller(study, controller)
    grid = study.grid()
    columns = study.columns
    kept = kept or {}
    values_count = _values_count(study, grid)
    if study.is_threshold:
        kind, task = "search", _searches
        by_combination = {}
        for key, row in kept.items():
            by_combination.setdefault(_combination_key(key), {})[key] = row
        todo = list(range(len(grid)))
    else:
        kind, task = "row", _run_rows
        keys = [_run_key(run) for run in grid]
        todo = [i for i, key in enumerate(keys) if key not in kept]
    results, failed = [None] * len(grid), {}
    if todo:
        from distributed import as_completed

        digest = hashlib.sha256(f"{study.folder}\0{study.document}".encode()).hexdigest()[:16]
        document = client.submit(_study_document, study.document, study.folder,
                                 key=f"roverlab-study-{digest}")
        if kept:  # the tasks' work depends on the rows kept too
            digest = hashlib.sha256("\0".join([digest, *sorted(kept)]).encode()).hexdigest()[:16]
        pickled = None
        if controller is not None:  # and on the controller's code
            import cloudpickle

            pickled = cloudpickle.dumps(controller)
            made = hashlib.sha256(pickled).hexdigest()
            digest = hashlib.sha256(f"{digest}\0{made}".encode()).hexdigest()[:16]
        workers = max(1, sum(client.nthreads().values()))
        futures = {}
        for chunk in _chunks(todo, workers):
            runs = [grid[i] for i in chunk]
            args = [document, runs]
            if study.is_threshold:
                args.append([by_combination.get(_run_key(run), {}) for run in runs])
            args.append(pickled)
            key = f"roverlab-{kind}-{digest}-{chunk[0]}-{chunk[-1] + 1}"
            futures[client.submit(task, *args, key=key)] = chunk
        done = 0
        for future in as_completed(futures):
            chunk = futures[future]
            try:
                values = future.result()
            except Exception as error:  # noqa: BLE001 (a task's error is reported, not raised)
                values = None
                for index in chunk:
                    failed[index] = f"{type(error).__name__}: {error}"
            future.release()
            if values is not None:
                for index, value in zip(chunk, values):
                    results[index] = value
                rows = [row for v in values for row in (v["rows"] if study.is_threshold else [v])]
                rows = [row for row in rows if row.get("outcome") != "cancelled"]
                if on_rows and rows:
                    on_rows(rows)
            done += len(chunk)
            if progress:
                progress(done, len(todo))
    out = {"columns": columns}
    if study.is_threshold:
        runs = dict(kept)
        for r in results:
            for row in r["rows"] if r else []:
                if row.get("outcome") != "cancelled":
                    runs[_row_key(columns, values_count, row)] = row
        out["rows"] = [runs[k] for k in sorted(runs)]
        out["threshold_columns"] = study.threshold_columns
        out["thresholds"] = [r["result"] for r in results if r]
    else:
        rows = [kept.get(key) if r is None and i not in failed else r
                for i, (key, r) in enumerate(zip(keys, results))]
        out["rows"] = [r for r in rows if r]
    out["failed"] = [{"index": i, "run": grid[i], "error": e} for i, e in sorted(failed.items())]
    return out


def csv_line(columns, row):
    """A row as a line of the CSV ``roverlab study`` writes (without the line break)."""
    return ",".join(csv_field(row.get(c)) for c in columns)


def csv_text(columns, rows):
    """The CSV ``roverlab study`` writes: the header, then one line per row."""
    lines = [",".join(columns)] + [csv_line(columns, row) for row in rows]
    return "".join(line + "\n" for line in lines)


def _runs_file(out):
    return (out[:-4] if out.endswith(".csv") else out) + ".runs.csv"


class OtherResults(ValueError):
    """The file holds another study's results: its header is not this study's columns."""

    def __init__(self, path):
        super().__init__(f"{path} holds other results (its header is not this study's "
                         "columns); remove it or name another --out")
        self.path = path


def _split_csv(line):
    """The fields of a line as ``roverlab study`` writes them (text with a comma, quote or line
    break quoted, a quote doubled)."""
    if '"' not in line:
        return line.split(",")
    fields, field, quoted, i = [], [], False, 0
    while i < len(line):
        c = line[i]
        if quoted and c == '"' and i + 1 < len(line) and line[i + 1] == '"':
            field.append('"')
            i += 1
        elif c == '"':
            quoted = not quoted
        elif c == "," and not quoted:
            fields.append("".join(field))
            field = []
        else:
            field.append(c)
        i += 1
    fields.append("".join(field))
    return fields


def _not_json(name):
    raise ValueError(f"{name} is not JSON")


def _field_value(column, field):
    """A field back as ``roverlab study`` reads it: empty is None, true and false are booleans, a
    JSON number a number (an integer beyond 64 bits a float), anything else the text."""
    if field == "":
        return None
    if column in ("state_hash", "outcome", "message"):
        return field
    if field in ("true", "false"):
        return field == "true"
    try:
        value = json.loads(field, parse_constant=_not_json)
    except (ValueError, RecursionError):
        return field
    if type(value) is int and not -2**63 <= value < 2**64:
        value = float(value)
    return value if type(value) in (int, float) else field


def _lines(path):
    """The file's lines (split at line feeds only, as ``std::getline`` does); [] when it is
    missing, unreadable or empty."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            text = f.read()
    except OSError:
        return []
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def read_kept(study, path):
    """The rows an earlier run of ``study`` kept in ``path``, read as ``roverlab study`` reads them.

    Returns ``{key: (row, line)}``: each line after the header whose fields
    are one per column, by its key (its values' fields and repeat; of two
    lines with one key the later counts), the row as a dict and the line as
    it stands. A line cut short by an interruption has fewer fields and is
    skipped. ``{}`` when the file is missing or empty; raises
    :class:`OtherResults` when its first line is not the study's header.
    """
    lines = _lines(path)
    if not lines:
        return {}
    columns = study.columns
    if lines[0] != ",".join(columns):
        raise OtherResults(path)
    values_count = _values_count(study, study.grid())
    repeat = max((k for k, c in enumerate(columns) if c == "repeat"), default=None)
    kept = {}
    for line in lines[1:]:
        fields = _split_csv(line)
        if len(fields) != len(columns):
            continue
        row = {c: _field_value(c, f) for c, f in zip(columns, fields)}
        kept[_key(fields[:values_count], "0" if repeat is None else fields[repeat])] = (row, line)
    return kept


@contextlib.contextmanager
def _interrupts_held():
    """Ctrl-C held off until the block ends (then it acts), so that a file is never left with
    half a write by it. Only the main thread handles signals: elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda *_: caught.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        signal.raise_signal(signal.SIGINT)


class _CannotWrite(Exception):
    def __init__(self, path, error):
        super().__init__(f"cannot write {path}: {error.strerror or error}")


def _write(path, text):
    try:
        with _interrupts_held(), open(path, "w", encoding="utf-8", errors="surrogateescape",
                                      newline="") as f:
            f.write(text)
    except OSError as error:
        raise _CannotWrite(path, error) from error


class _RunsFile:
    """Where each run's row goes as it arrives, as ``roverlab study`` keeps it: rewritten at the
    start with the header and the kept lines (in the order of their keys), then each new row
    appended and flushed."""

    def __init__(self, path, columns, kept):
        self.path, self.columns = path, columns
        _write(path, "".join(line + "\n" for line in
                             [",".join(columns)] + [kept[key][1] for key in sorted(kept)]))
        try:
            self.file = open(path, "a", encoding="utf-8", errors="surrogateescape", newline="")
        except OSError as error:
            raise _CannotWrite(path, error) from error

    def append(self, rows):
        text = "".join(csv_line(self.columns, row) + "\n" for row in rows)
        try:
            with _interrupts_held():
                self.file.write(text)
                self.file.flush()
        except OSError as error:
            raise _CannotWrite(self.path, error) from error

    def close(self):
        with _interrupts_held():
            self.file.close()


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
    """A LocalCluster of one worker process with `workers` threads (the core releases
    the GIL while it runs a row, so the threads run rows side by side, as the command
    line's do, without a second process to feed), started with Ctrl-C ignored.

    The worker processes keep ignoring it (an ignored signal stays ignored in a
    child), so Ctrl-C reaches only this process, which then shuts them down.
    """
    from distributed import LocalCluster

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return LocalCluster(n_workers=1, threads_per_worker=workers, processes=True,
                            dashboard_address=None)
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m roverlab.study",
        description="Runs a study's rows on a Dask cluster (a local one by default).")
    parser.add_argument("study", help="the study document (JSON)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="a running Dask scheduler, e.g. tcp://HOST:8786")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="worker threads of the local cluster (default: the cores)")
    parser.add_argument("--out", metavar="RESULTS.csv", help="write the CSV here")
    parser.add_argument("--json", action="store_true",
                        help="print the results as JSON {columns, rows, ...}")
    parser.add_argument("--controller", metavar="FILE.py:NAME",
                        help="a Python controller: the class (or function) NAME of FILE.py, "
                             "one made per row")
    args = parser.parse_args(argv)
    if args.scheduler and args.workers is not None:
        parser.error("--workers sizes the local cluster; a --scheduler's cluster has its own")
    if args.workers is not None and not 1 <= args.workers <= 1024:
        parser.error("--workers must be a whole number in [1, 1024]")
    controller = None
    if args.controller:
        try:
            controller = load_controller(args.controller)
        except (OSError, ValueError, AttributeError, SyntaxError) as error:
            parser.error(f"--controller {args.controller}: {error}")
    try:
        study = Study(args.study)
        check_controller(study, controller)
    except ScenarioError as refused:
        print(json.dumps({"ok": False, "issues": refused.issues}, indent=2))
        return 1
    except TypeError as error:
        parser.error(f"--controller {args.controller}: {error}")

    # With --out, the rows of an earlier run of this study are kept, and each
    # new one is written as it arrives (a threshold study's runs beside the
    # answers), as `roverlab study` does.
    kept, runs_file, runs_path = {}, None, None
    if args.out:
        runs_path = _runs_file(args.out) if study.is_threshold else args.out
        try:
            found = read_kept(study, runs_path)
            answers = _lines(args.out)[:1] if study.is_threshold else []
            if answers and answers[0] != ",".join(study.threshold_columns):
                raise OtherResults(args.out)
        except OtherResults as other:
            print(f"roverlab.study: {other}", file=sys.stderr)
            return 1
        try:
            runs_file = _RunsFile(runs_path, study.columns, found)
        except _CannotWrite as error:
            print(f"roverlab.study: {error}", file=sys.stderr)
            return 2
        kept = {key: row for key, (row, _) in found.items()}

    ran = 0

    def on_rows(rows):
        nonlocal ran
        ran += len(rows)
        if runs_file:
            runs_file.append(rows)

    progress = _Progress()
    try:
        if not study.is_threshold and all(_run_key(run) in kept for run in study.grid()):
            results = run_study(study, None, progress, kept, on_rows, controller)  # all kept
        elif args.scheduler:
            from distributed import Client

            with Client(args.scheduler) as client:
                results = run_study(study, client, progress, kept, on_rows, controller)
        else:
            from distributed import Client

            workers = args.workers or os.cpu_count() or 1
            with _local_cluster(workers) as cluster, Client(cluster) as client:
                results = run_study(study, client, progress, kept, on_rows, controller)
        if runs_file:
            runs_file.close()
        answers = (results["threshold_columns"], results["thresholds"]) if study.is_threshold \
            else (results["columns"], results["rows"])
        if args.out:
            # In their final order: a grid's rows in the grid's, a threshold study's runs in
            # their keys' (whatever order they arrived in), then its answers in the grid's.
            _write(runs_path, csv_text(results["columns"], results["rows"]))
            if study.is_threshold:
                _write(args.out, csv_text(*answers))
    except KeyboardInterrupt:
        if runs_file:
            runs_file.close()
            print(f"\nroverlab.study: interrupted; {len(kept) + ran} rows are kept in {runs_path}: "
                  "the same command goes on from there", file=sys.stderr)
        else:
            print("\nroverlab.study: interrupted; nothing written (no --out)", file=sys.stderr)
        return 130
    except _CannotWrite as error:
        print(f"roverlab.study: {error}", file=sys.stderr)
        return 2

    failed = results.pop("failed")
    if args.json:
        print(json.dumps(results))
    elif not args.out:
        sys.stdout.write(csv_text(*answers))
    for f in failed:
        print(f"roverlab.study: task {f['index']} ({json.dumps(f['run'])}) failed: {f['error']}",
              file=sys.stderr)
    print(f"roverlab.study: {ran} runs, {len(kept)} kept from an earlier run"
          + (f"; results in {args.out}" if args.out else ""), file=sys.stderr)
    return 2 if failed else 0


if __name__ == "__main__":
    # Run through the module's own name, so tasks refer to roverlab.study, not __main__.
    from roverlab import study as _module

    sys.exit(_module.main())
