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


def cli_study(file, folder, *options):
    """`roverlab study FILE --json` (with --out in `folder`), as a dict."""
    done = support.cli("study", file, "--jobs", "2", "--json", *options)
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
        lost = [int(k.rsplit("-", 1)[1]) for k in killed["keys"]]
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


class LocalClusterTest(unittest.TestCase):
    def test_the_command_on_a_local_cluster(self):
        folder = tempfile.mkdtemp(prefix="roverlab-study-")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        out = os.path.join(folder, "thresholds.csv")
        runner = support.python_module("roverlab.study", THRESHOLD, "--workers", "2", "--out", out,
                                       "--json", cwd=folder, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
        stdout, stderr = runner.communicate(timeout=300)
        self.assertEqual(runner.returncode, 0, stderr)
        self.assertIn("roverlab.study: 2 of 2 tasks", stderr)
        results = json.loads(stdout)
        study = roverlab.Study(THRESHOLD)
        expected = [study.search(run) for run in study.grid()]
        self.assertEqual(results["thresholds"], expected)
        self.assertEqual(len(results["rows"]), sum(e["runs"] for e in expected))
        self.assertEqual(os.listdir(folder).count("dask-worker-space"), 0)
        if CLI_STUDY:
            cli_out = os.path.join(folder, "cli.csv")
            cli = cli_study(THRESHOLD, folder, "--out", cli_out)
            self.assertEqual(cli["thresholds"], results["thresholds"])
            self.assertEqual([support.without(r) for r in cli["rows"]],
                             [support.without(r) for r in results["rows"]])
            self.assertEqual(csv_rows(out), csv_rows(cli_out))
            # The runs files hold the same rows (the command line's in the order they finished).
            runs, cli_runs = (csv_rows(f.replace(".csv", ".runs.csv")) for f in (out, cli_out))
            self.assertEqual(runs[0], cli_runs[0])
            self.assertEqual(sorted(runs[1:]), sorted(cli_runs[1:]))


if __name__ == "__main__":
    unittest.main()
