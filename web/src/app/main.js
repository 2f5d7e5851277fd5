// Roverlab web app, the root: creates the modules and wires them with the
// app's signals (signals.js). Each module owns its part of the page; the
// state they share is declared in app_state.js. An app panel is one module
// and one line below.
//
// What the first frame waits for comes first: the simulation worker (it
// downloads and compiles the core itself, whatever this thread is busy
// with), the 3-D view and the run. The rest is
// loaded with import() when first needed: the plots' charts, the terrain
// editor, the controller panel and the page's own core once the first frame
// is drawn (lazy.js: afterFirstFrame), the other tabs when first opened, the
// importers, the recorder and CodeMirror when first used.
import { createAppState } from './app_state.js';
import { openingScenario, openingText, wireAddress } from '../share/address.js';
import { Banners } from './banners.js';
import { wireCameraPresets } from '../view/camera_presets.js';
import { ContactInspector } from '../panels/contact_inspector.js';
import { wireControls } from './controls.js';
import { wireHelp } from '../panels/help.js';
import { makeCrawlerTab } from '../panels/crawler_tab.js';
import { EditorDocument } from '../editor/document.js';
import { EditorTab } from '../editor/editor_tab.js';
import { afterFirstFrame, lazily } from './lazy.js';
import { wirePickers } from '../panels/pickers.js';
import { PinnedRuns } from '../panels/pinned_runs.js';
import { Plots } from '../plots/plots.js';
import { ProgramTrust } from '../controller/program_trust.js';
import { wireRecording } from './recording.js';
import { rejectedAtStart } from '../scenario/rejected_work.js';
import { Run } from './run.js';
import { DEFAULT_ID, scenarioFile, scenarios } from '../scenario/scenarios.js';
import { Stage } from '../view/scene.js';
import { fragmentOf } from '../share/share_link.js';
import { Sharing } from '../share/sharing.js';
import { createSignals } from '../common/signals.js';
import { SimClient } from '../sim/sim_client.js';
import { wireTabs } from './tabs.js';
import { wireTerrainColour } from '../view/terrain_colour.js';
import { installTestHooks } from './test_hooks.js';
import { wireTouchDrive } from './touch_drive.js';
import { watchViewQuality } from '../view/view_quality.js';
import './style.css';

// The page's start is marked in the browser's performance timeline (roverlab:script, roverlab:view:
// the 3-D view made; sim_client.js and run.js mark the worker's core, the first model and the first frame).
performance.mark('roverlab:script');
const $ = (id) => document.getElementById(id);
const state = createAppState();
const signals = createSignals();
const banners = new Banners(state);
const attachTestHooks = installTestHooks({ state, signals });

const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;  // storage disabled: no autosave
  }
})();

// The simulation in its worker (started at once: it downloads and compiles the core), and
// the run it shows; a scenario's controller program runs there only if this browser ran it at the
// user's click (or it came with the app).
const trust = new ProgramTrust(storage);
const client = new SimClient({ state, signals, banners, speed: () => state.speed, trust });
client.start();
// A core on this thread too, instantiated when first needed from the module the worker compiled: the
// editor's geometry and checks, the papers' panels.
const pageCore = lazily(async () => (await import('../sim/core.js')).loadCore({ module: await client.compiled }));
const firstFrame = afterFirstFrame(state, signals);

// The rest once the worker runs (a worker starts only between this thread's tasks, and the next
// ones are long), at most START_WAIT_MS, and the address's scenario file (?scenario=ID), if any, is
// loaded.
const START_WAIT_MS = 300;
Promise.all([Promise.race([client.started, new Promise((resolve) => setTimeout(resolve, START_WAIT_MS))]), openingText(location.href)])
  .then(startPage)
  .catch((error) => banners.show(`The page failed to start: ${error.message}`));

async function startPage() {
  // The user's scenario: every change (editor, pickers, parameters) is an undoable command,
  // autosaved to this browser's storage. The address's scenario, the autosaved work, or the default.
  const restored = EditorDocument.restore(storage);
  const opening = openingScenario({ href: location.href, restored, fallback: scenarioFile(DEFAULT_ID) });
  const doc = new EditorDocument(opening.scenario, { storage, history: opening.scenario === restored?.scenario ? restored.history : null });
  window.addEventListener('pagehide', () => doc.saveNow());

  // The run, and the first load sent to the worker; then the 3-D view, once the plot dock's height
  // and the scenario's description under the toolbar are there (its drawing buffer is made at the
  // size it keeps).
  const plots = new Plots($('plot-dock'), { state, signals, whenDrawn: firstFrame });
  const picker = wirePickers({ state, signals, doc, client, banners, initialId: opening.id });
  const run = new Run({ state, signals, plots, client, banners });
  wireControls({ state, signals, run, client, doc, banners });
  client.setSpeed(state.speed);  // the picker's value (a browser may keep it over a reload)
  // The first run steps once the GPU has drawn its first frame: the stepping sets V8's optimising
  // compiler going on the core's step, which would share the processor with the page and the GPU
  // process before that (docs/benchmarks/README.md, first_frame.json).
  client.holdPlay(firstFrame.then(() => stage.drawnByGpu()));
  client.load(doc.scenario, { onRejected: (issues) => rejectedAtStart({ state, signals, doc, client, banners, issues }) });
  if (restored && !opening.id && !fragmentOf(location.href))
    banners.show(`Restored your work autosaved ${new Date(restored.savedAt).toLocaleString()}.`, 'info');
  // The messages to the worker go on their way in a task of this thread's own: it runs before the
  // view's long one (the WebGL context), so the worker builds the scenario meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const stage = new Stage($('view'));
  performance.mark('roverlab:view');
  run.setStage(stage);
  const sharing = new Sharing({ state, doc, stage, client, banners, saved: restored, openStudy: (study, scenario) => studyTab().then((tab) => tab.openShared(study, scenario)) });
  watchViewQuality({ state, signals, stage });
  wireTerrainColour({ stage });
  wireCameraPresets({ state, stage, run });
  wireRecording({ state, stage, run, banners });
  new PinnedRuns({ state, signals, stage, banners });
  new ContactInspector({ state, signals, stage });
  attachTestHooks({ stage, doc, picker });

  // The side panel's tabs; a tab's module is loaded when it is first opened (or its help's Try this
  // or a link needs it), then hears which tab is open.
  wireTabs({ state, signals });
  const editorTab = new EditorTab({ state, signals, doc, stage, client, run, banners, sharing });
  const tab = (name, make) => {
    // The tab's panel is inert until its module is made: a click on a control whose
    // listener is not yet attached would be lost.
    const panel = $(document.querySelector(`[data-tab="${name}"]`).dataset.panel);
    panel.inert = true;
    const load = lazily(async () => {
      const made = await make();
      made.tabChanged?.(state.tab);
      panel.inert = false;
      return made;
    });
    signals.tabChanged.add((t) => t === name && load().catch((error) => banners.show(`The tab failed to load: ${error.message}`)));
    return load;
  };
  const stanceTab = tab('stance', async () => {
    const { StanceTab } = await import('../panels/stance_tab.js');
    return new StanceTab({ state, signals, doc, stage, run, picker, corePromise: pageCore() });
  });
  const robotTab = tab('robot', async () => new (await import('../panels/robot_tab.js')).RobotTab({ state, signals, doc }));
  const studyTab = tab('study', async () => {
    const { StudyTab } = await import('../study/study_tab.js');
    return new StudyTab({ state, signals, doc, client, banners, corePromise: pageCore(), sharing, trust });
  });
  // The controller panel hears of the scenario's program from the first frame on (a program held
  // back is announced before that, once it is there).
  const held = [];  // programs held back before the panel was there
  const holding = signals.programHeld.add((h) => held.push(h));
  const controllerPanel = tab('controller', async () => {
    const { ControllerPanel } = await import('../controller/controller_panel.js');
    const panel = new ControllerPanel({ state, signals, doc, client, banners, trust, storage, scenarios });
    holding();
    for (const h of held.splice(0)) panel.announce(h);
    return panel;
  });
  const crawlerTab = tab('crawler', () => makeCrawlerTab({ state, pageCore }));
  wireHelp({ state, signals, editorTab, stanceTab, crawlerTab, robotTab, studyTab, controllerPanel, picker });
  wireTouchDrive({ state, signals });

  // Once the first frame is drawn, and the plots' charts made, the editor instantiates the page's
  // core, and a share link in the address is opened.
  wireAddress({ doc, banners, opening, picker });
  firstFrame.then(() => stage.warmUpLater());
  firstFrame.then(() => controllerPanel()).catch((error) => banners.show(`The Controller tab failed to load: ${error.message}`));
  firstFrame
    .then(() => plots.chartsLoaded)
    .then(() => editorTab.start(pageCore()))
    .then(() => sharing.openLink())
    .catch((error) => banners.show(`The terrain editor failed to start: ${error.message}`));

  function loop(now) {
    stage.frameStart();
    signals.frame.dispatch(run.draw(now), now);
    requestAnimationFrame(loop);
  }
  requestAnimationFrame(loop);
}
