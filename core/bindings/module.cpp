// The WebAssembly module (embind): every function and class the browser app
// and the Node tests call, registered in one place. The entry points live in
// one file per area (world_api, editor_api, robot_api, rocker_api, crawler_api, study_api); their
// conventions in js_values.h.
#include <emscripten/bind.h>

#include <string>

#include "bindings/crawler_api.h"
#include "bindings/editor_api.h"
#include "bindings/robot_api.h"
#include "bindings/rocker_api.h"
#include "bindings/study_api.h"
#include "bindings/world_api.h"

namespace {

std::string version() { return "0.1.0"; }

}  // namespace

EMSCRIPTEN_BINDINGS(roverlab) {
  using roverlab::World;
  emscripten::class_<World>("World")
      .constructor<emscripten::val>()
      .constructor<emscripten::val, emscripten::val>()
      .function("ok", &World::ok)
      .function("issues", &World::issues)
      .function("reset", &World::reset)
      .function("step", &World::step)
      .function("seek", &World::seek)
      .function("error", &World::error)
      .function("outcome", &World::outcome)
      .function("warnings", &World::warnings)
      .function("time", &World::time)
      .function("dt", &World::dt)
      .function("setWheelSpeeds", &World::setWheelSpeeds)
      .function("setJointTarget", &World::setJointTarget)
      .function("setController", &World::setController)
      .function("attachProgram", &World::attachProgram)
      .function("summary", &World::summary)
      .function("telemetry", &World::telemetry)
      .function("programDue", &World::programDue)
      .function("observationColumns", &World::observationColumns)
      .function("observation", &World::observation)
      .function("commandColumns", &World::commandColumns)
      .function("command", &World::command)
      .function("frame", &World::frame)
      .function("samples", &World::samples)
      .function("model", &World::model);
  emscripten::function("presets", &roverlab::presetsJs);
  emscripten::function("runScenario", &roverlab::runScenarioJs);
  emscripten::function("applyOverrides", &roverlab::applyOverridesJs);
  emscripten::function("version", &version);
  emscripten::function("inspectTerrain", &roverlab::inspectTerrainJs);
  emscripten::function("moveTrack1Node", &roverlab::moveTrack1NodeJs);
  emscripten::function("rockerPlayback", &roverlab::rockerPlaybackJs);
  emscripten::function("crawlerLinkContact", &roverlab::crawlerLinkContactJs);
  emscripten::function("importRobot", &roverlab::importRobotJs);
  emscripten::function("parseStudy", &roverlab::parseStudyJs);
  emscripten::function("runStudyRow", &roverlab::runStudyRowJs);
  emscripten::function("searchThreshold", &roverlab::searchThresholdJs);
  emscripten::function("searchThreshold", &roverlab::searchThresholdRowsJs);    // with onRow(row)
  emscripten::function("searchThreshold", &roverlab::searchThresholdHostedJs);  // and runRow(run)
  emscripten::class_<roverlab::StudyRow>("StudyRow")
      .constructor<emscripten::val, emscripten::val>()
      .function("issues", &roverlab::StudyRow::issues)
      .function("running", &roverlab::StudyRow::running)
      .function("program", &roverlab::StudyRow::program)
      .function("time", &roverlab::StudyRow::time)
      .function("model", &roverlab::StudyRow::model)
      .function("attachProgram", &roverlab::StudyRow::attachProgram)
      .function("programDue", &roverlab::StudyRow::programDue)
      .function("observationColumns", &roverlab::StudyRow::observationColumns)
      .function("observation", &roverlab::StudyRow::observation)
      .function("commandColumns", &roverlab::StudyRow::commandColumns)
      .function("command", &roverlab::StudyRow::command)
      .function("step", &roverlab::StudyRow::step)
      .function("failProgram", &roverlab::StudyRow::failProgram)
      .function("finish", &roverlab::StudyRow::finish);
  emscripten::function("studyScenario", &roverlab::studyScenarioJs);
  emscripten::function("studyCsv", &roverlab::studyCsvJs);
}
