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
    const Vec3 origin = worldPoint(data.bodies, box.body, Vec3::Zero());
    const Mat3 rotation = worldRotation(data.bodies, box.body);
    const OrientedBox placed = worldBox(box, origin, rotation);
    if (!boxNearTerrain(*model.terrain, box, origin, placed, scratch.near[b], scratch)) continue;
    // Made whole, not zeroed and then set: in WASM a zeroed 72-byte struct is
    // a call to memset (docs/benchmarks/README.md, wasm_instructions.json).
    const BodyMotion motion{/*origin=*/origin,
                            /*velocity=*/worldPointVelocity(data.bodies, box.body, Vec3::Zero()),
                            /*omega=*/worldAngularVelocity(data.bodies, box.body)};
    boxContacts(*model.terrain, box, placed, scratch.candidates, motion, scratch, res.contacts);
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
