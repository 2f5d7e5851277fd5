// The union law: a wheel's load comes from its overlap with the union of the
// terrain, however the terrain is cut into pieces, cells or triangles.
//
// Each contact i of a wheel (unit normal n_i, deflection Z_i = r − d_i,
// [GKS2025] eq. 5) says that the tread must be pushed in by Z_i along n_i. The
// tread's deflection is a sum of bumps, one per contact: contact i pushes it
// in by λ_i ≥ 0 along n_i, and a bump of contact j reaches contact i's
// direction with the weight G_ij = ψ(|n_i − n_j| / ρ) of a smooth kernel of
// compact support. The tread must reach every contact's plane,
// (Gλ)_i ≥ Z_i, and a contact carries load only where its neighbours' bumps
// have not already pushed the tread that far (λ_i > 0 only where
// (Gλ)_i = Z_i): a linear complementarity problem, or the convex program
//   min ½ λᵀGλ − Zᵀλ over λ ≥ 0,
// solved exactly by the active-set method of Lawson and Hanson (*Solving
// Least Squares Problems*, 1974, ch. 23) on the handful of contacts a wheel
// has. Contact i then carries the share λ_i / Z_i ∈ [0, 1] of its spring and
// damper ([GKS2025] eq. 6: R_z,i = (λ_i/Z_i)·(c_t Z_i + b_t V_z,i)).
//
// What follows from it:
// - one contact: λ = Z, [GKS2025]'s law exactly;
// - contacts with normals further apart than ρ (a wheel in a step's corner,
//   on both flanks of a valley): G = I, λ = Z, each contact on its own;
// - contacts along the same normal (coplanar pieces, the two sides of a
//   crease of 0°): G_ij = 1, the deepest carries its whole deflection and the
//   rest nothing: the ground is counted once;
// - in between the load moves continuously from one to the other, and a
//   contact that starts at a crease's edge and grows as the wheel rolls
//   towards it carries nothing while the wheel is over the face before the
//   crease (see kUnionWidth).
//
// ψ is Wendland's ψ_{3,1}(s) = (1 − s)⁴(4s + 1) for s < 1, else 0 (Wendland,
// *Scattered Data Approximation*, 2005, Table 9.1): positive definite in
// three dimensions, so G is positive definite for distinct normals and the
// program has one solution.
#pragma once

#include <vector>

#include "common/types.h"

namespace roverlab {

/// The kernel's width ρ over the chord of a contact's patch angle φ (cos φ =
/// 1 − Z/r, chord 2 sin(φ/2) = √(2Z/r)), for the largest deflection of the
/// wheel. A contact that starts at a crease's edge while the wheel is still
/// over the face before it (normal γ from that face's, deflection
/// r − h/cos γ, the face's Z = r − h) carries nothing when
/// ψ(γ/ρ)·Z ≥ r − h/cos γ for every γ up to φ; with ψ ≈ 1 − 10 s² this holds
/// near γ = 0 for ρ ≥ √10 chord(φ), and for all γ ≤ φ and Z ≤ 0.3 r with 4
/// (checked at 1 000 angles for Z/r from 10⁻⁴ to 0.3; 3.5 fails at 0.2).
constexpr double kUnionWidth = 4.0;

/// Buffers of one wheel's union law: the caller fills normals and
/// deflections; unionShares fills shares. Kept between queries (allocates
/// only when a wheel has more contacts than ever before).
struct UnionScratch {
  std::vector<Vec3> normals;        ///< unit contact normals n_i
  std::vector<double> deflections;  ///< Z_i > 0 (m)
  std::vector<double> shares;       ///< λ_i / Z_i ∈ [0, 1]
  std::vector<double> gram;         ///< G, n × n, row-major
  std::vector<double> lambda, trial, factor;
  std::vector<int> free;    ///< the active set's contacts (λ_i > 0)
  std::vector<char> stuck;  ///< contacts that repeat a free one's normal
};

/// Sizes `scratch` for up to `contacts` contacts.
void reserveUnion(UnionScratch& scratch, size_t contacts);

/// Wendland's ψ_{3,1}(s).
inline double unionKernel(double s) {
  if (s >= 1) return 0;
  const double t = 1 - s, t2 = t * t;
  return t2 * t2 * (4 * s + 1);
}

/// Fills scratch.shares for the contacts in scratch.normals and
/// scratch.deflections of a wheel of free radius `radius` (m).
void unionShares(double radius, UnionScratch& scratch);

}  // namespace roverlab
