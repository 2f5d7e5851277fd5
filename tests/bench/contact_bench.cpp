// Google Benchmark suite for the contact hot path. One iteration = one query,
// so the reported time per iteration is the time per query.
//
//   point/<pool>/<mix>   pointDistance on a pool of 1024 random polytopes with
//                        4096 precomputed query points, cycled
//   point_hot/<pool>/<mix>  the same on a pool of 16 polytopes (cache-resident;
//                        diagnostic: separates arithmetic from memory traffic)
//   wheel/<path>/<n>     wheelContacts of one wheel on a grid terrain of n pieces
//
// Counters (computed at setup, untimed): gjk_frac = share of queries that reach
// GJK, gjk_iters = mean GJK iterations of those, mismatch = queries where the
// core disagrees with the brute-force reference (should be 0), far_unflagged =
// queries beyond the radius not reported as Feature::Far, verts = mean
// vertex count; contacts = mean contacts per wheel query, candidates = mean
// broadphase candidates per wheel query.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "bench_scenes.h"

namespace rb = roverlab::bench;
using roverlab::PointDistance;
using roverlab::WheelContact;

namespace {

const rb::PointScene& pointScene(rb::Pool pool, rb::Mix mix, int polytopes) {
  static std::map<std::tuple<int, int, int>, std::unique_ptr<rb::PointScene>> cache;
  auto& slot = cache[{static_cast<int>(pool), static_cast<int>(mix), polytopes}];
  if (!slot) slot = std::make_unique<rb::PointScene>(rb::makePointScene(pool, mix, polytopes));
  return *slot;
}

const rb::GridTerrain& gridTerrain(int pieces) {
  static std::map<int, std::unique_ptr<rb::GridTerrain>> cache;
  auto& slot = cache[pieces];
  if (!slot) slot = std::make_unique<rb::GridTerrain>(rb::makeGridTerrain(pieces));
  return *slot;
}

const rb::WheelScene& wheelScene(rb::WheelPath path, int pieces) {
  static std::map<std::pair<int, int>, std::unique_ptr<rb::WheelScene>> cache;
  auto& slot = cache[{static_cast<int>(path), pieces}];
  if (!slot) slot = std::make_unique<rb::WheelScene>(rb::makeWheelScene(gridTerrain(pieces), path));
  return *slot;
}

void pointBench(benchmark::State& state, rb::Pool pool, rb::Mix mix, int polytopes) {
  const rb::PointScene& scene = pointScene(pool, mix, polytopes);
  const rb::PointQuery* queries = scene.queries.data();
  const size_t mask = scene.queries.size() - 1;
  size_t i = 0;
  for (auto _ : state) {
    const rb::PointQuery& q = queries[i];
    i = (i + 1) & mask;
    PointDistance pd = roverlab::pointDistance(*q.poly, q.point, q.radius);
    benchmark::DoNotOptimize(pd);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["gjk_frac"] = scene.gjkFraction;
  state.counters["gjk_iters"] = scene.gjkIterations;
  state.counters["mismatch"] = scene.mismatches;
  state.counters["far_unflagged"] = scene.farUnflagged;
  state.counters["verts"] = scene.meanVertices;
}

void wheelBench(benchmark::State& state, rb::WheelPath path, int pieces) {
  const rb::WheelScene& scene = wheelScene(path, pieces);
  const roverlab::Terrain& terrain = scene.grid->terrain;
  const rb::WheelPose* poses = scene.poses.data();
  const size_t mask = scene.poses.size() - 1;
  std::vector<WheelContact> out;
  out.reserve(16);
  roverlab::WheelContactScratch scratch;  // kept between queries, as the step keeps it
  size_t i = 0;
  for (auto _ : state) {
    const rb::WheelPose& pose = poses[i];
    i = (i + 1) & mask;
    int n = roverlab::wheelContacts(terrain, scene.wheel, pose.centre, pose.axle, scratch, out);
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["contacts"] = scene.meanContacts;
  state.counters["candidates"] = scene.meanCandidates;
  state.counters["pieces"] = static_cast<double>(terrain.pieces.size());
}

void registerAll() {
  for (rb::Pool pool : {rb::Pool::Hull6to12, rb::Pool::Box8, rb::Pool::Cube8})
    for (rb::Mix mix :
         {rb::Mix::OutsideNear, rb::Mix::NearFace, rb::Mix::Inside, rb::Mix::Far, rb::Mix::Mixed}) {
      const std::string name = std::string("point/") + rb::poolName(pool) + "/" + rb::mixName(mix);
      benchmark::RegisterBenchmark(name.c_str(), pointBench, pool, mix, rb::kPolytopes);
    }
  // Diagnostic: the 8-vertex near cases on a pool of 16 polytopes that stays in
  // cache; the difference to point/... is the cost of fetching polytope data.
  for (rb::Pool pool : {rb::Pool::Box8, rb::Pool::Cube8})
    for (rb::Mix mix : {rb::Mix::OutsideNear, rb::Mix::NearFace}) {
      const std::string name =
          std::string("point_hot/") + rb::poolName(pool) + "/" + rb::mixName(mix);
      benchmark::RegisterBenchmark(name.c_str(), pointBench, pool, mix, rb::kHotPolytopes);
    }
  for (rb::WheelPath path : {rb::WheelPath::Walk, rb::WheelPath::Random})
    for (int pieces : rb::kTerrainSizes) {
      const std::string name =
          std::string("wheel/") + rb::pathName(path) + "/" + std::to_string(pieces);
      benchmark::RegisterBenchmark(name.c_str(), wheelBench, path, pieces);
    }
}

}  // namespace

int main(int argc, char** argv) {
  registerAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
