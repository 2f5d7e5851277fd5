// Portable benchmark: the cases of contact_bench.cpp timed with std::chrono
// from a plain main(), so the same source builds natively and to WebAssembly
// (Node) and the WASM/native ratio compares like with like.
//
// Each case: one warm-up pass over its 4096 queries, then a repetition count
// calibrated so that one run lasts about --run-ms milliseconds, then --runs runs;
// the result is the median (and min) of the runs' ns per query. Prints one JSON
// object to stdout; progress goes to stderr.
//
// Options: --runs=N (default 7), --run-ms=MS (default 25), --filter=SUBSTRING.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_scenes.h"

namespace rb = roverlab::bench;

namespace {

struct Options {
  int runs = 7;
  double runMs = 25;
  std::string filter;
};

struct CaseResult {
  std::string name;
  double medianNs = 0, minNs = 0;
  std::vector<double> runsNs;
  long queriesPerRun = 0;
  std::vector<std::pair<std::string, double>> info;
};

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double sink = 0;  // every query's result feeds it, so no query can be elided

/// Times `pass` (one pass = `perPass` queries).
template <class Pass>
CaseResult timeCase(const std::string& name, long perPass, const Options& opt, Pass&& pass) {
  CaseResult r;
  r.name = name;
  sink += pass();  // warm-up
  // Calibrate: passes per run so a run lasts about runMs.
  long passes = 1;
  for (;;) {
    const Clock::time_point t0 = Clock::now();
    for (long k = 0; k < passes; ++k) sink += pass();
    const double s = secondsSince(t0);
    if (s >= 0.2 * opt.runMs * 1e-3 || passes >= (1L << 30)) {
      passes = std::max(1L, static_cast<long>(passes * (opt.runMs * 1e-3 / std::max(s, 1e-9))));
      break;
    }
    passes *= 4;
  }
  r.queriesPerRun = passes * perPass;
  for (int run = 0; run < opt.runs; ++run) {
    const Clock::time_point t0 = Clock::now();
    for (long k = 0; k < passes; ++k) sink += pass();
    r.runsNs.push_back(secondsSince(t0) * 1e9 / static_cast<double>(r.queriesPerRun));
  }
  std::vector<double> sorted = r.runsNs;
  std::sort(sorted.begin(), sorted.end());
  r.medianNs = sorted[sorted.size() / 2];
  r.minNs = sorted.front();
  std::fprintf(stderr, "%-28s %10.1f ns/query (min %.1f)\n", name.c_str(), r.medianNs, r.minNs);
  return r;
}

bool selected(const Options& opt, const std::string& name) {
  return opt.filter.empty() || name.find(opt.filter) != std::string::npos;
}

std::string jsonNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

const char* buildName() {
#ifdef __EMSCRIPTEN__
  return "wasm";
#else
  return "native";
#endif
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (!std::strncmp(a, "--runs=", 7))
      opt.runs = std::max(1, std::atoi(a + 7));
    else if (!std::strncmp(a, "--run-ms=", 9))
      opt.runMs = std::max(1.0, std::atof(a + 9));
    else if (!std::strncmp(a, "--filter=", 9))
      opt.filter = a + 9;
    else {
      std::fprintf(stderr, "usage: %s [--runs=N] [--run-ms=MS] [--filter=SUBSTRING]\n", argv[0]);
      return 1;
    }
  }

  std::vector<CaseResult> results;
  const Clock::time_point start = Clock::now();

  for (rb::Pool pool : {rb::Pool::Hull6to12, rb::Pool::Box8, rb::Pool::Cube8})
    for (rb::Mix mix :
         {rb::Mix::OutsideNear, rb::Mix::NearFace, rb::Mix::Inside, rb::Mix::Far, rb::Mix::Mixed}) {
      const std::string name = std::string("point/") + rb::poolName(pool) + "/" + rb::mixName(mix);
      if (!selected(opt, name)) continue;
      const rb::PointScene scene = rb::makePointScene(pool, mix);
      const std::vector<rb::PointQuery>& qs = scene.queries;
      CaseResult r = timeCase(name, static_cast<long>(qs.size()), opt, [&qs] {
        double acc = 0;
        for (const rb::PointQuery& q : qs) {
          const roverlab::PointDistance pd = roverlab::pointDistance(*q.poly, q.point, q.radius);
          acc += pd.distance + pd.iterations;
        }
        return acc;
      });
      r.info = {{"gjk_frac", scene.gjkFraction}, {"gjk_iters", scene.gjkIterations},
                {"mismatch", scene.mismatches},  {"far_unflagged", scene.farUnflagged},
                {"verts", scene.meanVertices},   {"checksum", scene.checksum}};
      results.push_back(std::move(r));
    }

  for (int pieces : rb::kTerrainSizes) {
    bool any = false;
    for (rb::WheelPath path : {rb::WheelPath::Walk, rb::WheelPath::Random})
      any = any || selected(opt, std::string("wheel/") + rb::pathName(path) + "/" +
                                     std::to_string(pieces));
    if (!any) continue;
    const Clock::time_point t0 = Clock::now();
    const rb::GridTerrain grid = rb::makeGridTerrain(pieces);
    const double buildSeconds = secondsSince(t0);
    for (rb::WheelPath path : {rb::WheelPath::Walk, rb::WheelPath::Random}) {
      const std::string name =
          std::string("wheel/") + rb::pathName(path) + "/" + std::to_string(pieces);
      if (!selected(opt, name)) continue;
      const rb::WheelScene scene = rb::makeWheelScene(grid, path);
      std::vector<roverlab::WheelContact> out;
      out.reserve(16);
      roverlab::WheelContactScratch scratch;  // kept between queries, as the step keeps it
      CaseResult r = timeCase(name, static_cast<long>(scene.poses.size()), opt, [&] {
        double acc = 0;
        for (const rb::WheelPose& pose : scene.poses) {
          const int n = roverlab::wheelContacts(grid.terrain, scene.wheel, pose.centre, pose.axle,
                                                scratch, out);
          acc += n + (n ? out[0].deflection : 0.0);
        }
        return acc;
      });
      r.info = {{"contacts", scene.meanContacts},
                {"candidates", scene.meanCandidates},
                {"pieces", static_cast<double>(grid.terrain.pieces.size())},
                {"checksum", scene.checksum},
                {"terrain_build_s", buildSeconds}};
      results.push_back(std::move(r));
    }
  }

  std::printf("{\n  \"suite\": \"roverlab_bench_portable\",\n  \"build\": \"%s\",\n", buildName());
  std::printf("  \"compiler\": \"%s\",\n", __VERSION__);
  std::printf("  \"runs\": %d,\n  \"run_ms\": %s,\n  \"unit\": \"ns per query\",\n", opt.runs,
              jsonNumber(opt.runMs).c_str());
  std::printf("  \"total_seconds\": %s,\n  \"results\": {",
              jsonNumber(secondsSince(start)).c_str());
  for (size_t i = 0; i < results.size(); ++i) {
    const CaseResult& r = results[i];
    std::printf(
        "%s\n    \"%s\": {\"median_ns\": %s, \"min_ns\": %s, \"queries_per_run\": %ld, "
        "\"runs_ns\": [",
        i ? "," : "", r.name.c_str(), jsonNumber(r.medianNs).c_str(), jsonNumber(r.minNs).c_str(),
        r.queriesPerRun);
    for (size_t k = 0; k < r.runsNs.size(); ++k)
      std::printf("%s%s", k ? ", " : "", jsonNumber(r.runsNs[k]).c_str());
    std::printf("]");
    for (const auto& [key, value] : r.info)
      std::printf(", \"%s\": %s", key.c_str(), jsonNumber(value).c_str());
    std::printf("}");
  }
  std::printf("\n  },\n  \"sink\": %s\n}\n", jsonNumber(sink).c_str());
  return 0;
}
