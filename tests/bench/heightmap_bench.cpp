// Heightmap benchmark, the same source natively and in WebAssembly (Node):
//  - build: a 2048 × 2048-cell heightfield (2049² samples of fractal-like
//    noise) made and built into a terrain: wall time and the bytes it keeps;
//  - speed: rocker8 and articulated6 driving for a fixed number of steps on
//    flat ground (one box) and on a rough 512 × 512-cell heightmap (0.05 m
//    cells, bumps of ±5 cm), steps per second (the median of 5 runs, flat and
//    rough in turns, so that a change of machine load hits both) and the
//    rough/flat ratio;
//  - queries: the wheel contact queries of those runs (flat and rough),
//    recorded and made again in a loop: nanoseconds per query (the median
//    of 5 passes) and contacts per query;
//  - meshes: a 1000 × 499-square grid mesh (998 000 triangles) built with
//    makeTriMesh, alone and inside a 100 m ground plane of 8 triangles; and
//    rocker8 and articulated6 driving on flat ground, on a bumpy 7.5 × 3.6 m
//    patch of 0.06 m triangles (an OBJ mesh, as a scan gives one) and on that
//    patch inside the ground plane, steps per second (medians of 5, in turns),
//    and the patch's wheel contact queries in a loop (as "queries").
// Prints one JSON object to stdout. Options: --steps=N (default 20000);
// --speed-only: only the speed section (heightmap_bench.sh runs it in
// several processes: a process's memory layout and, in WebAssembly, its
// compiled code vary the rough/flat ratio by a few hundredths);
// --meshes-only: only the meshes' speed section, likewise.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "contact/wheel_contact.h"
#include "scenario/scenario.h"
#include "sim/simulation.h"
#include "terrain/trimesh.h"

#if !defined(__EMSCRIPTEN__)
#include <sys/resource.h>
#endif

using namespace roverlab;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Smooth bumps of several wavelengths, ±amplitude (m) at most: a stand-in for
// a scanned or generated rough field, deterministic.
float bump(int i, int j, double amplitude) {
  double z = 0, w = 0.5;
  for (int o = 0; o < 4; ++o, w *= 0.5) {
    const double f = 0.11 * (1 << o);
    z += w * std::sin(f * i + 1.3 * o) * std::cos(0.87 * f * j + 0.7 * o);
  }
  return static_cast<float>(amplitude * z / 0.9375);
}

long peakRssKb() {
#if defined(__EMSCRIPTEN__)
  return -1;
#else
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
#endif
}

std::string scenarioText(const std::string& preset, bool rough) {
  std::string terrain;
  if (rough) {
    const int n = 513;
    std::string rows;
    rows.reserve(static_cast<size_t>(n) * n * 8);
    char buf[32];
    for (int j = 0; j < n; ++j) {
      rows += j ? ",[" : "[";
      for (int i = 0; i < n; ++i) {
        std::snprintf(buf, sizeof buf, i ? ",%.4f" : "%.4f", bump(i, j, 0.05));
        rows += buf;
      }
      rows += "]";
    }
    terrain =
        R"({"heightmaps": [{"origin": [-4, -12.8], "cell": 0.05, "heights": [)" + rows + "]}]}";
  } else {
    terrain = R"({"boxes": [{"centre": [8, 0, -0.5], "size": [26, 26, 1]}]})";
  }
  return R"({"format": "roverlab-scenario", "version": 1, "terrain": )" + terrain +
         R"(, "robot": {"preset": ")" + preset +
         R"(", "pose": {"position": [0, 0]}}, "control": {"wheel_speed": 2}})";
}

// A grid mesh of nx × ny squares of side `cell` (m) from (x0, y0), heights
// bump(i, j, amplitude), diagonals alternating; with `plane`, eight triangles
// around it out to 100 m, 1 mm apart from it, at its lowest height.
void gridMesh(int nx, int ny, double cell, double x0, double y0, double amplitude, bool plane,
              std::vector<Vec3>& v, std::vector<std::array<int, 3>>& t) {
  double low = 0;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      v.emplace_back(x0 + i * cell, y0 + j * cell, bump(i, j, amplitude));
      low = std::min(low, v.back().z());
    }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 2, d = a + nx + 1;
      if ((i + j) % 2) {
        t.push_back({a, b, c});
        t.push_back({a, c, d});
      } else {
        t.push_back({a, b, d});
        t.push_back({b, c, d});
      }
    }
  if (!plane) return;
  const double g = 0.001, far = 100, x1 = x0 + nx * cell, y1 = y0 + ny * cell;
  const int s = static_cast<int>(v.size());
  v.insert(v.end(),
           {Vec3(x0 - g, y0 - g, low), Vec3(x1 + g, y0 - g, low), Vec3(x1 + g, y1 + g, low),
            Vec3(x0 - g, y1 + g, low), Vec3(x0 - far, y0 - far, low), Vec3(x1 + far, y0 - far, low),
            Vec3(x1 + far, y1 + far, low), Vec3(x0 - far, y1 + far, low)});
  for (int k = 0; k < 4; ++k) {
    const int a = s + k, b = s + (k + 1) % 4;
    t.push_back({a, a + 4, b + 4});
    t.push_back({a, b + 4, b});
  }
}

// The scenario of `preset` on the bumpy patch (with or without its ground plane), as OBJ text.
std::string meshScenarioText(const std::string& preset, bool plane) {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  gridMesh(125, 60, 0.06, -1.5, -1.8, 0.04, plane, v, t);
  std::string obj;
  char buf[96];
  for (const Vec3& p : v) {
    std::snprintf(buf, sizeof buf, "v %.4f %.4f %.4f\\n", p.x(), p.y(), p.z());
    obj += buf;
  }
  for (const std::array<int, 3>& f : t) {
    std::snprintf(buf, sizeof buf, "f %d %d %d\\n", f[0] + 1, f[1] + 1, f[2] + 1);
    obj += buf;
  }
  return R"({"format": "roverlab-scenario", "version": 1, "terrain": {"meshes": [{"obj": ")" + obj +
         R"("}]}, "robot": {"preset": ")" + preset +
         R"(", "pose": {"position": [0, 0]}}, "control": {"wheel_speed": 2}})";
}

// Seconds to build (makeTriMesh) the 1000 × 499-square mesh, with or without its ground plane.
double meshBuildSeconds(bool plane, long& triangles, std::string& error) {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> t;
  gridMesh(1000, 499, 0.05, 0, 0, 0.2, plane, v, t);
  triangles = static_cast<long>(t.size());
  const Clock::time_point t0 = Clock::now();
  Expected<TriMesh> mesh = makeTriMesh(std::move(v), std::move(t), -2);
  const double seconds = since(t0);
  if (!mesh) error += mesh.message();
  return seconds;
}

// The scenario's simulation after 500 steps to settle; empty (with `error`)
// when it cannot be made.
std::optional<Simulation> settled(const std::string& text, std::string& error) {
  Expected<Scenario> s = parseScenario(text);
  if (!s) {
    error = s.message();
    return std::nullopt;
  }
  Expected<Simulation> made = makeSimulation(s.value());
  if (!made) {
    error = made.message();
    return std::nullopt;
  }
  std::optional<Simulation> sim(std::move(made).value());
  for (int k = 0; k < 500; ++k) advance(*sim);
  return sim;
}

// Steps per second of `steps` steps (after 500 to settle).
double stepsPerSecond(const std::string& text, long steps, std::string& error) {
  std::optional<Simulation> made = settled(text, error);
  if (!made) return 0;
  Simulation& sim = *made;
  const Clock::time_point t0 = Clock::now();
  for (long k = 0; k < steps; ++k)
    if (!advance(sim)) {
      error = sim.data.error;
      return 0;
    }
  return steps / since(t0);
}

// Nanoseconds per wheel contact query (wheelContacts, as the step calls it):
// the wheels' centres and axles of `steps` steps (after 500 to settle) are
// recorded, then queried again in the same order with the step's own
// buffers; the median of 5 passes. `contacts` gets the contacts per query.
double nsPerQuery(const std::string& text, long steps, double& contacts, std::string& error) {
  std::optional<Simulation> made = settled(text, error);
  if (!made) return 0;
  Simulation& sim = *made;
  std::vector<std::array<Vec3, 2>> at;  // centre, axle
  for (long k = 0; k < steps; ++k) {
    if (!advance(sim)) {
      error = sim.data.error;
      return 0;
    }
    for (const WheelResult& w : sim.data.wheels) at.push_back({w.centre, w.axle});
  }
  const std::vector<WheelModel>& wheels = sim.model.robot.wheels;
  std::vector<WheelContact> out;
  out.reserve(16);
  std::vector<double> passes;
  long found = 0;
  for (int pass = 0; pass < 5; ++pass) {
    found = 0;
    const Clock::time_point t0 = Clock::now();
    for (size_t q = 0; q < at.size(); ++q) {
      useWheelNearLists(sim.data.wheelScratch, q % wheels.size());
      found += wheelContacts(*sim.model.terrain, wheels[q % wheels.size()].shape, at[q][0],
                             at[q][1], sim.data.wheelScratch, out);
    }
    passes.push_back(since(t0) * 1e9 / static_cast<double>(at.size()));
  }
  std::sort(passes.begin(), passes.end());
  contacts = static_cast<double>(found) / static_cast<double>(at.size());
  return passes[2];
}

const char* const presets[] = {"rocker8", "articulated6"};

// Prints the "speed" entries: per preset, steps per second on flat ground
// and on the rough field (medians of 5 runs, in turns) and their ratio.
void printSpeed(long steps) {
  for (int p = 0; p < 2; ++p) {
    std::string errorFlat, errorRough;
    const std::string flatText = scenarioText(presets[p], false);
    const std::string roughText = scenarioText(presets[p], true);
    std::vector<double> flats, roughs;
    for (int run = 0; run < 5; ++run) {
      flats.push_back(stepsPerSecond(flatText, steps, errorFlat));
      roughs.push_back(stepsPerSecond(roughText, steps, errorRough));
    }
    std::sort(flats.begin(), flats.end());
    std::sort(roughs.begin(), roughs.end());
    const double flat = flats[2], rough = roughs[2];
    std::printf(
        "%s\n    {\"preset\": \"%s\", \"steps\": %ld, \"runs\": 5, \"flat_steps_per_s\": %.0f, "
        "\"rough_512_steps_per_s\": %.0f, \"rough_over_flat\": %.3f, \"error\": \"%s\"}",
        p ? "," : "", presets[p], steps, flat, rough, flat > 0 ? rough / flat : 0.0,
        (errorFlat + errorRough).c_str());
    std::fflush(stdout);
  }
}

// Prints the meshes' "speed" entries: per preset, steps per second on flat
// ground, on the bumpy patch and on the patch in its ground plane (medians of
// 5 runs, in turns) and the patch's ratios to flat.
void printMeshSpeed(long steps) {
  for (int p = 0; p < 2; ++p) {
    std::string errors[3];
    const std::string texts[3] = {scenarioText(presets[p], false),
                                  meshScenarioText(presets[p], false),
                                  meshScenarioText(presets[p], true)};
    std::vector<double> runs[3];
    for (int run = 0; run < 5; ++run)
      for (int k = 0; k < 3; ++k) runs[k].push_back(stepsPerSecond(texts[k], steps, errors[k]));
    double median[3];
    for (int k = 0; k < 3; ++k) {
      std::sort(runs[k].begin(), runs[k].end());
      median[k] = runs[k][2];
    }
    double contacts = 0;
    const double ns = nsPerQuery(texts[1], steps, contacts, errors[1]);
    std::printf(
        "%s\n      {\"preset\": \"%s\", \"steps\": %ld, \"runs\": 5, \"flat_steps_per_s\": "
        "%.0f, \"patch_steps_per_s\": %.0f, \"patch_in_plane_steps_per_s\": %.0f, "
        "\"patch_over_flat\": %.3f, \"patch_in_plane_over_flat\": %.3f, "
        "\"patch_ns_per_query\": %.1f, \"patch_contacts_per_query\": %.3f, \"error\": \"%s\"}",
        p ? "," : "", presets[p], steps, median[0], median[1], median[2],
        median[0] > 0 ? median[1] / median[0] : 0.0, median[0] > 0 ? median[2] / median[0] : 0.0,
        ns, contacts, (errors[0] + errors[1] + errors[2]).c_str());
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  long steps = 20000;
  bool speedOnly = false, meshesOnly = false;
  for (int a = 1; a < argc; ++a) {
    if (std::strncmp(argv[a], "--steps=", 8) == 0) steps = std::atol(argv[a] + 8);
    if (std::strcmp(argv[a], "--speed-only") == 0) speedOnly = true;
    if (std::strcmp(argv[a], "--meshes-only") == 0) meshesOnly = true;
  }
  if (speedOnly) {
    std::printf("{\n  \"speed\": [");
    printSpeed(steps);
    std::printf("\n  ]\n}\n");
    return 0;
  }
  if (meshesOnly) {
    std::printf("{\n  \"meshes\": {\n    \"speed\": [");
    printMeshSpeed(steps);
    std::printf("\n    ]\n  }\n}\n");
    return 0;
  }

  // Build: the samples exist before the clock starts (they come from a file
  // or a generator); the clock covers the heightfield and the terrain.
  const int n = 2049;
  HeightfieldSpec spec;
  spec.dx = spec.dy = 0.05;
  spec.nx = spec.ny = n;
  spec.heights.resize(static_cast<size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) spec.heights[static_cast<size_t>(j) * n + i] = bump(i, j, 0.5);
  spec.base = -2;
  const long rssBefore = peakRssKb();
  const Clock::time_point t0 = Clock::now();
  Expected<Heightfield> field = makeHeightfield(std::move(spec));
  TerrainBuilder builder;
  builder.addHeightfield(std::move(field).value());
  Expected<Terrain> terrain = std::move(builder).build();
  const double buildS = since(t0);
  const long rssAfter = peakRssKb();
  const Heightfield& built = terrain.value().heightfields[0];
  const size_t kept =
      (built.heights.capacity() + built.cellTop.capacity() + built.blockTop.capacity()) *
      sizeof(float);

  std::printf(
      "{\n  \"build\": {\"cells\": \"2048 x 2048\", \"samples\": %d, \"seconds\": %.4f, "
      "\"bytes_kept\": %zu, \"bytes_per_sample\": %.2f, \"peak_rss_kb_before\": %ld, "
      "\"peak_rss_kb_after\": %ld},\n  \"speed\": [",
      n * n, buildS, kept, static_cast<double>(kept) / (static_cast<double>(n) * n), rssBefore,
      rssAfter);
  printSpeed(steps);
  std::printf("\n  ],\n  \"queries\": [");
  for (int p = 0; p < 2; ++p) {
    std::string error;
    double flatContacts = 0, roughContacts = 0;
    const double flat = nsPerQuery(scenarioText(presets[p], false), steps, flatContacts, error);
    const double rough = nsPerQuery(scenarioText(presets[p], true), steps, roughContacts, error);
    std::printf(
        "%s\n    {\"preset\": \"%s\", \"steps\": %ld, \"passes\": 5, \"flat_ns_per_query\": "
        "%.1f, \"rough_512_ns_per_query\": %.1f, \"flat_contacts_per_query\": %.3f, "
        "\"rough_512_contacts_per_query\": %.3f, \"error\": \"%s\"}",
        p ? "," : "", presets[p], steps, flat, rough, flatContacts, roughContacts, error.c_str());
    std::fflush(stdout);
  }
  std::printf("\n  ],\n  \"meshes\": {\n    \"build\": [");
  for (int plane = 0; plane < 2; ++plane) {
    long triangles = 0;
    std::string error;
    const double seconds = meshBuildSeconds(plane, triangles, error);
    std::printf(
        "%s\n      {\"mesh\": \"%s\", \"triangles\": %ld, \"seconds\": %.4f, \"error\": "
        "\"%s\"}",
        plane ? "," : "",
        plane ? "1000 x 499 squares in a 100 m ground plane" : "1000 x 499 squares", triangles,
        seconds, error.c_str());
    std::fflush(stdout);
  }
  std::printf("\n    ],\n    \"speed\": [");
  printMeshSpeed(steps);
  std::printf("\n    ]\n  }\n}\n");
  return 0;
}
