// Body–terrain contact: every body box of a robot is a convex polytope (an
// oriented box) against the terrain's convex pieces, the same convex machinery
// as the wheels (seed 000 §2: terrain is a set of convex polyhedra). The papers
// model no body contact; this keeps a robot's body out of the ground.
//
// Detection is the separating-axis test (Gottschalk, Lin, Manocha, "OBBTree",
// SIGGRAPH 1996) over the face normals of both shapes and the cross products
// of their edge directions: no axis separating them means they overlap, and
// the axis of least overlap gives the penetration depth and the contact normal.
// That catches a step edge pushed into the middle of a box face, which no
// probe at the box's corners sees. The contact manifold comes from clipping
// (as in Box2D and ODE's box-box): the incident face of one shape clipped by
// the side planes of the reference face of the other; the clipped points below
// the reference face are the contact points, each with its own depth. When the
// least overlap is across two edges, the contact is the one point between
// them.
//
// Forces: at each manifold point a penalty spring-damper along the normal,
// non-holding, and Coulomb friction with μ = φ_max of the piece, regularised
// by the same damping:
//   F_n,i = max(0, (k·d_i − c·v_n,i) / 4),
//   F_t,i = −min(μ F_n,i, (c/4) |v_t,i|) v_t,i / |v_t,i|,   so |F_t,i| ≤ μ F_n,i.
// A point carries a quarter of k and c, so a box face lying flat on a terrain
// face (four points) is the spring k with damper c; a point that appears at
// zero depth adds no force. k and c scale with the box's body mass m:
// k = m ω², c = 2 ζ m ω (the box on that contact is a spring of natural
// frequency ω and damping ratio ζ, like MuJoCo's solref), so light links get
// soft contacts and every box is resolved by the explicit step. Parameters
// and units: docs/contact.md.
#pragma once

#include <vector>

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
  double stiffness = 0.0;      ///< k: normal stiffness of a face contact, k/4 per point (N/m)
  double damping = 0.0;        ///< c: its normal damping and friction slope, c/4 per point (N·s/m)
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
constexpr int kMaxManifoldPoints = 8;

/// Which axis gave the least overlap.
enum class ContactAxis : unsigned char { PieceFace, BoxFace, Edges };

/// The overlap of a box and a convex polytope.
struct BoxManifold {
  Vec3 normal = Vec3::UnitZ();  ///< unit, from the polytope into the box
  double depth = 0.0;           ///< penetration along the normal (m), > 0
  ContactAxis axis = ContactAxis::PieceFace;
  int face = -1;                      ///< the polytope's reference face when axis is PieceFace
  int count = 0;                      ///< contact points
  Vec3 points[kMaxManifoldPoints];    ///< midpoints between the two surfaces (m)
  double depths[kMaxManifoldPoints];  ///< each point's penetration along the normal (m), > 0
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
};

/// What the separating-axis test needs of a terrain piece beyond its shape,
/// computed once per run: its distinct edge directions (a box has 3 of its 12
/// edges) and, per face, the lowest projection of its vertices on the face
/// normal (the highest is the face's offset).
struct PieceFeatures {
  std::vector<EdgeDirection> directions;
  std::vector<double> faceLow;  ///< (faces) min over vertices of normal·v (m)
};

/// The features of a polytope, into `out`.
void pieceFeatures(const Polytope& poly, PieceFeatures& out);

/// Buffers reused from step to step (per run, in WorldData): no allocation once warm.
struct BodyContactScratch {
  std::vector<PieceFeatures> features;  ///< per terrain piece, made when first needed
  std::vector<NearPieces> near;         ///< per box
  std::vector<int> candidates;
  std::vector<Vec3> polygon, clipped;
};

/// Separating-axis test and manifold of a box against a convex polytope with
/// the given features (pieceFeatures). False when they do not overlap
/// (out is then unspecified).
bool boxPolytopeManifold(const OrientedBox& box, const Polytope& poly,
                         const PieceFeatures& features, BodyContactScratch& scratch,
                         BoxManifold& out);

/// One box touching one terrain piece.
struct BodyContact {
  int piece = -1;
  Vec3 normal = Vec3::UnitZ();      ///< unit, from the piece into the box
  double depth = 0.0;               ///< deepest penetration (m)
  int points = 0;                   ///< manifold points carrying force
  Vec3 point = Vec3::Zero();        ///< centre of pressure: the points weighted by normal force (m)
  Vec3 normalForce = Vec3::Zero();  ///< sum of the normal forces on the box (N)
  double load = 0.0;                ///< sum of the points' normal force magnitudes (N)
  Vec3 tangentialForce = Vec3::Zero();  ///< sum of the friction forces on the box (N)
  Vec3 moment = Vec3::Zero();  ///< moment of all point forces about the world origin (N·m)
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

/// Contacts and forces of a box with the candidate pieces (separating-axis
/// test and manifold per piece, then the force law above), appended to
/// `out`. A contact through a flush seam (all its points on a face shared with
/// a neighbour, the box centre on the neighbour's side) is left to the
/// neighbour, as for wheels.
void boxContacts(const Terrain& terrain, const ContactBox& box, const OrientedBox& placed,
                 const std::vector<int>& candidates, const BodyMotion& motion,
                 BodyContactScratch& scratch, std::vector<BodyContact>& out);

}  // namespace roverlab
