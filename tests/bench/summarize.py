#!/usr/bin/env python3
"""Assembles docs/benchmarks/summary.json from the three result files written by
tests/bench/run.sh (contact_native.json, portable_native.json, portable_wasm.json).
Prints the summary to stdout."""

import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess

POOLS = ["hull6_12", "box8", "cube8"]
MIXES = ["outside_near", "near_face", "inside", "far", "mixed"]
PATHS = ["walk", "random"]
SIZES = ["10", "1000", "100000"]
NEAR_TARGET_NS = 50.0  # median per query, points near 8-vertex polytopes, native
GROWTH_TARGET = 1.3    # wheel-contact cost, 100 000 pieces over 10 pieces


def first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
        text = (out.stdout or out.stderr).strip()
        return text.splitlines()[0] if text else None
    except (OSError, subprocess.SubprocessError):
        return None


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def core_digest():
    """SHA-256 over core/**/*.h and *.cpp (paths and contents): which core was measured."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core")
    h = hashlib.sha256()
    files = []
    for d, _, names in os.walk(root):
        files += [os.path.join(d, n) for n in names if n.endswith((".h", ".cpp"))]
    for f in sorted(files):
        h.update(os.path.relpath(f, root).encode())
        with open(f, "rb") as fh:
            h.update(fh.read())
    return {"sha256": h.hexdigest(), "files": len(files)}


def dpkg_version(pkg):
    return first_line(["dpkg-query", "-W", "-f=${Version}", pkg])


def median_times(contact):
    """run_name -> median real_time (ns) and counters from Google Benchmark JSON."""
    out = {}
    for b in contact["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median":
            assert b.get("time_unit", "ns") == "ns", b
            out[b["run_name"]] = b
    return out


def cv_of(contact):
    out = {}
    for b in contact["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "cv":
            out[b["run_name"]] = b["real_time"]
    return out


def r3(x):
    return None if x is None else round(x, 3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--load-before", default=None)
    ap.add_argument("--load-after", default=None)
    ap.add_argument("--native-cxx", default="c++")
    ap.add_argument("--core-digest-at-build", default=None,
                    help="core_digest() taken before building, to detect edits during the run")
    a = ap.parse_args()

    def load(name):
        with open(os.path.join(a.out_dir, name), encoding="utf-8") as f:
            return json.load(f)

    contact = load("contact_native.json")
    pnative = load("portable_native.json")["results"]
    pwasm = load("portable_wasm.json")["results"]
    med = median_times(contact)
    cv = cv_of(contact)

    point = {}
    for pool in POOLS:
        point[pool] = {}
        for mix in MIXES:
            b = med.get(f"point/{pool}/{mix}")
            if b:
                point[pool][mix] = {
                    "median_ns": r3(b["real_time"]),
                    "cv": r3(cv.get(f"point/{pool}/{mix}")),
                    "gjk_fraction": r3(b.get("gjk_frac")),
                    "reference_mismatches": b.get("mismatch"),
                }

    hot = {}
    for pool in ("box8", "cube8"):
        for mix in ("outside_near", "near_face"):
            b = med.get(f"point_hot/{pool}/{mix}")
            if b:
                hot[f"{pool}/{mix}"] = r3(b["real_time"])

    wheel = {}
    for path in PATHS:
        ns = {}
        for size in SIZES:
            b = med.get(f"wheel/{path}/{size}")
            if b:
                ns[size] = {
                    "median_ns": r3(b["real_time"]),
                    "cv": r3(cv.get(f"wheel/{path}/{size}")),
                    "contacts": r3(b.get("contacts")),
                    "candidates": r3(b.get("candidates")),
                }
        growth = None
        if "10" in ns and "100000" in ns:
            growth = ns["100000"]["median_ns"] / ns["10"]["median_ns"]
        wheel[path] = {"ns_per_query": ns, "growth_10_to_100000": r3(growth)}

    ratios = {}
    for name, n in pnative.items():
        w = pwasm.get(name)
        if w:
            ratios[name] = {
                "native_ns": r3(n["median_ns"]),
                "wasm_ns": r3(w["median_ns"]),
                "wasm_over_native": r3(w["median_ns"] / n["median_ns"]),
            }

    near_cases = {
        f"{pool}/{mix}": point[pool][mix]["median_ns"]
        for pool in ("box8", "cube8")
        for mix in ("near_face", "outside_near")
        if mix in point.get(pool, {})
    }
    targets = {
        "near_8_vertex_median_ns": {
            "target_ns": NEAR_TARGET_NS,
            "cases": near_cases,
            "met": all(v <= NEAR_TARGET_NS for v in near_cases.values()) if near_cases else None,
        },
        "wheel_growth_10_to_100000": {
            "target": GROWTH_TARGET,
            "walk": wheel["walk"]["growth_10_to_100000"],
            "random": wheel["random"]["growth_10_to_100000"],
            "met_walk": None if wheel["walk"]["growth_10_to_100000"] is None
            else wheel["walk"]["growth_10_to_100000"] <= GROWTH_TARGET,
            "met_random": None if wheel["random"]["growth_10_to_100000"] is None
            else wheel["random"]["growth_10_to_100000"] <= GROWTH_TARGET,
        },
    }

    ctx = contact.get("context", {})
    summary = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": a.command,
        "core_sources": dict(core_digest(), sha256_at_build=a.core_digest_at_build),
        "machine": {
            "nproc": os.cpu_count(),
            "cpu_model": cpu_model(),
            "mhz_per_cpu": ctx.get("mhz_per_cpu"),
            "caches": ctx.get("caches"),
            "kernel": platform.release(),
            "load_average_before": a.load_before,
            "load_average_after": a.load_after,
        },
        "compilers": {
            "native_cxx": first_line([a.native_cxx, "--version"]),
            "emscripten": first_line(["emcc", "--version"]),
            "node": first_line(["node", "--version"]),
            "cmake": first_line(["cmake", "--version"]),
            "google_benchmark": dpkg_version("libbenchmark-dev"),
            "google_benchmark_build_type": ctx.get("library_build_type"),
            "portable_native_compiler": load("portable_native.json").get("compiler"),
            "portable_wasm_compiler": load("portable_wasm.json").get("compiler"),
        },
        "units": "ns per query; native numbers are Google Benchmark medians of 5 repetitions "
                 "(real time); WASM/native ratios use the portable std::chrono benchmark, "
                 "same source in both builds (median of 7 runs)",
        "point_distance_native": point,
        "point_distance_native_hot_pool16": hot,
        "wheel_contacts_native": wheel,
        "portable_wasm_over_native": ratios,
        "targets": targets,
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
