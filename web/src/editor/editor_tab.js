// The Edit terrain tab: the editor's panel and its handles in the 3-D view,
// both editing the document through the same commands. Every change of the
// document is inspected again (geometry, issues) and shown; a change that
// restarts (or any valid one with "live" on) runs the new scenario, and
// while the editor is open a terrain change pauses the robot that would
// drive on a terrain no longer shown. The panel, its handles in the view and
// the importers behind the view's drops are loaded by start() (the page
// calls it once its first frame is drawn).
import { loadScenarioFile, saveScenario } from '../common/files.js';

export class EditorTab {
  constructor(deps, $ = (id) => document.getElementById(id)) {
    const { signals, doc } = deps;
    Object.assign(this, deps, { $ });
    this.panel = null;
    this.view = null;
    this.editing = false;
    this.started = new Promise((resolve) => (this.startedNow = resolve));
    doc.onChange((scenario, info) => this.onDocChange(scenario, info));
    signals.tabChanged.add((tab) => {
      this.editing = tab === 'edit';
      this.view?.setVisible(this.editing);
      this.refresh(null);
    });
  }

  /** Loads the panel, the view and the importers, and creates them once the page's core is loaded. */
  async start(corePromise) {
    const { state, doc, stage, client, banners, sharing, $ } = this;
    const [core, { EditorCommands }, { EditorPanel }, { EditorView }, { MeshFields }, { HeightmapFields }, { acceptDrops }] = await Promise.all([
      corePromise,
      import('./commands.js'),
      import('./editor_panel.js'),
      import('./editor_view.js'),
      import('./mesh_fields.js'),
      import('./heightmap_fields.js'),
      import('../import/drops.js'),
    ]);
    // The importers, loaded when first used.
    const importHeightmap = async (...args) => (await import('../import/heightmap_import.js')).importHeightmap(...args);
    const importMesh = async (...args) => (await import('../import/mesh_import.js')).importMesh(...args);
    const importRobot = async (...args) => (await import('../import/robot_import.js')).importRobot(...args);
    const commands = new EditorCommands(doc, core);
    const heightmapFields = new HeightmapFields({ doc, client });
    const meshFields = new MeshFields({ doc, client });
    this.panel = new EditorPanel($('editor'), {
      doc,
      core,
      commands,
      onRun: () => {
        banners.hide();
        client.load(doc.scenario);
      },
      onShare: () => sharing.share(),
      onSave: () => saveScenario(doc.scenario),
      onLoadFile: (text, name) => loadScenarioFile({ doc, client, banners }, text, name),
      onLoadImage: (file) => importHeightmap({ doc, client, banners }, file),
      onLoadMesh: (file) => importMesh({ doc, client, banners }, file),
      sections: () => [heightmapFields.render(doc.scenario), meshFields.render(doc.scenario)],
      onLive: (on) => on && this.panel.valid && client.load(doc.scenario),
      onSelectNode: (i) => {
        this.view.selectNode(i);
        this.refresh(null);
      },
      onRender: () => this.publish(),
    });
    this.view = new EditorView(stage, commands, {
      onSelectNode: (i) => {
        this.panel.selectedNode = i;
        this.refresh(null);
      },
    });
    acceptDrops(this.stage.canvas, {
      onImage: (file) => importHeightmap({ doc, client, banners }, file),
      onMesh: (file) => importMesh({ doc, client, banners }, file),
      onScenario: (text, name) => loadScenarioFile({ doc, client, banners }, text, name),
      onRobot: (files) => importRobot({ doc, client, banners }, files),
    });
    state.editorReady = true;
    this.refresh(null);
    this.startedNow();
  }

  /** Replaces the terrain with template `id` (its default values) and runs the robot on it (once the editor started). */
  async tryTemplate(id) {
    await this.started;
    this.panel.useTemplate(id);
    if (!this.panel.valid) return;
    this.banners.hide();
    this.client.load(this.doc.scenario);
  }

  /** Inspects the document again; while the tab is open, shows it (info.kind: the terrain changed). */
  refresh(info) {
    const { panel, view } = this;
    if (!panel) return;
    const inspection = panel.inspect();
    if (this.editing) {
      panel.render();
      view.update(inspection.large ? {} : this.doc.scenario, inspection);
      if (inspection.terrain && info?.kind) this.stage.replaceTerrain(inspection.terrain);
    }
    this.publish();
  }

  /** The panel's last inspection and whether it lets the terrain run, in the app state. */
  publish() {
    const { panel } = this;
    const { issues, track1, large } = panel.inspection;
    this.state.editor = { issues, valid: panel.valid, track1: track1.map((n) => n.point), large: large ?? null };
  }

  onDocChange(scenario, info) {
    const { state, client, run, banners } = this;
    this.refresh(info);
    if (info.kind === 'preview' || info.loaded) return;  // loaded: the worker built it already
    const valid = !this.panel || this.panel.valid;
    if (info.restart || (this.panel?.live && valid)) client.load(scenario);
    else if (this.editing && state.playing) {
      run.setPlaying(false);  // the robot would drive on a terrain that is no longer shown
      banners.show('The terrain changed: press “Run on this terrain” to restart the robot on it.', 'info');
    }
  }
}
