// Roverlab web app, the root: creates the modules and wires them with the
// app's signals (signals.js). Each module owns its part of the page; the
// state they share is declared in app_state.js. An app panel is one module
// and one line below.
import { createAppState } from './app_state.js';
import { openingScenario, wireAddress } from '../share/address.js';
import { Banners } from './banners.js';
import { wireCameraPresets } from '../view/camera_presets.js';
import { ContactInspector } from '../panels/contact_inspector.js';
import { ControllerPanel } from '../controller/controller_panel.js';
import { wireControls } from './controls.js';
import { loadCore } from '../sim/core.js';
import { wireHelp } from '../panels/help.js';
import { wireCrawlerTab } from '../panels/crawler_tab.js';
import { EditorDocument } from '../editor/document.js';
import { EditorTab } from '../editor/editor_tab.js';
import { wirePickers } from '../panels/pickers.js';
import { PinnedRuns } from '../panels/pinned_runs.js';
import { Plots } from '../plots/plots.js';
import { ProgramTrust } from '../controller/program_trust.js';
import { wireRecording } from './recording.js';
import { rejectedAtStart } from '../scenario/rejected_work.js';
import { RobotTab } from '../panels/robot_tab.js';
import { Run } from './run.js';
import { DEFAULT_ID, scenarios } from '../scenario/scenarios.js';
import { Stage } from '../view/scene.js';
import { fragmentOf } from '../share/share_link.js';
import { Sharing } from '../share/sharing.js';
import { createSignals } from '../common/signals.js';
import { SimClient } from '../sim/sim_client.js';
import { StanceTab } from '../panels/stance_tab.js';
import { StudyTab } from '../study/study_tab.js';
import { wireTabs } from './tabs.js';
import { wireTerrainColour } from '../view/terrain_colour.js';
import { installTestHooks } from './test_hooks.js';
import { wireTouchDrive } from './touch_drive.js';
import { watchViewQuality } from '../view/view_quality.js';
import './style.css';

const $ = (id) => document.getElementById(id);
const state = createAppState();
const signals = createSignals();
const stage = new Stage($('view'));
const banners = new Banners(state);

// The user's scenario: every change (editor, pickers, parameters) is an
// undoable command, autosaved to this browser's storage.
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;  // storage disabled: no autosave
  }
})();
const restored = EditorDocument.restore(storage);
// The address's scenario (?scenario=ID), the autosaved work, or the default.
const opening = openingScenario({ href: location.href, restored, fallback: scenarios.find((s) => s.id === DEFAULT_ID) });
const doc = new EditorDocument(opening.scenario, { storage, history: opening.scenario === restored?.scenario ? restored.history : null });
window.addEventListener('pagehide', () => doc.saveNow());
const corePromise = loadCore();  // a core on this thread too: the editor's geometry and checks

// The simulation in its worker, and the run it shows; a scenario's controller program runs
// there only if this browser ran it at the user's click (or it came with the app).
const trust = new ProgramTrust(storage);
const client = new SimClient({ state, signals, banners, speed: () => state.speed, trust });
const run = new Run({ state, signals, stage, plots: new Plots($('plot-dock'), { state, signals }), client, banners });
const sharing = new Sharing({ state, doc, stage, client, banners, saved: restored, openStudy: (study, scenario) => studyTab.openShared(study, scenario) });
const picker = wirePickers({ state, signals, doc, client, banners, initialId: opening.id });
wireControls({ state, signals, run, client, doc, banners });
watchViewQuality({ state, signals, stage });
wireTerrainColour({ stage });
wireCameraPresets({ state, stage, run });
wireRecording({ state, stage, run, banners });
new PinnedRuns({ state, signals, stage, banners });
new ContactInspector({ state, signals, stage });
installTestHooks({ state, signals, stage, doc, picker });

// The side panel's tabs.
wireTabs({ state, signals });
const editorTab = new EditorTab({ state, signals, doc, stage, client, run, banners, sharing });
const stanceTab = new StanceTab({ state, signals, doc, stage, run, picker, corePromise });
wireCrawlerTab({ state, signals, corePromise });
const robotTab = new RobotTab({ state, signals, doc });
const studyTab = new StudyTab({ state, signals, doc, client, banners, corePromise, sharing, trust });
const controllerPanel = new ControllerPanel({ state, signals, doc, client, banners, trust, storage, scenarios });
wireHelp({ state, signals, editorTab, stanceTab, robotTab, studyTab, controllerPanel, picker });
wireTouchDrive({ state, signals });

// Start: the worker builds the document's scenario; the editor waits for the page's core.
client.start();
client.load(doc.scenario, { onRejected: (issues) => rejectedAtStart({ state, signals, doc, client, banners, issues }) });
if (restored && !opening.id && !fragmentOf(location.href))
  banners.show(`Restored your work autosaved ${new Date(restored.savedAt).toLocaleString()}.`, 'info');
wireAddress({ doc, banners, opening, picker });
editorTab
  .start(corePromise)
  .then(() => sharing.openLink())
  .catch((error) => banners.show(`The terrain editor failed to start: ${error.message}`));

function loop(now) {
  stage.frameStart();
  signals.frame.dispatch(run.draw(now), now);
  requestAnimationFrame(loop);
}
requestAnimationFrame(loop);
