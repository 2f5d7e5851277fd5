// Stage 2 of the step: wheel contacts (world/stages.h).
#include "world/stages.h"

namespace roverlab {

void wheelContactStage(const WorldModel& model, WorldData& data) {
  const std::vector<Body>& bodies = model.robot.bodies.bodies;
  for (size_t w = 0; w < model.robot.wheels.size(); ++w) {
    const WheelModel& wheel = model.robot.wheels[w];
    WheelResult& res = data.wheels[w];
    res.centre = worldPoint(data.bodies, wheel.body, Vec3::Zero());
    // A wheel's kept frame may be its hub's (Multibody::rotor): the same axle.
    res.axle = worldRotation(data.bodies, wheel.body) * bodies[wheel.body].axis;
    useWheelNearLists(data.wheelScratch, w);
    wheelContacts(*model.terrain, wheel.shape, res.centre, res.axle, data.wheelScratch,
                  res.contacts);
  }
}

}  // namespace roverlab
