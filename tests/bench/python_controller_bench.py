#!/usr/bin/env python3
"""What a Python controller costs: steps per second of terrains/step-articulated6.json
(10 s, dt 0.4 ms: 25 000 steps) stepped by roverlab.World

  - without a controller (the core alone, the scenario's 3 rad/s),
  - with a trivial Python controller at 100 Hz (reads a few obs fields, returns
    {"wheel_speed": 3}),
  - through roverlab.Env at 100 Hz (the action: every actuator's initial target),

in interleaved rounds: the medians of the steps per second, and the median
over rounds of each Python loop's rate over the core's alone in the same round
(the target: ≥ 0.7, i.e. a controller at 100 Hz costs at most 30 % of the
steps per second). The three drive the robot alike, so they
pass through the same states (same_state_hash). Driving alone, articulated6
flips over at the step (the summary's `flipped`, at about 4.7 s): the Env's
episode ends there, so its rate is compared with the core's over the same
first steps (native_env_span). Writes docs/benchmarks/python_controller.json.

  PYTHONPATH=build/python /usr/bin/python3 tests/bench/python_controller_bench.py [--rounds 15] [--out FILE]

Run it on an otherwise idle machine (it records the load average).
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

import roverlab

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import cpu_model  # noqa: E402  (tests/bench: the machine's CPU, as the other benchmarks name it)
SCENARIO = os.path.join(ROOT, "terrains", "step-articulated6.json")
PERIOD = 0.01  # s: 100 Hz


class Trivial:
    """Reads a few fields, returns a dict: what a controller costs at the least."""

    period = PERIOD

    def update(self, obs):
        self.seen = (obs.time_s, obs.base.pitch_rad, obs.wheels.wheel_front_left.slip,
                     obs.joints.fold_front.position_rad)
        return {"wheel_speed": 3.0}


def native(span):
    """Steps per second over the whole run and over its first `span` steps; the hashes at both."""
    world = roverlab.World(SCENARIO)
    total = round(world.duration / world.dt)
    start = time.perf_counter()
    world.step(span)
    first = time.perf_counter() - start
    at_span = world.state_hash
    world.step(total - span)
    wall = time.perf_counter() - start
    return total / wall, span / first, world.state_hash, at_span


def controller():
    world = roverlab.World(SCENARIO, controller=Trivial())
    total = round(world.duration / world.dt)
    start = time.perf_counter()
    world.step(total)
    wall = time.perf_counter() - start
    assert world.summary()["program"]["updates"] == round(world.duration / PERIOD)
    return total / wall, world.state_hash


def env():
    action = roverlab.World(SCENARIO).state["targets"]  # the scenario's own targets
    e = roverlab.Env(SCENARIO, period=PERIOD)
    start = time.perf_counter()
    e.reset()
    done = False
    while not done:
        obs, reward, terminated, truncated, info = e.step(action)
        done = terminated or truncated
    wall = time.perf_counter() - start
    steps = e.summary()["steps"]
    return steps / wall, steps, e.state_hash


def load_average():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks", "python_controller.json"))
    args = parser.parse_args()
    _, span, _ = env()  # warm up (imports, caches, the CPU's clock), and the Env's episode
    native(span)
    controller()
    load_before = load_average()
    rates = {"native": [], "native_env_span": [], "controller": [], "env": []}
    full_hashes, span_hashes = set(), set()
    for r in range(args.rounds):
        full, first, full_hash, span_hash = native(span)
        rates["native"].append(round(full))
        rates["native_env_span"].append(round(first))
        rate, full_hash_2 = controller()
        rates["controller"].append(round(rate))
        rate, steps, span_hash_2 = env()
        assert steps == span, (steps, span)
        rates["env"].append(round(rate))
        full_hashes |= {full_hash, full_hash_2}
        span_hashes |= {span_hash, span_hash_2}
        print(f"round {r + 1}/{args.rounds}: " + ", ".join(f"{n} {v[-1]} steps/s" for n, v in rates.items()),
              file=sys.stderr)
    median = {name: statistics.median(v) for name, v in rates.items()}
    reference = {"controller": "native", "env": "native_env_span"}
    updates_per_step = roverlab.World(SCENARIO).dt / PERIOD

    def per_update_us(name):
        return round((1 / median[name] - 1 / median[reference[name]]) / updates_per_step * 1e6, 1)

    result = {
        "machine": {"cores": os.cpu_count(), "cpu": cpu_model(), "python": platform.python_version(),
                    "numpy": np.__version__},
        "command": "PYTHONPATH=build/python /usr/bin/python3 tests/bench/python_controller_bench.py"
                   + (f" --rounds {args.rounds}" if args.rounds != 15 else ""),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average": {"before": load_before, "after": load_average()},
        "scenario": "terrains/step-articulated6.json, 10 s (25 000 steps of 0.4 ms)",
        "env_episode_steps": span,
        "env_note": "the Env's episode ends when the robot flips over at the step; "
                    "env is compared with native_env_span, the core alone over the same first steps",
        "period_s": PERIOD,
        "steps_per_s": {name: round(v) for name, v in median.items()},
        # Each round's ratio to the core's in the same round, then their median (the load drifts).
        "ratio_to_native": {name: round(statistics.median(
            a / b for a, b in zip(rates[name], rates[reference[name]])), 3) for name in reference},
        "cost_per_update_us": {name: per_update_us(name) for name in ("controller", "env")},
        "target": "controller ratio_to_native ≥ 0.7 (a 100 Hz Python controller costs ≤ 30 % of the steps per second)",
        "target_met": statistics.median(
            a / b for a, b in zip(rates["controller"], rates["native"])) >= 0.7,
        "same_state_hash": len(full_hashes) == 1 and len(span_hashes) == 1,
        "rounds": rates,
    }
    text = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
