// Body–terrain contact: every body box of a robot against the terrain, by
// one law for every terrain kind (docs/contact.md, "Body contact"). The papers
// model no body contact; this keeps a robot's body out of the ground.
//
// Features: every convex piece of the terrain near the box, and every triangle
// of a heightfield or mesh under it, taken as the prism from the triangle down
// to the surface's base. Each feature the box overlaps gives a manifold, the
// polygon where the box meets it:
//  - a piece by the separating-axis test (Gottschalk, Lin, Manocha,
//    "OBBTree", SIGGRAPH 1996) over the face normals of both shapes and the
//    cross products of their edge directions: the axis of least overlap gives
//    the normal; the incident face of one shape clipped by the side planes of
//    the reference face of the other (as in Box2D and ODE's box-box) gives the
//    polygon, each point with its depth below the reference face. That
//    catches a step edge pushed into the middle of a box face, which no probe
//    at the box's corners sees. Across two edges the contact is one point.
//  - a surface triangle by its top: a surface is entered from above, its
//    prisms' sides are shared with their neighbours, so the triangle is the
//    reference face and the box's face towards it, clipped by the planes
//    through the triangle's edges square to it (as a piece's face), the
//    polygon.
// The union (contact/box_union.h) joins the manifolds of features that lie in
// one plane, so that a face of the terrain however cut into pieces, cells or
// triangles gives the polygon and the contact points of the whole face, and
// shares each box face's spring among its points (one spring-damper k, c per
// box face, each point's share its depth over the face's summed depth):
//   F_n,i = s_i · max(0, k·d_i − c·v_n,i),          s_i = d_i / Σ_j d_j,
//   F_t,i = −min(μ_i F_n,i, s_i·c·|v_t,i|) v_t,i / |v_t,i|,   so |F_t,i| ≤ μ_i F_n,i.
// k and c scale with the box's body mass m: k = m ω², c = 2 ζ m ω (the box on
// that contact is a spring of natural frequency ω and damping ratio ζ, like
// MuJoCo's solref), so light links get soft contacts and every box is
// resolved by the explicit step. Parameters and units: docs/contact.md.
#pragma once

#include <vector>

#include "contact/box_union.h"
#include "terrain/terrain.h"

namespace roverlab {

/// How body boxes meet the terrain (scenario `simulation.chassis_contact`).
struct BodyContactSettings {
  bool enabled = true;
  double frequency = 200.0;   ///< ω: natural frequency of a box's contact on its own mass (rad/s)
  double dampingRatio = 1.0;  ///< ζ: damping ratio of that contact (-)
};

/// A robot body's box as a contact shape, with the coefficients of its contacts.
struct ContactBox {
  int body = -1;
  Vec3 centre = Vec3::Zero();  ///< box centre in the body frame (m)
  Vec3 half = Vec3::Zero();    ///< half extents along the body's x, y, z axes (m)
  double stiffness = 0.0;      ///< k: normal stiffness of a box face's contact (N/m)
  double damping = 0.0;        ///< c: its normal damping and friction slope (N·s/m)
};

/// The contact box of a body of mass `mass` (kg) whose box has `size` (m) at
/// `centre` (m, body frame). The frequency is lowered when the step dt (s) is
/// too coarse for it: a face contact's k and c acting on the lightest
/// effective mass a point of the box can have, m/6 (a free box pushed at a
/// corner), must stay within the explicit step's bounds ω_e·dt ≤ 0.5 and
/// c·dt/m_e ≤ 1 (docs/dynamics.md, "Step stability"), so ω ≤ 0.5 / (√6 dt) and ω ≤ 1 / (12 ζ dt).
ContactBox makeContactBox(int body, const Vec3& centre, const Vec3& size, double mass,
                          const BodyContactSettings& settings, double dt);

/// A box in world coordinates.
struct OrientedBox {
  Vec3 centre = Vec3::Zero();                          ///< (m)
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  ///< columns: the box's unit axes
  Vec3 half = Vec3::Zero();                            ///< half extents along the axes (m)
};

/// Most points a manifold keeps; a longer clipped polygon is thinned evenly.
constexpr int kMaxManifoldPoints = 16;

/// Which axis gave the least overlap.
enum class ContactAxis : unsigned char { PieceFace, BoxFace, Edges };

/// The overlap of a box and a convex feature: the part of the clipped
/// polygon below the reference face.
struct BoxManifold {
  Vec3 normal = Vec3::UnitZ();  ///< unit, from the feature into the box
  double depth = 0.0;           ///< deepest penetration along the normal (m), > 0
  ContactAxis axis = ContactAxis::PieceFace;
  int face = -1;     ///< the polytope's reference face when axis is PieceFace
  int boxFace = -1;  ///< the box face the contact is on: 2·axis + (1 on the + side)
  /// The reference plane: a point p's depth is offset − plane·p (m). Features
  /// whose manifolds share it lie in one plane (an Edges manifold has none: NaN).
  Vec3 plane = Vec3::UnitZ();
  double offset = 0.0;
  int count = 0;  ///< points of the polygon (one for Edges)
  /// The polygon's corners, each midway between the two surfaces (m); those
  /// where it crosses the reference face (the waterline) at depth 0
  Vec3 points[kMaxManifoldPoints];
  double depths[kMaxManifoldPoints];  ///< each point's depth along the normal (m), ≥ 0
};

/// The terrain pieces a box may touch, from a broadphase query kept while its
/// body stays near the pose of the query: the pieces whose bounding boxes
/// overlap the box's bounding box then, grown by kNearMargin plus the box's
/// reach from its body origin times kNearTurn. That holds every point of the
/// box while the origin stays within kNearMargin of `anchor` along each axis
/// and the body turns less than kNearTurn from `rotation`.
struct NearPieces {
  std::vector<int> pieces;
  Vec3 anchor = Vec3::Zero();                              ///< body origin at the query (m)
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  ///< body rotation at the query
  bool valid = false;
};

/// How far a body may move (m) and turn (rad) before its boxes' NearPieces are
/// queried again.
constexpr double kNearMargin = 0.05;
constexpr double kNearTurn = 0.1;

/// One of a polytope's edge directions: the first edge along it and its unit vector.
struct EdgeDirection {
  int edge = 0;  ///< index into Polytope::edges
  Vec3 direction = Vec3::UnitX();
  bool active = true;  ///< some edge along it is on the union's surface (PieceFeatures)
};

/// What the separating-axis test needs of a terrain piece beyond its shape,
/// computed once per run: its distinct edge directions (a box has 3 of its 12
/// edges), per face the lowest projection of its vertices on the face normal
/// (the highest is the face's offset), and which faces and edges are on the
/// surface of the terrain's union. A face wholly covered by neighbours'
/// shared patches is inside the union, and so is an edge along it where a
/// neighbour's face continues the piece's other face flat (within
/// kPieceCreaseSine: a seam, by the one crease rule of contact/crease.h);
/// where the neighbour turns away the edge is the union's crease. Faces and
/// edges inside the union separate, but never give a contact's normal (as a
/// triangle's prism sides never do).
struct PieceFeatures {
  std::vector<EdgeDirection> directions;
  std::vector<double> faceLow;   ///< (faces) min over vertices of normal·v (m)
  std::vector<char> faceActive;  ///< (faces) on the union's surface
  std::vector<char> edgeActive;  ///< (Polytope::edges) neither of its faces inside the union
  /// A parallelepiped (a box, or a sheared one: its 8 vertices are
  /// centre ± halfEdges[0] ± halfEdges[1] ± halfEdges[2]): its extent along an
  /// axis l is centre·l ± Σ|halfEdges[k]·l|, three products instead of one per vertex.
  bool parallelepiped = false;
  Vec3 centre = Vec3::Zero();  ///< (parallelepiped) the mean of its vertices (m)
  Vec3 halfEdges[3] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};  ///< (parallelepiped) (m)
};

/// The features of terrain piece `piece`, into `out`.
void pieceFeatures(const Terrain& terrain, int piece, PieceFeatures& out);
/// The features of a polytope with no neighbours, into `out`.
void pieceFeatures(const Polytope& poly, PieceFeatures& out);

/// A box's manifold with one facet of a surface (boxFacetManifold).
struct FacetManifold {
  BoxManifold manifold;
  int feature = -1;  ///< the facet's terrain feature id (from Terrain::heightfieldFirst, meshFirst)
};

/// Buffers reused from step to step (per run, in WorldData): no allocation once warm.
struct BodyContactScratch {
  std::vector<PieceFeatures> features;  ///< per terrain piece, made when first needed
  std::vector<NearPieces> near;         ///< per box
  std::vector<int> candidates;
  std::vector<int> meshFeatures;  ///< a mesh's features under a box
  std::vector<Vec3> polygon, clipped;
  /// One surface's manifolds under a box, before the shorter way out is chosen
  std::vector<FacetManifold> tops, walls;
  BoxUnion box;  ///< the manifolds of one box
};

/// Separating-axis test and manifold of a box against a convex polytope with
/// the given features (pieceFeatures). False when they do not overlap
/// (out is then unspecified).
bool boxPolytopeManifold(const OrientedBox& box, const Polytope& poly,
                         const PieceFeatures& features, BodyContactScratch& scratch,
                         BoxManifold& out);

/// The manifold of a box and a surface's facet: a triangle's top or a wall
/// (`count` corners counter-clockwise seen from outside, unit outward normal
/// `outward`), the reference face. False when no point of the box's face
/// towards it lies behind it within the planes through its edges square to it.
bool boxFacetManifold(const OrientedBox& box, const Vec3* corners, int count, const Vec3& outward,
                      BodyContactScratch& scratch, BoxManifold& out);

/// One box face touching the terrain: the union's points on that face.
struct BodyContact {
  int piece = -1;                   ///< the terrain feature of the deepest point
  Vec3 normal = Vec3::UnitZ();      ///< unit, the direction of the summed normal force
  double depth = 0.0;               ///< deepest penetration (m)
  int points = 0;                   ///< contact points carrying force
  Vec3 point = Vec3::Zero();        ///< centre of pressure: the points weighted by normal force (m)
  Vec3 normalForce = Vec3::Zero();  ///< sum of the normal forces on the box (N)
  double load = 0.0;                ///< sum of the points' normal force magnitudes (N)
  Vec3 tangentialForce = Vec3::Zero();  ///< sum of the friction forces on the box (N)
  Vec3 moment = Vec3::Zero();  ///< moment of all point forces about the world origin (N·m)
  double frictionLimit =
      0.0;  ///< Σ μ_i F_n,i over the points (N): |tangentialForce| never exceeds it
};

/// Motion of the body that carries a box (world frame).
struct BodyMotion {
  Vec3 origin = Vec3::Zero();    ///< body frame origin (m)
  Vec3 velocity = Vec3::Zero();  ///< velocity of the origin (m/s)
  Vec3 omega = Vec3::Zero();     ///< angular velocity (rad/s)
};

/// The box in world coordinates for its body's pose (origin in m, rotation body → world).
OrientedBox worldBox(const ContactBox& box, const Vec3& origin, const Eigen::Matrix3d& rotation);

/// Queries the broadphase again when the box's body, its origin at `origin`
/// (m) and turned by `rotation` (body → world), has left `near`'s margins;
/// false when no piece is within reach, so that the box needs nothing more
/// this step.
bool nearPieces(const Terrain& terrain, const ContactBox& box, const Vec3& origin,
                const Eigen::Matrix3d& rotation, NearPieces& near);

/// The pieces of `near` whose bounding boxes overlap the placed box's, in
/// increasing index order, into `out` (cleared first).
void candidatePieces(const Terrain& terrain, const OrientedBox& box, const NearPieces& near,
                     std::vector<int>& out);

/// Whether any terrain feature may touch the box placed at `placed`, its body's
/// origin at `origin` (m): the pieces near it (nearPieces with `near`, then
/// candidatePieces into scratch.candidates), or a heightfield's or mesh's bounds.
bool boxNearTerrain(const Terrain& terrain, const ContactBox& box, const Vec3& origin,
                    const OrientedBox& placed, NearPieces& near, BodyContactScratch& scratch);

/// Contacts and forces of a box with the terrain: the candidate pieces
/// (candidatePieces) and the heightfield and mesh triangles under the box,
/// each feature's manifold into the union, then the force law above; one
/// contact per box face touching the terrain, appended to `out`. A piece's
/// manifold through a flush seam (all its points on a face shared with a
/// neighbour, the box centre on the neighbour's side) is left to the
/// neighbour: that face is inside the union.
void boxContacts(const Terrain& terrain, const ContactBox& box, const OrientedBox& placed,
                 const std::vector<int>& candidates, const BodyMotion& motion,
                 BodyContactScratch& scratch, std::vector<BodyContact>& out);

}  // namespace roverlab
