// Heightmap benchmark, the same source natively and in WebAssembly (Node):
//  - build: a 2048 × 2048-cell heightfield (2049² samples of fractal-like
//    noise) made and built into a terrain: wall time and the bytes it keeps;
//  - speed: rocker8 and articulated6 driving for a fixed number of steps on
//    flat ground (one box) and on a rough 512 × 512-cell heightmap (0.05 m
//    cells, bumps of ±5 cm), steps per second (the median of 5 runs, flat and
//    rough in turns, so that a change of machine load hits both) and the
//    rough/flat ratio.
// Prints one JSON object to stdout. Options: --steps=N (default 20000).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/simulation.h"

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

// Steps per second of `steps` steps (after 500 to settle).
double stepsPerSecond(const std::string& text, long steps, std::string& error) {
  Expected<Scenario> s = parseScenario(text);
  if (!s) {
    error = s.message();
    return 0;
  }
  Expected<Simulation> made = makeSimulation(s.value());
  if (!made) {
    error = made.message();
    return 0;
  }
  Simulation sim = std::move(made).value();
  for (int k = 0; k < 500; ++k) advance(sim);
  const Clock::time_point t0 = Clock::now();
  for (long k = 0; k < steps; ++k)
    if (!advance(sim)) {
      error = sim.data.error;
      return 0;
    }
  return steps / since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  long steps = 20000;
  for (int a = 1; a < argc; ++a)
    if (std::strncmp(argv[a], "--steps=", 8) == 0) steps = std::atol(argv[a] + 8);

  // Build: the samples exist before the clock starts (they come from a file
  // or a generator); the clock covers the heightfield and the terrain.
  const int n = 2049;
  std::vector<float> heights(static_cast<size_t>(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) heights[static_cast<size_t>(j) * n + i] = bump(i, j, 0.5);
  const long rssBefore = peakRssKb();
  const Clock::time_point t0 = Clock::now();
  Expected<Heightfield> field = makeHeightfield(0, 0, 0.05, 0.05, n, n, std::move(heights), -2);
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
  const char* presets[] = {"rocker8", "articulated6"};
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
  std::printf("\n  ]\n}\n");
  return 0;
}
