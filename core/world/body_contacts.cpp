// Stage 4 of the step: body boxes against the terrain (world/stages.h).
#include <algorithm>

#include "world/stages.h"

namespace roverlab {
namespace {

// The body contact's laws: Coulomb friction within Σ μ_i·F_n,i summed over the
// points, and the penetration depth (docs/contact.md, "Body contact").
void checkBodyContactLaw(const BodyContact& c, ContactLawStats& law) {
  ++law.bodyContacts;
  if (c.tangentialForce.norm() > c.frictionLimit * (1 + 1e-9)) ++law.bodyFrictionViolations;
  law.maxBodyDepth = std::max(law.maxBodyDepth, c.depth);
}

}  // namespace

void bodyContactStage(const WorldModel& model, WorldData& data) {
  BodyContactScratch& scratch = data.bodyScratch;
  for (size_t b = 0; b < model.boxes.size(); ++b) {
    BoxResult& res = data.boxes[b];
    res.contacts.clear();
    res.normalLoad = 0;
    if (!model.bodyContact.enabled) continue;
    const ContactBox& box = model.boxes[b];
    BodyMotion motion;
    motion.origin = worldPoint(data.bodies, box.body, Vec3::Zero());
    const Mat3 rotation = worldRotation(data.bodies, box.body);
    const bool pieces = nearPieces(model.terrain, box, motion.origin, rotation, scratch.near[b]);
    const OrientedBox placed = worldBox(box, motion.origin, rotation);
    scratch.candidates.clear();
    if (pieces) candidatePieces(model.terrain, placed, scratch.near[b], scratch.candidates);
    const Vec3 extent = rotation.cwiseAbs() * box.half;
    Aabb bounds;
    bounds.min = placed.centre - extent;
    bounds.max = placed.centre + extent;
    bool surfaces = false;  // heightfields or meshes in reach
    for (const Heightfield& f : model.terrain.heightfields)
      surfaces = surfaces || f.box.overlaps(bounds);
    for (const TriMesh& m : model.terrain.meshes) surfaces = surfaces || m.box.overlaps(bounds);
    if (scratch.candidates.empty() && !surfaces) continue;
    motion.velocity = worldPointVelocity(data.bodies, box.body, Vec3::Zero());
    motion.omega = worldAngularVelocity(data.bodies, box.body);
    boxContacts(model.terrain, box, placed, scratch.candidates, motion, scratch, res.contacts);
    Vec6& ext = data.bodies.externalForce[box.body];
    for (const BodyContact& c : res.contacts) {
      checkBodyContactLaw(c, data.law);
      ext.head<3>() += c.moment;
      ext.tail<3>() += c.normalForce + c.tangentialForce;
      res.normalLoad += c.load;  // the points' normals may differ
    }
  }
}

}  // namespace roverlab
