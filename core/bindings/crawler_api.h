// [BSTU2019]'s contact mode of a crawler link against a rectangular obstacle,
// for the app's Crawler link tab.
#pragma once

#include "bindings/js_values.h"

namespace roverlab {

/// params: { L, phiStart, phiEnd, A: [x, y], l, b, alpha } (m, rad) →
/// { ok: true, mode, kind, kindName, contact, phiContact, alphaContact, point,
/// pointEnd, contactDistance, correction: { needed, endAngle, length, lift } }
/// (the contact fields only when contact is true), or { ok: false, issues }.
val crawlerLinkContactJs(val params);

}  // namespace roverlab
