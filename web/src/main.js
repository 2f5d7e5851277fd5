// Roverlab web app, the root: creates the modules and wires them with the
// app's signals (signals.js). Each module owns its part of the page; the
// state they share is declared in app_state.js. An app panel is one module
// and one line below.
import { createAppState } from './app_state.js';
import { Banners } from './banners.js';
import { wireControls } from './controls.js';
import { loadCore } from './core.js';
import { wireCrawlerTab } from './crawler_tab.js';
import { EditorDocument } from './editor/document.js';
import { EditorTab } from './editor_tab.js';
import { wirePickers } from './pickers.js';
import { Plots } from './plots.js';
import { Run } from './run.js';
import { DEFAULT_ID, scenarios } from './scenarios.js';
import { Stage } from './scene.js';
import { fragmentOf } from './share_link.js';
import { Sharing } from './sharing.js';
import { createSignals } from './signals.js';
import { SimClient } from './sim_client.js';
import { StanceTab } from './stance_tab.js';
import { wireTabs } from './tabs.js';
import { installTestHooks } from './test_hooks.js';
import { watchViewQuality } from './view_quality.js';
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
const doc = new EditorDocument(restored?.scenario ?? JSON.parse(scenarios.find((s) => s.id === DEFAULT_ID).text), { storage });
window.addEventListener('pagehide', () => doc.saveNow());
const corePromise = loadCore();  // a core on this thread too: the editor's geometry and checks

// The simulation in its worker, and the run it shows.
const client = new SimClient({ state, signals, banners, speed: () => Number($('speed').value) });
const run = new Run({ state, signals, stage, plots: new Plots($('plot-dock'), { state, signals }), client, banners });
const sharing = new Sharing({ state, doc, stage, client, banners, saved: restored });
wirePickers({ state, signals, doc, restored });
wireControls({ state, run, client, doc, banners });
watchViewQuality({ state, signals, stage });
installTestHooks({ state, signals, stage, doc });

// The side panel's tabs.
wireTabs({ state, signals });
const editorTab = new EditorTab({ state, signals, doc, stage, client, run, banners, sharing });
new StanceTab({ state, signals, doc, stage, run, corePromise });
wireCrawlerTab({ state, signals, corePromise });

// Start: the worker builds the document's scenario; the editor waits for the page's core.
client.start();
client.load(doc.scenario);
if (restored && !fragmentOf(location.href))
  banners.show(`Restored your work autosaved ${new Date(restored.savedAt).toLocaleString()}.`, 'info');
editorTab
  .start(corePromise)
  .then(() => sharing.openLink())
  .catch((error) => banners.show(`The terrain editor failed to start: ${error.message}`));

function loop(now) {
  signals.frame.dispatch(run.draw(now), now);
  requestAnimationFrame(loop);
}
requestAnimationFrame(loop);
