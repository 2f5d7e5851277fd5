"""roverlab.World: stepping, state, telemetry, inputs, and the same end state as roverlab.run."""

import math
import unittest

import numpy as np

import roverlab
import support

FLAT = support.path("terrains", "flat-rocker8.json")


class WorldTest(unittest.TestCase):
    def test_stepped_in_chunks_it_ends_as_run_does(self):
        sets = ["simulation.duration=1"]
        world = roverlab.World(FLAT, sets=sets)
        steps = round(world.duration / world.dt)
        # Chunks that do not fall on the sampling interval, with summaries between.
        for chunk in (1, 37, steps // 2, steps):
            self.assertTrue(world.step(min(chunk, steps - world.steps)))
            world.summary()
        self.assertEqual(world.steps, steps)
        self.assertAlmostEqual(world.time, 1.0, places=9)
        expected = roverlab.run(FLAT, sets=sets)
        self.assertEqual(world.state_hash, expected["state_hash"])
        self.assertEqual(support.without(world.summary()), support.without(expected))

    def test_state_and_telemetry(self):
        world = roverlab.World(FLAT, sets=["simulation.duration=0.5"])
        world.step(round(0.5 / world.dt))
        state = world.state
        self.assertEqual(state["q"].shape, (len(state["q"]),))
        self.assertGreater(len(state["q"]), 7)  # a free base (position, quaternion) and joints
        for name, values in state.items():
            self.assertTrue(np.all(np.isfinite(values)), name)
        self.assertAlmostEqual(float(np.linalg.norm(state["q"][3:7])), 1.0, places=9)
        columns, rows = world.telemetry()
        self.assertEqual(columns, world.columns)
        # The row at t = 0, then one every SAMPLE_INTERVAL.
        self.assertEqual(rows.shape, (1 + round(0.5 / roverlab.SAMPLE_INTERVAL), len(columns)))
        time = rows[:, columns.index("time_s")]
        np.testing.assert_allclose(time, np.arange(len(time)) * roverlab.SAMPLE_INTERVAL,
                                   atol=1e-9)
        self.assertAlmostEqual(rows[-1, columns.index("base_x_m")], state["q"][0], places=12)
        self.assertTrue(np.all(np.isfinite(rows)))

    def test_inputs(self):
        still = roverlab.World(FLAT)
        self.assertTrue(still.set_wheel_speeds(0, 0))
        self.assertFalse(still.set_wheel_speeds(math.nan, 0))
        self.assertFalse(still.set_joint_target("no such joint", 0.1))
        driven = roverlab.World(FLAT)
        for world in (still, driven):
            world.step(round(1 / world.dt))
        still_x, driven_x = (w.state["q"][0] for w in (still, driven))
        self.assertLess(abs(still_x), 0.01)  # m
        self.assertGreater(driven_x, 0.3)  # m, after 1 s at the scenario's 2 rad/s

    def test_a_run_that_stopped(self):
        # Driven off a 3 m slab: every wheel falls below the terrain.
        world = roverlab.World({
            "format": "roverlab-scenario", "version": 1,
            "terrain": {"boxes": [{"centre": [0, 0, -0.5], "size": [3, 4, 1]}]},
            "robot": {"preset": "wheel-rig", "pose": {"position": [0, 0]}},
            "control": {"wheel_speed": 10},
        })
        while world.step(100):
            self.assertLess(world.time, 5)
        self.assertEqual(world.outcome, "left_terrain")
        self.assertIn("left the terrain", world.error)
        steps = world.steps
        self.assertFalse(world.step(10))
        self.assertEqual(world.steps, steps)
        self.assertFalse(world.summary()["ok"])


if __name__ == "__main__":
    unittest.main()
