"""Studies from Python: the Study object, the Dask runner on real scheduler and worker processes."""

import concurrent.futures
import csv
import json
import os
import pickle
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
import warnings

import roverlab
import roverlab.study
import support

GRID = os.path.join(support.STUDIES, "python_grid.json")  # 12 rows of ~0.3 s
THRESHOLD = os.path.join(support.STUDIES, "python_threshold.json")  # 2 searches, 8 short runs
CLI_STUDY = support.cli_has("study")


def values_of(study, row, count):
    return [row[c] for c in study.columns[:count]]


def rows_in_process(study):
    """Every grid row, run on two threads (run_row releases the GIL)."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return list(pool.map(study.run_row, study.grid()))


def cli_study(file, folder, *options, jobs=2):
    """`roverlab study FILE --json` (with --out in `folder`), as a dict."""
    done = support.cli("study", file, "--jobs", str(jobs), "--json", *options)
    if done.returncode != 0:
        raise AssertionError(done.stderr)
    return json.loads(done.stdout)


def csv_rows(path):
    """A CSV's rows without the wall_s column (the only one that may differ)."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    drop = rows[0].index("wall_s") if "wall_s" in rows[0] else None
    return [[v for k, v in enumerate(r) if k != drop] for r in rows]


class StudyTest(unittest.TestCase):
    def test_refused_study(self):
        with self.assertRaises(roverlab.ScenarioError) as raised:
            roverlab.Study({"format": "roverlab-study", "version": 1, "parameters": 3})
        self.assertEqual(sorted(i["path"] for i in raised.exception.issues),
                         ["parameters", "scenario"])

    def test_grid_rows_and_assignments(self):
        study = roverlab.Study(GRID)
        grid = study.grid()
        self.assertEqual(len(grid), 12)
        self.assertEqual(grid[1], {"values": [0.15, 2.5], "repeat": 0})
        self.assertFalse(study.is_threshold)
        self.assertEqual(study.columns[:4], ["robot.params.wheel_radius", "control.wheel_speed",
                                             "ok", "outcome"])
        self.assertEqual(pickle.loads(pickle.dumps(study)).columns, study.columns)
        row = study.run_row(grid[1])
        self.assertEqual(list(row), study.columns)
        self.assertTrue(row["ok"])
        # The row's assignments repeat it with roverlab.run on the study's scenario.
        sets = study.assignments(grid[1])
        self.assertEqual(sets, ["robot.params.wheel_radius=0.15", "control.wheel_speed=2.5"])
        summary = roverlab.run(os.path.join(support.STUDIES, "python_flat_rocker8.json"), sets=sets)
        self.assertEqual(summary["state_hash"], row["state_hash"])
        with self.assertRaises(ValueError):
            study.run_row({"values": [0.2], "repeat": 0})

    def test_threshold_search(self):
        study = roverlab.Study(THRESHOLD)
        self.assertTrue(study.is_threshold)
        rows = []
        result = study.search(study.grid()[1], rows)
        self.assertEqual(list(result), study.threshold_columns)
        self.assertTrue(result["found"])
        self.assertEqual(result["runs"], len(rows))
        self.assertLessEqual(result["upper"] - result["lower"], 0.2)
        # The bracket's ends are runs on either side of the predicate's change.
        at = {r["simulation.duration"]: r["past_1m"] for r in rows}
        self.assertNotEqual(at[result["lower"]], at[result["upper"]])


class ClusterTest(unittest.TestCase):
    """A scheduler and two workers as separate processes, as on a real cluster."""

    def start(self, module, *args, log):
        with open(os.path.join(self.folder, log), "w", encoding="utf-8") as out:
            process = support.python_module(module, *args, cwd=self.folder, stdout=out,
                                            stderr=subprocess.STDOUT)
        self.addCleanup(self.stop, process)
        return process

    @staticmethod
    def stop(process):
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def setUp(self):
        from distributed import Client

        # distributed 2022.12 with Debian's tornado: harmless, and not ours.
        warnings.filterwarnings("ignore", "make_current is deprecated", DeprecationWarning)
        self.folder = tempfile.mkdtemp(prefix="roverlab-dask-")
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        scheduler_file = os.path.join(self.folder, "scheduler.json")
        self.start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                   "--no-dashboard", "--scheduler-file", scheduler_file, "--idle-timeout", "300s",
                   log="scheduler.log")
        deadline = time.monotonic() + 60
        while not os.path.exists(scheduler_file):
            self.assertLess(time.monotonic(), deadline, "the scheduler did not start")
            time.sleep(0.1)
        # Without a nanny, a killed worker stays dead: its tasks must go to the other.
        self.workers = {
            name: self.start("distributed.cli.dask_worker", "--scheduler-file", scheduler_file,
                             "--nthreads", "1", "--no-nanny", "--no-dashboard", "--name", name,
                             "--local-directory", os.path.join(self.folder, name),
                             "--death-timeout", "60s", log=f"{name}.log")
            for name in ("a", "b")}
        self.client = Client(scheduler_file=scheduler_file, timeout="60s")
        self.addCleanup(self.client.close)
        self.client.wait_for_workers(2, timeout=60)

    def test_a_killed_worker_s_rows_are_run_again_once(self):
        study = roverlab.Study(GRID)
        killed = {}

        def kill_a_busy_worker(done, total):
            # After the first row arrives, SIGKILL a worker while it holds runs.
            if killed:
                return
            for address, keys in self.client.processing().items():
                if keys:
                    name = self.client.scheduler_info()["workers"][address]["name"]
                    self.workers[name].send_signal(signal.SIGKILL)
                    self.workers[name].wait()
                    killed.update(name=name, keys=list(keys), done=done)
                    return

        results = roverlab.study.run_study(study, self.client, kill_a_busy_worker)
        self.assertTrue(killed, "no worker was busy after the first row")
        self.assertEqual(killed["done"], 1)
        self.assertEqual(len(self.client.nthreads()), 1)  # asked of the scheduler now
        self.assertEqual(results["failed"], [])
        rows = results["rows"]
        grid = study.grid()
        # Every run exactly once, in the grid's order: the killed worker's too.
        self.assertEqual([values_of(study, r, 2) for r in rows], [g["values"] for g in grid])
        # A chunk's key ends with its first row and the row after its last (roverlab-row-…-start-end).
        lost = [i for k in killed["keys"] if k.startswith("roverlab-row-")
                for i in range(int(k.split("-")[-2]), int(k.split("-")[-1]))]
        self.assertTrue(lost)
        self.assertTrue(all(rows[i]["ok"] for i in lost))
        expected = rows_in_process(study)
        self.assertEqual([r["state_hash"] for r in rows], [r["state_hash"] for r in expected])
        self.assertEqual([support.without(r) for r in rows],
                         [support.without(r) for r in expected])
        if CLI_STUDY:
            cli = cli_study(GRID, self.folder)
            self.assertEqual(cli["columns"], results["columns"])
            self.assertEqual([support.without(r) for r in cli["rows"]],
                             [support.without(r) for r in rows])


def runner(*args, cwd):
    """`python3 -m roverlab.study ARGS` started in `cwd`, its output piped."""
    return support.python_module("roverlab.study", *args, cwd=cwd, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)


def run_runner(*args, cwd):
    """`python3 -m roverlab.study ARGS` run to its end: (status, stdout, stderr)."""
    process = runner(*args, cwd=cwd)
    stdout, stderr = process.communicate(timeout=300)
    return process.returncode, stdout, stderr


def lines(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().splitlines()


class LocalClusterTest(unittest.TestCase):
    """The command on a local cluster, run once on the threshold study (and `roverlab study`)."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="roverlab-study-")
        cls.addClassCleanup(shutil.rmtree, cls.folder, ignore_errors=True)
        cls.out = os.path.join(cls.folder, "thresholds.csv")
        cls.status, stdout, cls.stderr = run_runner(THRESHOLD, "--workers", "2", "--out", cls.out,
                                                    "--json", cwd=cls.folder)
        cls.results = json.loads(stdout) if cls.status == 0 else None
        cls.cli_out = os.path.join(cls.folder, "cli.csv")
        cls.cli = cli_study(THRESHOLD, cls.folder, "--out", cls.cli_out, jobs=1) if CLI_STUDY \
            else None

    def test_the_command_on_a_local_cluster(self):
        self.assertEqual(self.status, 0, self.stderr)
        self.assertIn("roverlab.study: 2 of 2 tasks", self.stderr)
        self.assertIn("roverlab.study: 8 runs, 0 kept from an earlier run", self.stderr)
        results, out, folder = self.results, self.out, self.folder
        study = roverlab.Study(THRESHOLD)
        expected = [study.search(run) for run in study.grid()]
        self.assertEqual(results["thresholds"], expected)
        self.assertEqual(len(results["rows"]), sum(e["runs"] for e in expected))
        self.assertEqual(os.listdir(folder).count("dask-worker-space"), 0)
        if CLI_STUDY:
            cli, cli_out = self.cli, self.cli_out
            self.assertEqual(cli["thresholds"], results["thresholds"])
            self.assertEqual([support.without(r) for r in cli["rows"]],
                             [support.without(r) for r in results["rows"]])
            self.assertEqual(csv_rows(out), csv_rows(cli_out))
            # The runs files hold the same rows (the command line's in the order they finished).
            runs, cli_runs = (csv_rows(f.replace(".csv", ".runs.csv")) for f in (out, cli_out))
            self.assertEqual(runs[0], cli_runs[0])
            self.assertEqual(sorted(runs[1:]), sorted(cli_runs[1:]))

    @unittest.skipUnless(CLI_STUDY, "build/native/roverlab has no study command")
    def test_a_threshold_study_replays_its_searches_from_kept_runs(self):
        self.assertEqual(self.status, 0, self.stderr)
        # What `roverlab study --jobs 1` leaves when stopped after 3 runs, a 4th cut short: the
        # first search's two runs, the second's first (its runs file; no answers yet).
        out = os.path.join(self.folder, "resumed.csv")
        runs_file = out.replace(".csv", ".runs.csv")
        cli_runs = lines(self.cli_out.replace(".csv", ".runs.csv"))
        kept = cli_runs[1:4]
        with open(runs_file, "w", encoding="utf-8", newline="") as f:
            f.write("\n".join([cli_runs[0], *kept, cli_runs[4][:40]]))
        status, stdout, stderr = run_runner(THRESHOLD, "--workers", "1", "--out", out, "--json",
                                            cwd=self.folder)
        self.assertEqual(status, 0, stderr)
        self.assertIn("roverlab.study: 5 runs, 3 kept from an earlier run", stderr)
        # The answers and the runs as an uninterrupted run writes them, the kept runs as they were.
        self.assertEqual(lines(out), lines(self.out))
        self.assertEqual(lines(out), lines(self.cli_out))
        self.assertEqual(csv_rows(runs_file), csv_rows(self.out.replace(".csv", ".runs.csv")))
        self.assertLessEqual(set(kept), set(lines(runs_file)))
        self.assertEqual(json.loads(stdout)["thresholds"], self.results["thresholds"])


class ResumeTest(unittest.TestCase):
    """Ctrl-C keeps the rows that arrived; the same command runs only the others, and
    `roverlab study` and the runner go on from each other's files."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="roverlab-resume-")
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)

    @unittest.skipUnless(CLI_STUDY, "build/native/roverlab has no study command")
    def test_an_interrupted_study_goes_on_where_it_stopped(self):
        # python_grid.json with its scenario inline and 4 s long: 12 rows of about 0.05 s.
        with open(GRID, encoding="utf-8") as f:
            document = json.load(f)
        with open(os.path.join(support.STUDIES, document["scenario"]), encoding="utf-8") as f:
            document["scenario"] = json.load(f)
        document["scenario"]["simulation"]["duration"] = 4
        study = os.path.join(self.folder, "study.json")
        with open(study, "w", encoding="utf-8") as f:
            json.dump(document, f)
        out, expected = (os.path.join(self.folder, name) for name in ("rows.csv", "cli.csv"))
        # The command line's rows meanwhile, uninterrupted.
        cli = subprocess.Popen([support.CLI, "study", study, "--jobs", "1", "--out", expected],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(ClusterTest.stop, cli)
        # One worker: rows arrive one by one; Ctrl-C once two have.
        interrupted = runner(study, "--workers", "1", "--out", out, cwd=self.folder)
        self.addCleanup(ClusterTest.stop, interrupted)
        deadline = time.monotonic() + 120
        while not (os.path.exists(out) and len(lines(out)) >= 3):
            if interrupted.poll() is not None:
                self.fail(interrupted.communicate()[1])
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.02)
        interrupted.send_signal(signal.SIGINT)
        _, stderr = interrupted.communicate(timeout=60)
        self.assertEqual(interrupted.returncode, 130, stderr)
        cli_stderr = cli.communicate(timeout=300)[1]
        self.assertEqual(cli.returncode, 0, cli_stderr)
        partial = lines(out)
        kept = len(partial) - 1
        self.assertLess(kept, 12)
        self.assertIn(f"interrupted; {kept} rows are kept in {out}", stderr)
        self.assertEqual(partial[0], lines(expected)[0])
        # The command line goes on from the runner's rows...
        shutil.copy(out, os.path.join(self.folder, "cli_resumed.csv"))
        done = support.cli("study", study, "--jobs", "2", "--out",
                           os.path.join(self.folder, "cli_resumed.csv"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"{12 - kept} runs, {kept} kept from an earlier run", done.stderr)
        self.assertEqual(csv_rows(os.path.join(self.folder, "cli_resumed.csv")),
                         csv_rows(expected))
        # ... and so does the same command: the rows of an uninterrupted run, in the grid's
        # order, those kept as they were.
        status, _, stderr = run_runner(study, "--workers", "1", "--out", out, cwd=self.folder)
        self.assertEqual(status, 0, stderr)
        self.assertIn(f"roverlab.study: {12 - kept} runs, {kept} kept from an earlier run",
                      stderr)
        self.assertEqual(csv_rows(out), csv_rows(expected))
        self.assertLessEqual(set(partial), set(lines(out)))
        self.assertEqual(os.listdir(self.folder).count("dask-worker-space"), 0)

    def test_another_study_s_file_is_refused(self):
        other = os.path.join(self.folder, "other.csv")
        for study in (GRID, THRESHOLD):  # a threshold study's answers go to --out
            with open(other, "w", encoding="utf-8") as f:
                f.write("a,b\n1,2\n")
            status, _, stderr = run_runner(study, "--out", other, cwd=self.folder)
            self.assertEqual(status, 1, stderr)
            self.assertIn(f"{other} holds other results (its header is not this study's "
                          "columns); remove it or name another --out", stderr)
            self.assertEqual(lines(other), ["a,b", "1,2"])
            self.assertEqual(sorted(os.listdir(self.folder)), ["other.csv"])


if __name__ == "__main__":
    unittest.main()
