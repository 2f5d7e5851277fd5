// The app's state, its whole shape in one place: plain data and the objects of
// the current run, grouped by the one module that writes each field (its
// owner, STATE_OWNERS; tests/js/web_rooms.test.mjs checks it). Other modules
// read a field, or ask its owner (a method, a signal) to change it. The object
// is sealed: no module adds a field. test_hooks.js publishes it for the
// browser tests. Each module keeps its private workings (timers, DOM) to itself.
import { History } from '../runs/history.js';

/** The module (under web/src/) that writes each field of the app state. */
export const STATE_OWNERS = {
  'sim/sim_client.js': ['scenario', 'presets', 'issues', 'fatal', 'buildMs', 'loadMs', 'loading', 'progress', 'loadLog', 'restarts', 'program', 'summary'],
  'app/run.js': [
    'model', 'view', 'driver', 'history', 'telemetry', 'latest', 'previous', 'arrivedAt', 'awaitingFrame', 'stats', 'firstFrameAt',
    'startBase', 'pendingStart', 'pendingCamera', 'playing', 'scrubbing', 'scrubTime', 'error', 'outcome', 'finishedAt', 'outcomeText',
    'telemetryWarned', 'warnings',
  ],
  'app/controls.js': ['controllerOn', 'speed'],
  'app/status_line.js': ['phase', 'tipping', 'flipped'],
  'app/banners.js': ['banner'],
  'app/tabs.js': ['tab'],
  'app/recording.js': ['lastRecording'],
  'view/view_quality.js': ['fps', 'qualityStep'],
  'plots/plots.js': ['plots'],
  'panels/pinned_runs.js': ['pinned'],
  'panels/contact_inspector.js': ['inspected'],
  'panels/stance_tab.js': ['stance', 'stancePose'],
  'panels/crawler_tab.js': ['crawler'],
  'editor/editor_tab.js': ['editor', 'editorReady'],
  'share/sharing.js': ['shareUrl', 'linkOpened', 'linkError'],
  'controller/controller_panel.js': ['controller'],
};

export function createAppState() {
  return Object.seal({
    // --- loads in the worker (sim/sim_client.js)
    scenario: null,       // the scenario object running (the newest the worker built)
    presets: [],          // every preset with its parameter specs (from the worker)
    issues: [],           // [{ path, message }] of the scenario last rejected (empty once one is built)
    fatal: null,          // the worker's last failure (cleared when a scenario is built)
    buildMs: undefined,   // the worker's time to build the last scenario (ms)
    loadMs: undefined,    // from sending the last built scenario to its model arriving (ms)
    loading: false,       // a scenario is being built
    progress: null,       // the progress note's text, when shown
    loadLog: [],          // the last 20 loads: { id, keep, sentAt, ms, buildMs, built }
    restarts: undefined,  // workers restarted (Cancel, a failed build, a controller program stopped)
    // The controller program of the scenario on show (docs/controllers.md): its text (null: none), whether
    // it runs in the worker, why it is held back ({ source, reason: 'consent' | 'stopped', message, origin })
    // or null, how it stopped the run ({ message, line, column, time }) or null, and its log lines
    // ([{ t, level: 'log' | 'warn' | 'error', text }], the newest 1000).
    program: { source: null, running: false, held: null, error: null, log: [] },
    // The core's summary of the run (World.summary(): what `roverlab run` prints, its wall_s 0) when it reached its
    // scenario's duration, or null (not yet; since then a new scenario, a reset or a seek).
    summary: null,
    // --- the run on show (app/run.js)
    model: null,          // its model from the worker: layout, wheels, columns, terrain, controller, warnings
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
    pendingCamera: null,  // the camera pose the next model's first frame takes (a share link's), or null
    playing: false,
    scrubbing: false,     // the timeline shows a recorded frame
    scrubTime: 0,         // the time of that frame (s), while scrubbing
    error: null,          // why the run stopped (Play stays off until a reset or a new run)
    outcome: undefined,   // 'blew_up' or 'left_terrain' once the run stopped; null while it runs
    finishedAt: null,     // the run reached its scenario's duration at this time (s) and paused there
    outcomeText: '',      // the outcome in words on show (runs/outcome.js), '' while there is none to say
    telemetryWarned: false,  // the page said the telemetry store nears full
    warnings: undefined,  // the running scenario's warnings
    // --- the toolbar (app/controls.js)
    controllerOn: true,   // the automatic controller box is ticked
    speed: 1,             // the speed picked: simulated seconds per wall second (Infinity: max)
    // --- what the page shows
    phase: undefined,     // the automatic controller's phase, last shown (app/status_line.js)
    tipping: undefined,   // the robot nears tipping over (app/status_line.js)
    flipped: undefined,   // the robot lies upside down (app/status_line.js)
    banner: null,         // { text, kind } of the banner over the view (app/banners.js)
    tab: undefined,       // the side panel's tab, once one was picked: 'sim', 'edit', 'stance', 'crawler', 'robot', 'study', 'controller' (app/tabs.js)
    lastRecording: undefined,  // { bytes, from, to } of the last video saved (app/recording.js)
    fps: undefined,       // frames drawn per second, over the last second (view/view_quality.js)
    qualityStep: undefined,  // { fps, lowered } once the view quality watch measured the first 3 s
    plots: undefined,     // the plot dock (plots/plots.js): { open, hidden, height, keys, quantities, cursorTime, charts: [{ key, title, columns, width, height, points, last, cursor }] }
    pinned: [],           // the pinned runs (panels/pinned_runs.js): [{ n, label, colour, shown, rows, interval, until, outcome, kept }]
    inspected: null,      // the contact inspector's target and its contacts on show: { target, name, time, contacts }
    // --- the papers' panels (panels/stance_tab.js, panels/crawler_tab.js)
    stance: undefined,    // the last stance computation ({ ok, ... })
    stancePose: undefined,  // the stance on show: { index, s, stance, roll, pitch, touching }
    crawler: null,        // the crawler panel, once shown
    // --- the editor (editor/editor_tab.js) and links (share/sharing.js)
    editor: undefined,    // { issues, valid, track1, large } of the editor's last inspection
    editorReady: undefined,
    shareUrl: undefined,  // the last share link made
    linkOpened: undefined,  // a share link's scenario was opened
    linkError: undefined, // why the last share link was not opened (its code)
    // --- the Controller tab (controller/controller_panel.js)
    controller: undefined,  // once opened: { ready (its editor loaded), text (the editor's), applied (text === the scenario's
                            // program), syntax ({ line, column, message } of the text, or null), examples (their names) }
  });
}
