// Contact-mode determination for a link of a crawling robot against a
// rectangular obstacle ([BSTU2019], "Система определения режима контактного
// взаимодействия с препятствием").
//
// The link OO1 (length L) turns counterclockwise about its fixed support O, the
// origin of the plane Oxy, from φ_n to φ_k; O1 slides on the surface. The
// obstacle ABDE is a rectangle l × b with vertex A at (x_A, y_A) and side AE at
// angle α to the x axis ([BSTU2019], Fig. 1):
//   B = A + T_A (0, b)ᵀ,  D = A + T_A (l, b)ᵀ,  E = A + T_A (l, 0)ᵀ.
// The first contact of the sweep is found exactly (the least polar angle of the
// obstacle within the swept sector), its kind v = 1..10 is read from which
// features touch, and the mode n = 1..5 from [BSTU2019]'s angle conditions on
// (α_p, φ_p) for that kind:
//   n = 1, 2  passing needs a correction (α ≥ 0 / α < 0),
//   n = 3, 4  passable by touching (α ≥ 0 / α < 0),
//   n = 5     no contact.
#pragma once

#include <array>

#include "common/types.h"

namespace roverlab {

/// The link and the obstacle of [BSTU2019] (Fig. 1), in the plane Oxy with O at
/// the origin. Vec2 holds (x, y) here.
struct LinkObstacle {
  double length = 1.0;      ///< link length L = |OO1| (m), > 0
  double phiStart = 0.0;    ///< start angle φ_n of OO1 from the x axis, counterclockwise (rad)
  double phiEnd = 1.0;      ///< end angle φ_k (rad); [BSTU2019]: 0 ≤ φ_n < φ_k ≤ π/2
  Vec2 a = Vec2(0.5, 0.5);  ///< vertex A (x_A, y_A) (m)
  double sideL = 0.5;       ///< side l = |AE| (m), > 0
  double sideB = 0.5;       ///< side b = |AB| (m), > 0
  double alpha = 0.0;       ///< angle α of side AE to the x axis, in (−π/2, π/2] (rad)
};

/// Contact kind v of [BSTU2019] (Fig. 3); None when the link never touches.
enum class ContactKind {
  None = 0,
  O1A = 1,      ///< link end O1 on vertex A
  O1B = 2,      ///< O1 on vertex B
  O1E = 3,      ///< O1 on vertex E
  O1Q = 4,      ///< O1 on a point Q inside side AE
  O1K = 5,      ///< O1 on a point K inside side AB
  O1M = 6,      ///< O1 on a point M inside side DE
  NA = 7,       ///< a point N inside the link on vertex A
  NE = 8,       ///< a point N inside the link on vertex E
  AlongAE = 9,  ///< the link along side AE
  AlongED = 10  ///< the link along side ED
};

/// Short name of a kind: "O1-A", "N-E", "link along AE", ...
const char* contactKindName(ContactKind kind);

/// What [BSTU2019] suggests when passing needs a correction (n = 1, 2): shorten
/// the link, lift it off the surface, or stop earlier (or combine them).
struct LinkCorrection {
  bool needed = false;    ///< n = 1 or 2
  double endAngle = 0.0;  ///< φ_k changed to φ_p: the link stops at the first contact (rad)
  double length = 0.0;    ///< the link shortened to the distance from O to the obstacle within
                          ///< the swept wedge [φ_n, φ_k]: the sweep then only touches it (m)
  bool lift = false;      ///< lifting the link over the obstacle is an alternative ([BSTU2019]
                          ///< models the obstacle in plan only, so no height is given)
};

/// Result of the contact-mode determination.
struct LinkContact {
  int mode = 5;                          ///< n = 1..5
  ContactKind kind = ContactKind::None;  ///< v = 1..10, None for n = 5
  double phiContact = 0.0;               ///< φ_p, link angle at the first contact (rad); n < 5
  double alphaContact = 0.0;             ///< α_p, obstacle angle at the contact (= α) (rad)
  Vec2 point = Vec2::Zero();             ///< contact point (m); the near end for v = 9, 10
  Vec2 pointEnd = Vec2::Zero();          ///< far end of the contact for v = 9, 10, else = point (m)
  double contactDistance = 0.0;  ///< distance from O to `point` along the link (L_N, or L) (m)
  LinkCorrection correction;
};

/// Obstacle vertices A, B, D, E (m).
std::array<Vec2, 4> obstacleVertices(const LinkObstacle& input);

/// Determines the contact mode n, the kind v, the contact and the correction
/// ([BSTU2019]). Issues, with paths named as in the JS binding ("L", "phiStart",
/// "phiEnd", "A[0]", "A[1]", "l", "b", "alpha", "A"): non-finite or
/// non-positive sizes, angles outside [BSTU2019]'s ranges (Fig. 1b), the support
/// O inside the obstacle, the link overlapping the obstacle already at φ_n, and
/// a first contact that none of the ten kinds describes (the link interior on
/// vertex B or D, O1 on vertex D or side BD, the link along AB or BD).
Expected<LinkContact> determineLinkContact(const LinkObstacle& input);

}  // namespace roverlab
