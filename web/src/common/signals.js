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
    frameArrived: new Signal(),    // (frame, stats): a frame of the run from the worker
    runStopped: new Signal(),      // ({ message, outcome }): the run blew up or left the terrain
    runFinished: new Signal(),     // ({ time }): the run reached its scenario's duration and paused
    frame: new Signal(),           // (shown, now): the view was drawn (shown: the frame on show, or null)
    tabChanged: new Signal(),      // (tab): 'sim', 'edit', 'stance', 'crawler', 'robot' or 'study'
    playChanged: new Signal(),     // (): playing, paused, scrubbing or finished changed (run.js; controls.js shows it)
    scrubbed: new Signal(),        // (time): the run shows the recorded frame at time (s) (run.js)
    scrubRequested: new Signal(),  // (time): show the recorded frame at time (s), e.g. a time picked on a chart
    pinsChanged: new Signal(),     // (runs): the pinned runs changed (pinned_runs.js: { n, label, colour, shown, telemetry, quantities, ... })
  };
}
