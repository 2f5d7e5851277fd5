"""Where a step goes: the native core's instructions per step by stage, counted by callgrind.

    /usr/bin/python3 tests/bench/step_profile.py [--build=build/profile] [--seconds=2]
                                                [--out=docs/benchmarks/step_profile.json]

The build is the Release one with debug information (-O3 -g, the same code as
build/native's; the core's translation units are not inlined into each other,
so each stage of core/world/step.cpp's evaluate() is a function of its own):

    cmake -S . -B build/profile -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-g
    cmake --build build/profile --target roverlab -j 2

Each scenario runs twice under valgrind's callgrind (`roverlab run S --duration T`, T and
2T); the difference of the two counts is T seconds of stepping, without reading and
building the scenario. Instructions, not seconds: callgrind's counts are the same whatever
else the machine runs, so the shares are repeatable; a stage's share of the time is close
to its share of instructions when its instructions are alike (no cache-bound stage here:
the working set of a step is a few kB).
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
    ("statistics sampled every 10 ms", "roverlab::RunStats::sample("),
    ("energy check", "roverlab::checkEnergy("),
    ("on-terrain check", "roverlab::checkOnTerrain("),
    ("blow-up check", "roverlab::blowUpMessage["),
]
STEP = "roverlab::step("
RUN_LOOP = "roverlab::runSteps("

SCENARIOS = ["step-articulated6", "rough-field-rocker8", "rubble-articulated6", "flat-planar-vehicle"]


def callgrind(binary, scenario, seconds, folder):
    out = os.path.join(folder, f"{scenario}-{seconds}.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "run",
                    os.path.join(ROOT, "terrains", f"{scenario}.json"), "--duration", str(seconds)],
                   check=True, capture_output=True)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          check=True, capture_output=True, text=True).stdout
    costs = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$", line)
        if m and ":" in m.group(2):
            name = m.group(2).split(":", 1)[1].strip()
            costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def inclusive(costs, prefix):
    """The largest inclusive count of a function whose name starts with ``prefix`` (its
    overloads and clones are one function here; the largest is the one that is called)."""
    found = [c for name, c in costs.items() if name.startswith(prefix)]
    return max(found) if found else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "profile"))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks", "step_profile.json"))
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    args = parser.parse_args()
    binary = os.path.join(args.build, "roverlab")
    if not os.path.exists(binary):
        sys.exit(f"{binary} is missing: build it as this script's header says")
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for scenario in args.scenarios.split(","):
            once = callgrind(binary, scenario, args.seconds, folder)
            twice = callgrind(binary, scenario, 2 * args.seconds, folder)
            summary = json.loads(subprocess.run([binary, "run", os.path.join(ROOT, "terrains", f"{scenario}.json"),
                                                 "--duration", str(args.seconds)],
                                                check=True, capture_output=True, text=True).stdout)
            steps = summary["steps"]
            delta = {name: twice.get(name, 0) - once.get(name, 0) for name in twice}
            loop = inclusive(delta, RUN_LOOP)
            step = inclusive(delta, STEP)
            parts = {}
            for part, prefix in PARTS:
                parts[part] = round(inclusive(delta, prefix) / steps)
            named = sum(parts.values())
            results[scenario] = {
                "steps": steps,
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
        "build": "Release (-O3) with -g, no link-time optimisation: build/profile",
        "tool": subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip(),
        "seconds_of_stepping": args.seconds,
        "scenarios": results,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
