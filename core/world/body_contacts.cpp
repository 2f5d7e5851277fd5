// Stage 4 of the step: body boxes against the terrain (world/stages.h).
#include <algorithm>

#include "contact/heightfield_contact.h"
#include "contact/mesh_contact.h"
#include "world/stages.h"

namespace roverlab {
namespace {

// The body contact's laws: Coulomb friction within μ·F_n summed over the
// manifold, and the penetration depth (docs/contact.md, "Body contact").
void checkBodyContactLaw(const BodyContact& c, double mu, ContactLawStats& law) {
  ++law.bodyContacts;
  if (c.tangentialForce.norm() > mu * c.load * (1 + 1e-9)) ++law.bodyFrictionViolations;
  law.maxBodyDepth = std::max(law.maxBodyDepth, c.depth);
}

// A box against a surface: its lattice (contact/surface_contact.h).
bool boxContact(const Heightfield& f, int first, double mu, const ContactBox& box,
                const OrientedBox& placed, const BodyMotion& motion, BodyContact& out) {
  return boxHeightfieldContact(f, first, mu, box, placed, motion, out);
}
bool boxContact(const TriMesh& m, int first, double mu, const ContactBox& box,
                const OrientedBox& placed, const BodyMotion& motion, BodyContact& out) {
  return boxMeshContact(m, first, mu, box, placed, motion, out);
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
    if (pieces) candidatePieces(model.terrain, placed, scratch.near[b], scratch.candidates);
    const Vec3 extent = rotation.cwiseAbs() * box.half;
    Aabb bounds;
    bounds.min = placed.centre - extent;
    bounds.max = placed.centre + extent;
    bool fields = false;  // heightfields or meshes in reach
    for (const Heightfield& f : model.terrain.heightfields)
      fields = fields || f.box.overlaps(bounds);
    for (const TriMesh& m : model.terrain.meshes) fields = fields || m.box.overlaps(bounds);
    if ((!pieces || scratch.candidates.empty()) && !fields) continue;
    motion.velocity = worldPointVelocity(data.bodies, box.body, Vec3::Zero());
    motion.omega = worldAngularVelocity(data.bodies, box.body);
    if (pieces)
      boxContacts(model.terrain, box, placed, scratch.candidates, motion, scratch, res.contacts);
    // Heightfields and meshes alike: the box's lattice against the surface.
    const auto surfaces = [&](const auto& list, const std::vector<int>& first) {
      for (size_t k = 0; k < list.size(); ++k) {
        const auto& surface = list[k];
        BodyContact contact;
        if (surface.box.overlaps(bounds) &&
            boxContact(surface, first[k], model.terrain.materials[surface.material].phiMax, box,
                       placed, motion, contact))
          res.contacts.push_back(contact);
      }
    };
    surfaces(model.terrain.heightfields, model.terrain.heightfieldFirst);
    surfaces(model.terrain.meshes, model.terrain.meshFirst);
    Vec6& ext = data.bodies.externalForce[box.body];
    for (const BodyContact& c : res.contacts) {
      checkBodyContactLaw(c, model.terrain.materials[model.terrain.materialOf(c.piece)].phiMax,
                          data.law);
      ext.head<3>() += c.moment;
      ext.tail<3>() += c.normalForce + c.tangentialForce;
      res.normalLoad += c.load;  // the points' normals may differ (a surface)
    }
  }
}

}  // namespace roverlab
