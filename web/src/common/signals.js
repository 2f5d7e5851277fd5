// The app's named signals (as the three.js editor has them): a module
// dispatches what happened, the modules that care add a listener. The root
// (main.js) creates one set and hands it to every module.

/** One signal: add(listener) returns a function that removes it; dispatch(...args) calls every listener in order. */
export class Signal {
  constructor() {
    this.listeners = [];
  }

  add(listener) {
    this.listeners.push(listener);
    return () => this.remove(listener);
  }

  remove(listener) {
    this.listeners = this.listeners.filter((l) => l !== listener);
  }

  dispatch(...args) {
    for (const listener of [...this.listeners]) listener(...args);
  }
}

/** Every signal of the app, each with what it carries. */
export function createSignals() {
  return {
    presetsLoaded: new Signal(),   // (presets): every preset with its parameter specs, from the worker
    loadStarted: new Signal(),     // (entry): a scenario was sent to the worker ({ id, scenario, keep, restore })
    scenarioLoaded: new Signal(),  // (model, entry): the worker built a scenario; it runs now
    issues: new Signal(),          // (issues): the worker rejected a scenario ([{ path, message }])
    frameArrived: new Signal(),    // (frame, stats, samples, columns): a frame of the run from the worker (columns: the
                                   // telemetry's columns when a program's plot added some, else null)
    runStopped: new Signal(),      // ({ message, outcome }): the run blew up, left the terrain or its program stopped it ('program_error')
    runFinished: new Signal(),     // ({ time }): the run reached its scenario's duration and paused
    frame: new Signal(),           // (shown, now): the view was drawn (shown: the frame on show, or null)
    tabChanged: new Signal(),      // (tab): 'sim', 'edit', 'stance', 'crawler', 'robot', 'study' or 'controller'
    playChanged: new Signal(),     // (): playing, paused, scrubbing or finished changed (run.js; controls.js shows it)
    scrubbed: new Signal(),        // (time): the run shows the recorded frame at time (s) (run.js)
    scrubRequested: new Signal(),  // (time): show the recorded frame at time (s), e.g. a time picked on a chart
    programChanged: new Signal(),  // (): state.program changed (sim_client.js: loaded, stopped, log lines)
    programHeld: new Signal(),     // (held): a scenario's program was left out of the run ({ source, reason, message, origin })
    pinsChanged: new Signal(),     // (runs): the pinned runs changed (pinned_runs.js: { n, label, colour, shown, telemetry, quantities, ... })
  };
}
