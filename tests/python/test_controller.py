"""Python controllers in a World's loop (roverlab.World(controller=...)): the scripted run's
state_hash from a controller doing what the script does, the obs view, hostile controllers."""

import json
import math
import os
import shutil
import subprocess
import tempfile
import traceback
import types
import unittest

import roverlab
import support

FLAT = support.path("terrains", "flat-rocker8.json")
STEP = support.path("terrains", "step-articulated6.json")
TOOL = support.path("tools", "roverlab.mjs")
WASM = support.path("web", "src", "wasm", "roverlab_core.js")


def flat(duration, **control):
    with open(FLAT, encoding="utf-8") as f:
        scenario = json.load(f)
    scenario["simulation"] = {"duration": duration}
    if control:
        scenario["control"] = control
    return scenario


class Recorder:
    """Keeps what it is given; commands `command` (a dict or a function of obs)."""

    def __init__(self, period=0.01, command=None):
        self.period = period
        self.command = command
        self.model = None
        self.seen = []

    def init(self, model):
        self.model = model

    def update(self, obs):
        self.obs = obs
        self.seen.append(obs.time_s)
        return self.command(obs) if callable(self.command) else self.command


class ScriptTest(unittest.TestCase):
    def test_a_controller_doing_what_a_script_does_gives_the_scripted_state_hash(self):
        # The flat rocker at 2 rad/s, 4 rad/s from t = 1 s, for 2 s: a timed script, and a
        # controller updated every step that sees the same time at the same step. A script
        # entry applies within 1e-12 s of its time (core/sim/simulation.cpp), and t at step
        # 2500 is 1 - 2e-14 (dt added 2500 times): so the controller compares as the script does.
        tmp = tempfile.mkdtemp(prefix="roverlab-controller-")
        self.addCleanup(shutil.rmtree, tmp)
        scripted = os.path.join(tmp, "scripted.json")
        with open(scripted, "w", encoding="utf-8") as f:
            json.dump(flat(2, wheel_speed=2, script=[{"t": 1, "wheel_speed": 4}]), f)
        native = support.cli("run", scripted)
        self.assertEqual(native.returncode, 0, native.stderr)
        native = json.loads(native.stdout)

        speed = types.SimpleNamespace(
            period=0.0004, update=lambda obs: {"wheel_speed": 2 if obs.time_s + 1e-12 < 1 else 4})
        world = roverlab.World(flat(2), controller=speed)
        self.assertTrue(world.step(round(world.duration / world.dt)))
        summary = world.summary()
        self.assertEqual(summary["program"], {"period_s": 0.0004, "updates": 5000, "warnings": 0})
        self.assertEqual(world.state_hash, native["state_hash"])
        self.assertEqual(support.without(summary, support.TIMING + ("program",)),
                         support.without(native))

        # The same program in JavaScript on the WASM core (tools/roverlab.mjs): the same hash.
        node = shutil.which("node")
        if node is None or not os.path.exists(WASM):
            self.skipTest("node or the WASM core (web/src/wasm) is missing")
        plain = os.path.join(tmp, "plain.json")
        with open(plain, "w", encoding="utf-8") as f:
            json.dump(flat(2), f)
        program = os.path.join(tmp, "speed.mjs")
        with open(program, "w", encoding="utf-8") as f:
            f.write("export default {\n  period: 0.0004,\n"
                    "  update(obs) { return { wheel_speed: obs.time_s + 1e-12 < 1 ? 2 : 4 }; },\n};\n")
        js = subprocess.run([node, TOOL, "run", plain, "--controller", program], capture_output=True,
                            text=True, timeout=120, check=False)
        self.assertEqual(js.returncode, 0, js.stderr)
        self.assertEqual(json.loads(js.stdout)["state_hash"], native["state_hash"])


class ObservationTest(unittest.TestCase):
    def test_obs_is_a_view_of_the_row_built_once(self):
        first = None

        def keep(obs):
            nonlocal first
            if first is None:
                first = obs.to_dict()  # a copy: obs itself follows the row
            return {"wheel_speed": 2}

        recorder = Recorder(command=keep)
        world = roverlab.World(flat(0.2), controller=recorder)
        world.step(250)  # updates every 0.01 s: the last at t = 0.09 s
        obs = recorder.obs
        self.assertEqual(len(recorder.seen), 10)
        self.assertAlmostEqual(obs.time_s, 0.09, places=12)
        # The same object at every update, refilled in place; obs.array is the row.
        columns = list(obs.columns)
        self.assertEqual(columns, list(world._world.observation_columns))
        self.assertEqual(obs.array.shape, (len(columns),))
        self.assertFalse(obs.array.flags.writeable)
        for column, value in zip(columns, obs.array):
            if ".touches." in column:
                continue
            node = obs
            for part in column.split("."):
                node = node[part]
            self.assertEqual(node, value, column)
        self.assertEqual(obs.base.pitch_rad, obs["base"]["pitch_rad"])
        self.assertEqual(obs.wheels.wheel_1.slip, obs.array[columns.index("wheels.wheel_1.slip")])
        self.assertEqual(list(obs.base), ["x_m", "y_m", "z_m", "yaw_rad", "pitch_rad", "roll_rad",
                                          "vx_m_s", "vy_m_s", "vz_m_s", "wx_rad_s", "wy_rad_s",
                                          "wz_rad_s"])
        self.assertEqual(list(obs.joints), ["rocker_1", "rocker_2", "rocker_3", "rocker_4"])
        self.assertEqual(len(obs.sections), 0)  # rocker8 has one section: empty, but there
        # Touches: the present contacts only (none at t = 0, before any step).
        self.assertEqual(first["wheels"]["wheel_1"]["touches"], [])
        wheel = obs.wheels.wheel_1
        self.assertEqual(wheel.contacts, 1)
        self.assertEqual(len(wheel.touches), 1)
        self.assertAlmostEqual(wheel.touches[0].nz, 1, places=9)  # flat ground
        self.assertAlmostEqual(wheel.touches[0].z_m, 0, places=9)
        # Read-only, with the names it has in its errors.
        with self.assertRaises(AttributeError):
            obs.base.pitch_rad = 0
        with self.assertRaisesRegex(AttributeError, "obs.base"):
            obs.base.pich_rad  # noqa: B018
        with self.assertRaisesRegex(KeyError, "pitch_rad"):
            obs["base"]["pich_rad"]  # noqa: B018
        # init(model): the robot's names and limits, in the vocabulary of the JavaScript programs.
        model = recorder.model
        self.assertEqual((model["robot"], model["dt_s"], model["period_s"], model["duration_s"]),
                         ("rocker8", 0.0004, 0.01, 0.2))
        self.assertEqual(model["max_wheel_speed_rad_s"], 4)
        self.assertEqual([w["name"] for w in model["wheels"]], [f"wheel_{k}" for k in range(1, 9)])
        self.assertEqual(model["observation"], columns)
        self.assertEqual(model["command"][:3], ["wheel_speed", "left_speed", "right_speed"])

    def test_commands_drive_the_robot(self):
        # Skid steering and joints by name: articulated6 folds its front section while it turns.
        def command(obs):
            return {"left_speed": 1, "right_speed": 3, "joints": {"fold_front": 0.4},
                    "plot": {"yaw_rad": obs.base.yaw_rad}}

        world = roverlab.World(STEP, sets=["simulation.duration=1"],
                               controller=Recorder(command=command))
        world.step(round(1 / world.dt))
        self.assertEqual(world.warnings, [])
        obs = world.controller.obs
        self.assertGreater(obs.base.yaw_rad, 0.05)  # a left turn
        self.assertAlmostEqual(obs.joints.fold_front.position_rad, 0.4, delta=0.05)
        times, values = world.plots()["yaw_rad"]
        self.assertEqual(len(times), 100)
        self.assertEqual(values[-1], obs.base.yaw_rad)


class HostileTest(unittest.TestCase):
    def test_nan_huge_values_and_unknown_names_are_warned_once_and_the_run_goes_on(self):
        def command(obs):
            if obs.time_s < 0.05:
                return {"wheel_speed": 1e9}
            return {"wheel_speed": math.nan, "left_speed": "fast", "joints": {"nope": 1, "rocker_1": 0},
                    "actuators": {"wheel_1": math.inf, "ghost": 2}, "throttle": 1, "plot": "x"}

        world = roverlab.World(flat(0.2), controller=Recorder(command=command))
        self.assertTrue(world.step(round(0.2 / world.dt)))
        messages = [w["message"] for w in world.warnings]
        self.assertEqual(len(messages), 7, messages)  # one per kind, not one per update
        # (inf is a number: the core drops it and counts it with the clamped values)
        expect = ["beyond the robot's limits", "wheel_speed = nan", "left_speed = 'fast'",
                  "joints.nope", "joints.rocker_1", "actuators.ghost", "throttle"]
        for text in expect:
            self.assertTrue(any(text in m for m in messages), (text, messages))
        clamped = next(w for w in world.warnings if "limits" in w["message"])
        self.assertEqual(clamped["t"], 0)
        self.assertTrue(all(0 <= w["t"] < 0.2 for w in world.warnings))
        self.assertEqual(world.summary()["program"]["warnings"], 7)
        # 1e9 rad/s was clamped to the limit (4), and NaN kept it.
        self.assertEqual(world.state["targets"][0], 4)
        self.assertEqual(world.outcome, "ok")

    def test_not_a_dict(self):
        world = roverlab.World(flat(0.1), controller=Recorder(command=[1, 2]))
        world.step(10)
        self.assertEqual([w["message"] for w in world.warnings],
                         ["update returned list, not a dict; nothing commanded"])

    def test_an_exception_propagates_with_its_traceback_and_the_run_stops_there(self):
        def command(obs):
            if obs.time_s > 0.045:
                return {"wheel_speed": 1 / 0}
            return None

        world = roverlab.World(flat(0.2), controller=Recorder(command=command))
        try:
            world.step(round(0.2 / world.dt))
            self.fail("no exception")
        except ZeroDivisionError as e:
            frames = [frame.name for frame in traceback.extract_tb(e.__traceback__)]
            notes = " ".join(e.__notes__)
        self.assertEqual(frames[0], "test_an_exception_propagates_with_its_traceback_and_the_run_stops_there")
        self.assertEqual(frames[-2:], ["update", "command"])  # Recorder.update, then command
        self.assertIn("t = 0.05 s", notes)
        self.assertAlmostEqual(world.time, 0.05, places=9)
        self.assertEqual(world.outcome, "program_error")
        self.assertIn("ZeroDivisionError", world.error)
        steps = world.steps
        self.assertFalse(world.step(10))
        self.assertEqual(world.steps, steps)
        summary = world.summary()
        self.assertEqual((summary["ok"], summary["outcome"]), (False, "program_error"))
        self.assertEqual(summary["program"]["updates"], 5)

    def test_refused_controllers(self):
        with self.assertRaisesRegex(TypeError, r"no update\(obs\)"):
            roverlab.World(flat(0.1), controller=types.SimpleNamespace(period=0.01))
        with self.assertRaisesRegex(TypeError, r"no update\(obs\)"):
            roverlab.World(flat(0.1), controller=lambda obs: {})
        with self.assertRaisesRegex(TypeError, "init"):
            roverlab.World(flat(0.1), controller=types.SimpleNamespace(init=3, update=lambda o: None))
        for period in (0, 0.0001, 5, "0.01", True, math.nan):
            with self.assertRaisesRegex(ValueError, "period"):
                roverlab.World(flat(0.1), controller=Recorder(period=period))

        class Failing(Recorder):
            def init(self, model):
                raise RuntimeError("no robot for me")

        with self.assertRaisesRegex(RuntimeError, "no robot for me"):
            roverlab.World(flat(0.1), controller=Failing())
        with self.assertRaisesRegex(ValueError, "control.controller"):
            roverlab.World(support.path("terrains", "climb-articulated6.json"), controller=Recorder())


if __name__ == "__main__":
    unittest.main()
