// The core's public header: everything a front end (CLI, WASM bindings, tests)
// needs.
#pragma once

#include "common/types.h"
#include "contact/tire_model.h"
#include "contact/tread.h"
#include "contact/wheel_contact.h"
#include "crawler/link_contact.h"
#include "dynamics/multibody.h"
#include "geometry/gjk.h"
#include "geometry/polytope.h"
#include "kinematics/rocker_positioning.h"
#include "robots/robot.h"
#include "scenario/scenario.h"
#include "sim/frame.h"
#include "sim/simulation.h"
#include "sim/telemetry.h"
#include "sim/world.h"
#include "terrain/broadphase.h"
#include "terrain/builders.h"
#include "terrain/material.h"
#include "terrain/terrain.h"
#include "terrain/track1.h"
