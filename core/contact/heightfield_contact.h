// Contact queries on a heightfield (terrain/heightfield.h), with its triangles
// and walls made on demand from the grid near the query (as Jolt's
// HeightFieldShape does), never stored. The grid's sample indices are the
// vertex ids by which the shared rules (contact/surface_contact.h) know which
// triangles meet: seams and diagonals give no ghost contacts, creases are as
// exact as between quads.
#pragma once

#include <vector>

#include "contact/surface_contact.h"
#include "terrain/heightfield.h"

namespace roverlab {

/// The contacts of a sphere of radius `radius` (m) centred at `centre` with
/// the heightfield, appended to `out`.
void heightfieldSphereHits(const Heightfield& field, const Vec3& centre, double radius,
                           SurfaceScratch& scratch, std::vector<SurfaceHit>& out);

}  // namespace roverlab
