"""roverlab.Env: Gymnasium's reset/step on a scenario, with or without Gymnasium installed."""

import math
import unittest

import numpy as np

import roverlab
import support

FLAT = support.path("terrains", "flat-rocker8.json")
STEP = support.path("terrains", "step-articulated6.json")


class EnvTest(unittest.TestCase):
    def test_spaces_and_shapes(self):
        env = roverlab.Env(STEP, sets=["simulation.duration=0.2"])
        self.assertEqual(env.action_columns, (
            "wheel_middle_left", "wheel_middle_right", "fold_front", "extend_front", "wheel_front_left",
            "wheel_front_right", "fold_rear", "extend_rear", "wheel_rear_left", "wheel_rear_right"))
        space = env.action_space
        self.assertEqual(space.shape, (10,))
        self.assertEqual(space.dtype, np.float64)
        bounds = dict(zip(env.action_columns, zip(space.low, space.high)))
        self.assertEqual(bounds["wheel_front_left"], (-5, 5))  # max_wheel_speed, rad/s
        self.assertEqual(bounds["fold_front"], (-math.pi / 2, math.pi / 2))  # rad
        self.assertEqual(bounds["extend_rear"], (0, 0.18))  # m
        self.assertEqual(env.observation_space.shape, (len(env.observation_columns),))
        obs, info = env.reset(seed=3)
        self.assertEqual(obs.shape, env.observation_space.shape)
        self.assertEqual(obs.dtype, np.float64)
        self.assertTrue(np.all(np.isfinite(obs)))  # absent touches (NaN in the row) read 0
        self.assertTrue(env.observation_space.contains(obs))
        self.assertEqual(info["time_s"], 0)
        action = space.sample()
        self.assertTrue(space.contains(action))
        obs, reward, terminated, truncated, info = env.step(action)
        self.assertEqual(obs.shape, env.observation_space.shape)
        self.assertIsInstance(reward, float)
        self.assertEqual((terminated, truncated), (False, False))
        self.assertAlmostEqual(info["time_s"], 0.05, places=9)  # the default period
        self.assertAlmostEqual(env.observation.time_s, 0.05, places=9)
        self.assertEqual(obs[env.observation_columns.index("base.x_m")], env.observation.base.x_m)
        with self.assertRaisesRegex(ValueError, "shape"):
            env.step(np.zeros(3))

    def test_the_same_states_as_a_world_and_truncated_at_the_duration(self):
        # The scenario's own targets as the action: the states of the World driven by the scenario.
        sets = ["simulation.duration=0.33"]
        world = roverlab.World(FLAT, sets=sets)
        action = world.state["targets"]
        env = roverlab.Env(FLAT, sets=sets, period=0.1)
        self.assertEqual(env.action_space.low.tolist(), [-4] * 8)
        for episode in range(2):
            first, _ = env.reset(seed=episode)  # the seed does not change the simulation
            x = first[env.observation_columns.index("base.x_m")]
            flags, total = [], 0.0
            for _ in range(4):
                obs, reward, terminated, truncated, info = env.step(action)
                flags.append((terminated, truncated))
                total += reward
            # 0.1 s periods, the last cut short at the duration: 0.33 s, 825 steps.
            self.assertEqual(flags, [(False, False)] * 3 + [(False, True)])
            self.assertAlmostEqual(info["time_s"], 0.33, places=9)
            self.assertAlmostEqual(total, obs[env.observation_columns.index("base.x_m")] - x, places=12)
            self.assertGreater(total, 0.1)  # m forward at 2 rad/s
            with self.assertRaisesRegex(RuntimeError, "reset"):
                env.step(action)
        world.step(round(world.duration / world.dt))
        self.assertEqual(env.state_hash, world.state_hash)
        self.assertEqual(env.summary()["steps"], 825)

    def test_clamped_actions_and_a_reward_of_ones_own(self):
        env = roverlab.Env(FLAT, sets=["simulation.duration=0.2"],
                           reward=lambda before, after, action: after.time_s - before.time_s)
        env.reset()
        action = np.full(8, 100.0)
        action[0] = math.nan  # keeps wheel_1's target
        _, reward, _, _, info = env.step(action)
        self.assertEqual(info["clamped"], 7)
        self.assertAlmostEqual(reward, 0.05, places=9)
        _, reward, _, _, info = env.step(np.zeros(8))
        self.assertEqual(info["clamped"], 0)
        with self.assertRaisesRegex(ValueError, "period"):
            roverlab.Env(FLAT, period=0)
        with self.assertRaisesRegex(ValueError, "control.controller"):
            roverlab.Env(support.path("terrains", "climb-articulated6.json")).reset()

    def test_terminated_when_it_flips_or_leaves_the_terrain(self):
        # Driving alone at the 0.65 m step, articulated6 flips over (as `roverlab run` says).
        env = roverlab.Env(STEP, sets=["simulation.duration=6"], period=0.1)
        env.reset()
        action = roverlab.World(STEP).state["targets"]
        terminated = truncated = False
        while not (terminated or truncated):
            _, _, terminated, truncated, info = env.step(action)
        self.assertTrue(terminated)
        self.assertTrue(info["flipped"])
        self.assertEqual(info["outcome"], "ok")
        self.assertLess(info["time_s"], 6)
        self.assertTrue(env.summary()["flipped"])
        # Driven off a 3 m slab: every wheel falls below the terrain.
        env = roverlab.Env({
            "format": "roverlab-scenario", "version": 1,
            "terrain": {"boxes": [{"centre": [0, 0, -0.5], "size": [3, 4, 1]}]},
            "robot": {"preset": "wheel-rig", "pose": {"position": [0, 0]}},
            "simulation": {"duration": 10},
        }, period=0.5)
        env.reset()
        terminated = truncated = False
        while not (terminated or truncated):
            _, _, terminated, truncated, info = env.step(env.action_space.high)
        self.assertEqual((terminated, truncated, info["outcome"]), (True, False, "left_terrain"))
        self.assertIn("left the terrain", info["error"])


if __name__ == "__main__":
    unittest.main()
