// The app's state, its whole shape in one place: the modules read and write
// these fields and add none (the object is sealed). test_hooks.js publishes
// them for the browser tests. Plain data and the objects of the current run;
// each module keeps its private workings (timers, DOM) to itself.
import { History } from './history.js';

export function createAppState() {
  return Object.seal({
    // --- the run (sim_client.js builds it, run.js shows it)
    scenario: null,       // the scenario object running (the newest the worker built)
    model: null,          // its model from the worker: layout, wheels, columns, terrain, controller, warnings
    presets: [],          // every preset with its parameter specs (from the worker)
    view: null,           // the RobotView of the model
    driver: null,         // the keyboard Driver of the model
    history: new History(),  // frames for the timeline
    telemetry: null,      // Telemetry rows of the run (plots, CSV)
    latest: null,         // newest frame from the worker
    previous: null,       // the one before (for interpolation)
    arrivedAt: 0,         // when `latest` arrived (performance.now())
    awaitingFrame: false, // a tick is out: one frame in flight at a time
    stats: {},            // the worker's stepping statistics of the last frame
    firstFrameAt: null,   // when the first frame was shown (ms since the page's start)
    startBase: null,      // the base's position at t = 0 (THREE.Vector3)
    pendingStart: null,   // a new model's base offset in the frame: the next frame frames the camera
    pendingCamera: null,  // a camera pose to take when the next model is shown (share links)
    playing: false,
    scrubbing: false,     // the timeline shows a recorded frame
    error: null,          // why the run stopped (Play stays off until a reset or a new run)
    fatal: null,          // the worker's last failure
    outcome: undefined,   // 'blew_up' or 'left_terrain' once the run stopped; null while it runs
    finishedAt: null,     // the run reached its scenario's duration at this time (s) and paused there
    outcomeText: '',      // the outcome in words on show (outcome.js), '' while there is none to say
    telemetryWarned: false,  // the page said the telemetry store nears full
    issues: [],           // [{ path, message }] of the scenario last rejected (empty once one is built)
    warnings: undefined,  // the running scenario's warnings
    buildMs: undefined,   // the worker's time to build the last scenario (ms)
    loadMs: undefined,    // from sending the last built scenario to its model arriving (ms)
    // --- loads in the worker (sim_client.js)
    loading: false,       // a scenario is being built
    progress: null,       // the progress note's text, when shown
    loadLog: [],          // the last 20 loads: { id, keep, sentAt, ms, buildMs, built }
    restarts: undefined,  // workers restarted (Cancel, a failed build)
    // --- what the page shows
    banner: null,         // { text, kind } of the banner over the view
    tab: undefined,       // the side panel's tab, once one was picked: 'sim', 'edit', 'stance', 'crawler'
    phase: undefined,     // the automatic controller's phase, last shown
    tipping: undefined,   // the robot nears tipping over
    flipped: undefined,   // the robot lies upside down
    fps: undefined,       // frames drawn per second, over the last second (view_quality.js)
    qualityStep: undefined,  // { fps, lowered } once the view quality watch measured the first 3 s
    pinned: [],           // the pinned runs (pinned_runs.js): [{ n, label, colour, shown, rows, interval, until, outcome, kept }]
    inspected: null,      // the contact inspector's target and its contacts on show: { target, name, time, contacts }
    plots: undefined,     // the plot dock (plots.js): { open, hidden, height, keys, quantities, cursorTime, charts: [{ key, title, columns, width, height, points, last, cursor }] }
    // --- the editor and links
    editor: undefined,    // { issues, valid, track1, large } of the editor's last inspection
    editorReady: undefined,
    lastRecording: undefined,  // { bytes, from, to } of the last video saved (recording.js)
    shareUrl: undefined,  // the last share link made
    linkOpened: undefined,  // a share link's scenario was opened
    linkError: undefined, // why the last share link was not opened (its code)
    // --- the papers' panels
    stance: undefined,    // the last stance computation ({ ok, ... })
    stancePose: undefined,  // the stance on show: { index, s, stance, roll, pitch, touching }
    crawler: null,        // the crawler panel, once shown
  });
}
