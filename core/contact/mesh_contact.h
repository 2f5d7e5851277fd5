// Contact queries on a triangle mesh terrain (terrain/trimesh.h): the
// triangles and walls near the query come from the mesh's grid, and its
// welded vertex ids tell the shared rules (contact/surface_contact.h) which
// triangles meet, so shared edges give no ghost contacts and creases are as
// exact as between quads.
#pragma once

#include <vector>

#include "contact/surface_contact.h"
#include "terrain/trimesh.h"

namespace roverlab {

/// The contacts of a sphere of radius `radius` (m) centred at `centre` with
/// the mesh, appended to `out`.
void meshSphereHits(const TriMesh& mesh, const Vec3& centre, double radius, SurfaceScratch& scratch,
                    std::vector<SurfaceHit>& out);

}  // namespace roverlab
