// In motion on the heightmap and mesh scenarios of terrains/: at sampled
// steps, each wheel's spring load Σ share·Z·n (what the step applied) is the
// union law's over the same triangles given as convex pieces, one prism per
// triangle, whose seams and creases the pieces' own rules find: the ground is
// counted once on a heightmap or a mesh, in the runs users see.
#include <catch2/catch.hpp>
#include <cmath>

#include "contact/heightfield_contact.h"
#include "contact/mesh_contact.h"
#include "support/scenario_files.h"
#include "terrain/builders.h"

using namespace roverlab;

namespace {

// The triangles of `surface` (a Heightfield or TriMesh, its contact ids from
// `first`) whose plan bounds come within `reach` of `centre`, as prisms down
// to its base, into `builder`; true when one of `contacts` is on its walls
// (its outer sides, which have no prism here).
template <class Surface>
bool addPrismsNear(const Surface& surface, int first, const std::vector<WheelContact>& contacts,
                   const Vec3& centre, double reach, TerrainBuilder& builder) {
  for (long t = 0; t < surface.triangleCount(); ++t) {
    Vec3 v[3];
    surface.triangle(t, v);
    const Vec3 lo = v[0].cwiseMin(v[1]).cwiseMin(v[2]), hi = v[0].cwiseMax(v[1]).cwiseMax(v[2]);
    if (lo.x() > centre.x() + reach || hi.x() < centre.x() - reach || lo.y() > centre.y() + reach ||
        hi.y() < centre.y() - reach)
      continue;
    std::vector<Vec3> points{v[0], v[1], v[2]};
    for (const Vec3& p : v) points.push_back(Vec3(p.x(), p.y(), surface.base));
    builder.addPiece(makeHull(points).value());
  }
  for (const WheelContact& c : contacts)
    if (c.piece >= first + surface.triangleCount() && c.piece < first + surface.featureCount())
      return true;
  return false;
}

Vec3 springLoad(const std::vector<WheelContact>& contacts) {
  Vec3 s = Vec3::Zero();
  for (const WheelContact& c : contacts) s += c.share * c.deflection * c.normal;
  return s;
}

}  // namespace

TEST_CASE("wheel loads on heightmaps and meshes in motion are the union law's over pieces",
          "[sim][law][union]") {
  for (const char* name : {"heightmap-ditch-planar-vehicle.json", "rough-field-rocker8.json",
                           "rubble-articulated6.json"}) {
    Simulation sim = testing::simulationOf(name);
    const Terrain& terrain = *sim.model.terrain;
    double worst = 0;
    long compared = 0, shared = 0;
    for (long step = 1; sim.state.bodies.time < 6.0; ++step) {
      if (!advance(sim)) FAIL(sim.data.error);
      if (step % 50) continue;
      for (size_t w = 0; w < sim.model.robot.wheels.size(); ++w) {
        const WheelResult& res = sim.data.wheels[w];
        if (res.contacts.empty()) continue;
        const WheelShape& shape = sim.model.robot.wheels[w].shape;
        // The triangles within reach as pieces (walls, the surfaces' outer
        // sides, are left out: samples touching one are skipped).
        TerrainBuilder builder;
        bool wall = false;
        for (size_t h = 0; h < terrain.heightfields.size(); ++h)
          wall |= addPrismsNear(terrain.heightfields[h], terrain.heightfieldFirst[h], res.contacts,
                                res.centre, shape.radius + 0.05, builder);
        for (size_t m = 0; m < terrain.meshes.size(); ++m)
          wall |= addPrismsNear(terrain.meshes[m], terrain.meshFirst[m], res.contacts, res.centre,
                                shape.radius + 0.05, builder);
        const Terrain pieces = std::move(builder).build().value();
        std::vector<WheelContact> reference;
        wheelContacts(pieces, shape, res.centre, res.axle, reference);
        // Where the wheel's sphere reaches the ground beyond the tread's band
        // (a tilted wheel on a stone), the sphere's nearest point is cut away
        // and the rim bears instead, on the one feature its touch is on;
        // where features meet at that point (a vertex), which one that is
        // differs between the kinds. Those samples are left out.
        bool rim = false;
        const double band = 0.5 * shape.width / shape.radius;
        SurfaceScratch raw;
        std::vector<SurfaceHit> kept;
        for (const Heightfield& f : terrain.heightfields) {
          heightfieldSphereHits(f, res.centre, shape.radius, raw, kept);
          for (const SurfaceHit& h : raw.hits) rim = rim || std::abs(h.normal.dot(res.axle)) > band;
        }
        for (const TriMesh& mesh : terrain.meshes) {
          meshSphereHits(mesh, res.centre, shape.radius, raw, kept);
          for (const SurfaceHit& h : raw.hits) rim = rim || std::abs(h.normal.dot(res.axle)) > band;
        }
        for (const WheelContact& c : reference)
          rim = rim || std::abs(c.normal.dot(res.axle)) > band;
        if (wall || rim) continue;
        const Vec3 want = springLoad(reference), got = springLoad(res.contacts);
        const double off = (got - want).norm() / want.norm();
        worst = std::max(worst, off);
        ++compared;
        shared += res.contacts.size() > 1 || reference.size() > 1;
        INFO(name << " t " << sim.state.bodies.time << " wheel " << w << ": " << res.contacts.size()
                  << " contacts, want " << want.transpose() << " got " << got.transpose());
        // Same triangles, same law, the same ghost rule (contact/crease.h),
        // with the pieces' flatter crease threshold (0.06° against 3°, for
        // their 1.1 mm flush band): a touch at a crease under 3° that the
        // surface leaves to its nearer neighbour may carry a little load as a
        // piece. Seen: 2e-5 on the heightmaps, 1.5 % once on the rubble (616
        // samples, all others under 0.3 %).
        REQUIRE(off <= 2e-2);
      }
    }
    INFO(name << ": " << compared << " wheel loads compared, " << shared
              << " with two or more contacts, worst " << worst);
    CHECK(compared > 300);
  }
}
