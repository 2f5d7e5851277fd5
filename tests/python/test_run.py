"""roverlab.run: the command line's summary, refusals and their paths, files kept in a folder."""

import json
import os
import shutil
import tempfile
import unittest

import roverlab
import support

# A heightmap read from a file beside the scenario (tests/data/grey8.png is 4 × 3 px).
HEIGHTMAP_SCENARIO = {
    "format": "roverlab-scenario",
    "version": 1,
    "terrain": {"heightmaps": [{"origin": [-1, -1], "cell": 0.5, "height_scale": 0.001}]},
    "robot": {"preset": "wheel-rig", "pose": {"position": [0, 0]}},
    "simulation": {"duration": 0.2},
}


def heightmap_scenario(file):
    scenario = json.loads(json.dumps(HEIGHTMAP_SCENARIO))
    scenario["terrain"]["heightmaps"][0]["file"] = file
    return scenario


class RunTest(unittest.TestCase):
    @unittest.skipUnless(os.path.exists(support.CLI), "build/native/roverlab is not built")
    def test_summary_equals_roverlab_run(self):
        # A controller (climb-articulated6's step-climb) and a heightmap scenario, shortened.
        for name, duration in (("climb-articulated6.json", "3"),
                               ("heightmap-ditch-planar-vehicle.json", "1")):
            with self.subTest(name):
                file = support.path("terrains", name)
                sets = [f"simulation.duration={duration}", "robot.pose.yaw=0.01"]
                summary = roverlab.run(file, sets=sets)
                done = support.cli("run", file, *[a for s in sets for a in ("--set", s)])
                self.assertEqual(done.returncode, 0, done.stderr)
                expected = json.loads(done.stdout)
                self.assertEqual(summary["state_hash"], expected["state_hash"])
                self.assertEqual(support.without(summary), support.without(expected))

    def test_a_dict_or_text_runs_as_its_file(self):
        file = support.path("terrains", "flat-rocker8.json")
        sets = ["simulation.duration=0.5"]
        with open(file, encoding="utf-8") as f:
            text = f.read()
        hashes = {roverlab.run(s, sets=sets)["state_hash"]
                  for s in (file, text, json.loads(text))}
        self.assertEqual(len(hashes), 1)

    def test_a_refused_scenario_raises_its_issues(self):
        file = support.path("terrains", "flat-rocker8.json")
        with self.assertRaises(roverlab.ScenarioError) as raised:
            roverlab.run(file, sets=["robot.params.wheel_radius=7"])
        issues = raised.exception.issues
        self.assertEqual([i["path"] for i in issues], ["robot.params.wheel_radius"])
        self.assertIn("robot.params.wheel_radius: must be in", str(raised.exception))
        with self.assertRaises(roverlab.ScenarioError) as raised:
            roverlab.run({"format": "roverlab-scenario", "version": 1, "robot": {"preset": "x"}})
        paths = {i["path"] for i in raised.exception.issues}
        self.assertIn("terrain", paths)
        self.assertIn("robot.preset", paths)

    def test_files_are_read_from_inside_the_scenario_folder_only(self):
        data = support.path("tests", "data")
        self.assertTrue(roverlab.run(heightmap_scenario("grey8.png"), folder=data)["ok"])
        with tempfile.TemporaryDirectory() as folder:
            os.symlink(os.path.join(data, "grey8.png"), os.path.join(folder, "link.png"))
            outside = ["../grey8.png", os.path.join(data, "grey8.png"), "link.png"]
            for file in outside:
                with self.subTest(file), self.assertRaises(roverlab.ScenarioError) as raised:
                    roverlab.run(heightmap_scenario(file),
                                 folder=support.STUDIES if file.startswith("..") else folder)
                self.assertEqual([i["path"] for i in raised.exception.issues],
                                 ["terrain.heightmaps[0].file"])
            # A scenario file's names are read from its own folder, not the current one.
            shutil.copy(os.path.join(data, "grey8.png"), os.path.join(folder, "copy.png"))
            scenario = os.path.join(folder, "scenario.json")
            with open(scenario, "w", encoding="utf-8") as f:
                json.dump(heightmap_scenario("copy.png"), f)
            self.assertTrue(roverlab.run(scenario)["ok"])


if __name__ == "__main__":
    unittest.main()
