// The core's public header: everything a front end (CLI, WASM bindings, tests)
// needs.
#pragma once

#include "common/types.h"
#include "contact/tire_model.h"
#include "contact/wheel_contact.h"
#include "geometry/gjk.h"
#include "geometry/polytope.h"
#include "terrain/broadphase.h"
#include "terrain/builders.h"
#include "terrain/material.h"
#include "terrain/terrain.h"
#include "terrain/track1.h"
