"""Studies of a Python controller: one made per row, its params swept by the study's
parameters, its rows those of the scripted study that sets the same wheel speed (state_hash for
state_hash), a threshold search of a controller's parameter, on a Dask cluster too; hostile
controllers stop their row only."""

import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import roverlab
import roverlab.study
import support

BASE = os.path.join(support.STUDIES, "cli_grid.json")  # the wheel rig, 0.5 s a run


class Speed:
    """Drives at the wheel speed its params name (control.program.params.speed)."""

    period = 0.01

    def init(self, model):
        self.speed = model["params"]["speed"]

    def update(self, obs):
        return {"wheel_speed": self.speed}


def studies(speeds=(1.5, 3.0)):
    """The same question asked twice: of the controller's param, and of the scenario's speed."""
    with open(BASE, encoding="utf-8") as f:
        base = json.load(f)
    base["predicates"] = {"moved": {"base_x_past": 0.2}}
    scripted = copy.deepcopy(base)
    scripted["parameters"] = [{"path": "control.wheel_speed", "values": list(speeds)}]
    hosted = copy.deepcopy(base)
    hosted["scenario"]["control"] = {"program": {"language": "python", "params": {"speed": 0}}}
    hosted["parameters"] = [{"path": "control.program.params.speed", "values": list(speeds)}]
    return hosted, scripted


def measures(row):
    """A row without its parameter's column and wall time: its outcome, state_hash, measures."""
    return {k: v for k, v in row.items()
            if k not in ("wall_s", "control.program.params.speed", "control.wheel_speed")}


class StudyControllerTest(unittest.TestCase):
    def test_each_row_is_the_scripted_row_of_its_speed(self):
        hosted, scripted = (roverlab.Study(s) for s in studies())
        rows = [hosted.run_row(run, Speed) for run in hosted.grid()]
        expected = [scripted.run_row(run) for run in scripted.grid()]
        self.assertTrue(all(r["ok"] for r in rows), rows)
        for row, want in zip(rows, expected):
            self.assertEqual(row["control.program.params.speed"], want["control.wheel_speed"])
            self.assertEqual(measures(row), measures(want))
        # Two speeds, two different runs.
        self.assertNotEqual(rows[0]["state_hash"], rows[1]["state_hash"])

    def test_a_threshold_search_of_a_controller_parameter(self):
        hosted, scripted = studies()
        for s, path in ((hosted, "control.program.params.speed"), (scripted, "control.wheel_speed")):
            s["parameters"] = []
            s["threshold"] = {"path": path, "from": 0.5, "to": 3, "tolerance": 0.2,
                              "predicate": "moved"}
        hosted, scripted = roverlab.Study(hosted), roverlab.Study(scripted)
        ran, want_ran = [], []
        found = hosted.search(hosted.grid()[0], ran, controller=Speed)
        want = scripted.search(scripted.grid()[0], want_ran)
        self.assertTrue(found["found"], found)
        self.assertEqual(found, want)
        self.assertEqual([r["state_hash"] for r in ran], [r["state_hash"] for r in want_ran])

    def test_on_a_dask_cluster_in_this_process(self):
        from distributed import Client, LocalCluster

        hosted, scripted = (roverlab.Study(s) for s in studies((1.0, 1.5, 2.0, 2.5)))
        with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            results = roverlab.study.run_study(hosted, client, controller=Speed)
        self.assertEqual(results["failed"], [])
        want = [scripted.run_row(run)["state_hash"] for run in scripted.grid()]
        self.assertEqual([r["state_hash"] for r in results["rows"]], want)

    def test_the_command_with_a_controller_file(self):
        # A real cluster process gets the controller by value (its file is not importable there).
        folder = tempfile.mkdtemp(prefix="roverlab-study-controller-")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        hosted, scripted = studies()
        study_file = os.path.join(folder, "study.json")
        with open(study_file, "w", encoding="utf-8") as f:
            json.dump(hosted, f)
        with open(os.path.join(folder, "speed_law.py"), "w", encoding="utf-8") as f:
            f.write("class Speed:\n    def init(self, model):\n        self.speed = model['params']"
                    "['speed']\n\n    def update(self, obs):\n        return {'wheel_speed': "
                    "self.speed}\n")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
        done = subprocess.run([sys.executable, "-m", "roverlab.study", study_file, "--workers", "2",
                               "--json", "--controller", "speed_law.py:Speed"], cwd=folder,
                              capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        rows = json.loads(done.stdout)["rows"]
        scripted = roverlab.Study(scripted)
        self.assertEqual([r["state_hash"] for r in rows],
                         [scripted.run_row(run)["state_hash"] for run in scripted.grid()])
        # Without the controller the study is refused at its program, before any run.
        done = subprocess.run([sys.executable, "-m", "roverlab.study", study_file, "--json"],
                              cwd=folder, capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(json.loads(done.stdout)["issues"][0]["path"], "scenario.control.program")

    def test_a_controller_that_raises_stops_its_row_only(self):
        hosted = roverlab.Study(studies()[0])
        run = hosted.grid()[0]

        class Raises(Speed):
            def update(self, obs):
                if obs.time_s > 0.1:
                    raise ZeroDivisionError("division by zero")
                return super().update(obs)

        class BadInit(Speed):
            def init(self, model):
                raise KeyError("gain")

        row = hosted.run_row(run, Raises)
        self.assertFalse(row["ok"])
        self.assertEqual(row["outcome"], "program_error")
        self.assertRegex(row["message"], r"^update at t = 0\.11 s: ZeroDivisionError: division by zero")
        self.assertLess(row["steps"], 1250)
        row = hosted.run_row(run, BadInit)
        self.assertEqual((row["outcome"], row["message"]), ("program_error", "init: KeyError: 'gain'"))
        self.assertEqual(hosted.run_row(run, Speed)["outcome"], "ok")  # the study goes on
        with self.assertRaises(TypeError):
            hosted.run_row(run, Speed())  # one object for every row would carry its state across
        with self.assertRaises(roverlab.ScenarioError):
            roverlab.study.run_study(hosted, None)  # a python program's params, no controller


if __name__ == "__main__":
    unittest.main()
