"""Where a step goes: the native core's instructions per step by stage, counted by callgrind.

    /usr/bin/python3 tests/bench/step_profile.py [--build=build/profile] [--seconds=2]
                                                [--out=docs/benchmarks/step_profile.json]

The build is a Release one (-O3, clang, as build/native) in its own folder;
callgrind names functions from the symbol table. The core's translation units are not
inlined into each other (no link-time optimisation, which build/native's command-line tool
has), so each stage of core/world/step.cpp's evaluate() is a function of its own:

    cmake -S . -B build/profile -DCMAKE_BUILD_TYPE=Release -DROVERLAB_NATIVE_LTO=OFF
    cmake --build build/profile --target roverlab -j 2

Each scenario runs twice under valgrind's callgrind: `roverlab run S` for its whole
duration, and for one step; the difference of the two counts is the run's stepping, without
reading and building the scenario. Instructions, not seconds: callgrind's counts are the
same whatever else the machine runs, so the shares are repeatable; a stage's share of the
time is close to its share of instructions when its instructions are alike (no stage here
waits on memory: the working set of a step is a few kB).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: The stages of a step (core/world/step.cpp, evaluate and integrate), by the function
#: each is; then what the command line's loop adds per step (sim/run.cpp, simulation.cpp).
PARTS = [
    ("kinematics", "roverlab::forwardKinematics("),
    ("wheel contact queries", "roverlab::wheelContactStage("),
    ("tire forces", "roverlab::tireForceStage("),
    ("body contact", "roverlab::bodyContactStage("),
    ("joint forces", "roverlab::jointForceStage("),
    ("articulated-body dynamics", "roverlab::abaFromKinematics("),
    ("mimic constraints", "roverlab::mimicStage("),
    ("position integration", "roverlab::integratePositions("),
    ("statistics sampled every 10 ms", "roverlab::RunStats::sample("),
    ("energy check (the mechanical energy every 1 ms)", "roverlab::mechanicalEnergy("),
]
STEP = "roverlab::step("
RUN_LOOP = "roverlab::runSteps("

SCENARIOS = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "terrains")) if f.endswith(".json"))


def callgrind(binary, scenario, duration, folder):
    """Inclusive instruction counts by function of `roverlab run` (its whole duration, or
    `duration` seconds), and the run's summary."""
    out = os.path.join(folder, f"{scenario}-{duration}.out")
    command = [binary, "run", os.path.join(ROOT, "terrains", f"{scenario}.json")]
    if duration is not None:
        command += ["--duration", repr(duration)]
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                         check=True, capture_output=True, text=True)
    summary = json.loads(run.stdout)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          check=True, capture_output=True, text=True).stdout
    costs = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$", line)
        if m and ":" in m.group(2):
            name = m.group(2).split(":", 1)[1].strip()
            costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs, summary


def inclusive(costs, prefix):
    """The largest inclusive count of a function whose name starts with ``prefix`` (its
    overloads and clones are one function here; the largest is the one that is called)."""
    found = [c for name, c in costs.items() if name.startswith(prefix)]
    return max(found) if found else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "profile"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks", "step_profile.json"))
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    args = parser.parse_args()
    binary = os.path.join(args.build, "roverlab")
    if not os.path.exists(binary):
        sys.exit(f"{binary} is missing: build it as this script's header says")
    cache = os.path.join(args.build, "CMakeCache.txt")
    if "ROVERLAB_NATIVE_LTO:BOOL=OFF" not in open(cache, encoding="utf-8").read():
        sys.exit(f"{args.build} links with -flto (its stages are inlined): configure it as this script's header says")
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for scenario in args.scenarios.split(","):
            with open(os.path.join(ROOT, "terrains", f"{scenario}.json"), encoding="utf-8") as f:
                dt = json.load(f).get("simulation", {}).get("dt", 0.0004)
            whole, summary = callgrind(binary, scenario, None, folder)
            one, first = callgrind(binary, scenario, dt, folder)
            steps = summary["steps"] - first["steps"]
            delta = {name: whole.get(name, 0) - one.get(name, 0) for name in whole}
            loop = inclusive(delta, RUN_LOOP)
            step = inclusive(delta, STEP)
            parts = {}
            for part, prefix in PARTS:
                parts[part] = round(inclusive(delta, prefix) / steps)
            named = sum(parts.values())
            results[scenario] = {
                "steps": steps,
                "outcome": summary.get("outcome"),
                "instructions_per_step": round(loop / steps),
                "step_instructions_per_step": round(step / steps),
                "parts_instructions_per_step": parts,
                "parts_share": {p: round(v * steps / loop, 4) for p, v in parts.items()},
                "rest_share": round(1 - named * steps / loop, 4),
            }
            print(scenario, results[scenario]["instructions_per_step"], "instructions per step",
                  file=sys.stderr)
    doc = {
        "command": "/usr/bin/python3 tests/bench/step_profile.py",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "build": "Release (-O3), no link-time optimisation: build/profile",
        "tool": subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip(),
        "what": "instructions per step of each scenario's whole run, by stage: inclusive counts of the "
                "function each stage is; rest_share is the step's other work (integrating v, copying the "
                "state, the blow-up and on-terrain checks) and the run loop's",
        "scenarios": results,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
