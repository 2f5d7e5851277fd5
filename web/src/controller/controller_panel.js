// The Controller tab: the scenario's controller program (docs/controllers.md)
// in a code editor (CodeMirror, loaded when the tab first opens), examples to
// start from (the repository's controllers/*.mjs), its syntax errors marked at
// their lines as it is typed, Apply (the program into the scenario's
// control.program, one undo step, the run restarted with it), Remove, how it
// runs (or why not) and its log. The editor's text is kept in this browser's
// storage as it is typed (a draft not applied survives a reload); the applied
// program is the scenario's, so Save, the autosave and Share carry it.
//
// A program the page left out of the run (sim_client.js: not run here before,
// e.g. from a link, or stopped by the watchdog) is announced in a banner with
// Show it (the tab, the program in the editor) and Run it (the user's
// consent: it runs from now on, controller/program_trust.js). CodeMirror and
// the program checker (acorn) are loaded with the tab, not with the page.
import './controller_panel.css';

export const DRAFT_KEY = 'roverlab.controller.draft.v1';
const CHECK_AFTER_MS = 250;
const SAVE_AFTER_MS = 500;
const LOG_SHOWN = 300;  // the newest log lines listed (state.program keeps more)

/** The program the editor starts with when there is no other: the docs' first example. */
export const STARTER = `// Slow down while the base pitches: 3 rad/s on the level, 1 rad/s at 0.3 rad.
export default {
  period: 0.01,  // s of simulated time between updates
  init(model) {
    console.log(\`\${model.robot}: \${model.wheels.length} wheels\`);
  },
  update(obs) {
    const pitch = Math.abs(obs.base.pitch_rad);
    const speed = Math.max(1, 3 - (2 * pitch) / 0.3);
    return { wheel_speed: speed, plot: { pitch_rad: pitch, speed_rad_s: speed } };
  },
};
`;

/** The scenario Try this opens, the starter program applied to it. */
export const TRY_SCENARIO = 'slope-rocker8';

// The examples of the repository's controllers/ folder, read as text when picked.
const EXAMPLES = import.meta.glob('../../../controllers/*.mjs', { query: '?raw', import: 'default' });
const examples = Object.entries(EXAMPLES)
  .map(([path, load]) => ({ name: path.split('/').pop().replace(/\.mjs$/, ''), load }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** A scenario's program text (null: none, or not JavaScript). */
const programText = (scenario) => {
  const p = scenario?.control?.program;
  return p?.language === 'javascript' && typeof p.source === 'string' ? p.source : null;
};

/** The same scenario running `source` as its program (its named controller goes: a run has one). */
export function withProgram(scenario, source) {
  const s = structuredClone(scenario);
  s.control = { ...s.control, program: { language: 'javascript', source } };
  delete s.control.controller;
  return s;
}

/** The same scenario without a program. */
export function withoutProgramOf(scenario) {
  const s = structuredClone(scenario);
  if (s.control) delete s.control.program;
  return s;
}

function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

const seconds = (t) => `${Number((t ?? 0).toFixed(3))} s`;

export class ControllerPanel {
  /** deps: { state, signals, doc, client, banners, trust, storage, scenarios } (scenarios: the catalogue, for Try this) */
  constructor(deps, $ = (id) => document.getElementById(id)) {
    Object.assign(this, deps, { $ });
    this.container = $('program-panel');
    this.editor = null;        // the code editor once loaded
    this.compile = null;       // program.js's compileProgram, loaded with it
    this.loading = null;       // their import() while under way
    this.built = false;
    this.syntax = null;        // the text's syntax error { line, column, message } or null
    this.checkTimer = null;
    this.saveTimer = null;
    this.announced = null;     // the held program last announced ("reason source")
    this.docSource = programText(deps.doc.scenario);
    this.text = this.readDraft() ?? this.docSource ?? STARTER;
    deps.signals.tabChanged.add((tab) => this.tabChanged(tab));
    deps.signals.programChanged.add(() => this.render());
    deps.signals.programHeld.add((held) => this.announce(held));
    deps.doc.onChange((scenario, info) => {
      if (info.kind === 'preview') return;
      const source = programText(scenario);
      if (source === this.docSource) return;
      this.docSource = source;
      // Another program came into the scenario (a link, a file, undo): the editor shows it.
      if (source !== null) this.setText(source);
      else this.render();
    });
    window.addEventListener('pagehide', () => this.saveDraft());
    this.publish();
  }

  // ------------------------------------------------------------ the tab

  /** The side panel shows `tab`. */
  tabChanged(tab) {
    if (tab === 'controller') this.show();
  }

  /** The tab is shown: built the first time, its editor loaded. */
  show() {
    if (!this.built) this.build();
    this.loadEditor();
    this.render();
  }

  /** Shows the tab (as its button does); resolves once its editor is loaded. */
  reveal() {
    if (this.state.tab !== 'controller') this.$('tab-controller').click();
    else this.show();
    return this.loadEditor();
  }

  build() {
    this.built = true;
    const c = this.container;
    const picker = el('select', { className: 'controller-examples', title: 'A program of the repository’s controllers/ folder, into the editor (Ctrl+Z in the editor brings your text back)' },
      el('option', { value: '' }, 'Start from an example…'));
    picker.append(el('option', { value: ':starter' }, 'the starter: slow down while pitching'));
    for (const x of examples) picker.append(el('option', { value: x.name }, x.name));
    picker.addEventListener('change', () => {
      const name = picker.value;
      picker.value = '';
      this.useExample(name);
    });
    this.applyButton = el('button', { className: 'primary controller-apply', title: 'Put this program into the scenario (control.program) and run it from t = 0', textContent: 'Apply' });
    this.applyButton.addEventListener('click', () => this.apply());
    this.removeButton = el('button', { className: 'controller-remove', title: 'Take the program out of the scenario (the editor keeps its text)', textContent: 'Remove' });
    this.removeButton.addEventListener('click', () => this.remove());
    this.runButton = el('button', { className: 'controller-run', textContent: 'Run it', hidden: true, title: 'Run the scenario’s program, which was left out of the run' });
    this.runButton.addEventListener('click', () => this.runHeld());
    this.status = el('p', { className: 'controller-status', role: 'status' });
    this.problem = el('p', { className: 'controller-problem', role: 'alert' });
    this.problem.addEventListener('click', () => this.syntax && this.editor?.showLine(this.syntax.line));
    this.editorBox = el('div', { className: 'controller-editor' }, el('p', { className: 'note' }, 'Loading the editor…'));
    // Keys typed in the editor are the program's text: not the page's driving, playing or undo keys.
    this.editorBox.addEventListener('keydown', (e) => e.stopPropagation());
    this.log = el('ol', { className: 'controller-log' });
    c.append(
      el('h2', {}, 'Controller program ', el('small', {}, '(control.program: JavaScript in the simulation’s loop)')),
      this.status,
      el('div', { className: 'controller-tools' }, picker, this.applyButton, this.removeButton, this.runButton),
      this.editorBox,
      this.problem,
      el('h3', {}, 'Log ', el('small', {}, '(console.log, console.warn and warnings, at their simulated times)')),
      this.log,
      el('p', { className: 'note' },
        'update(obs) is called every period of simulated time and returns the commands (wheel_speed, left_speed, right_speed, ' +
        'joints, actuators) and values to plot (plot: { name: value }, charted under the view). Apply puts the program into the ' +
        'scenario, replacing a built-in controller, and runs it from t = 0; Save, the autosave and Share carry it. It runs in the ' +
        'simulation’s worker without the network; one that does not return within 2 s is stopped. See docs/controllers.md.'),
    );
  }

  /** Loads CodeMirror and the program checker (once) and puts the editor in the tab. */
  loadEditor() {
    this.loading ??= Promise.all([import('./code_editor.js'), import('./program.js')]).then(([{ createCodeEditor }, { compileProgram }]) => {
      this.compile = compileProgram;
      this.editorBox.textContent = '';
      this.editor = createCodeEditor(this.editorBox, { text: this.text, onChange: (text) => this.typed(text) });
      this.check();
      this.render();
      return this.editor;
    });
    return this.loading;
  }

  // ------------------------------------------------------------ the text

  /** The editor's text changed (typed, an example picked). */
  typed(text) {
    this.text = text;
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => {
      this.check();
      this.render();
    }, CHECK_AFTER_MS);
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.saveDraft(), SAVE_AFTER_MS);
    this.publish();
  }

  /** Puts `text` in the editor (an undoable step of it) or, before it is loaded, keeps it for it. */
  setText(text) {
    if (this.editor) this.editor.setText(text);  // typed() follows
    else {
      this.text = text;
      this.check();
      this.saveDraft();
    }
    this.render();
  }

  /** The text's syntax checked as compileProgram checks it (nothing of it runs here), once it is loaded. */
  check() {
    clearTimeout(this.checkTimer);
    if (!this.compile) return;
    const compiled = this.compile(this.text);
    this.syntax = compiled.ok ? null : compiled.error;
    this.markProblems();
    this.publish();
  }

  async useExample(name) {
    if (!name) return;
    const text = name === ':starter' ? STARTER : await examples.find((x) => x.name === name)?.load();
    if (typeof text === 'string') this.setText(text);
  }

  readDraft() {
    try {
      const text = this.storage?.getItem(DRAFT_KEY);
      return typeof text === 'string' && text ? text : null;
    } catch {
      return null;
    }
  }

  saveDraft() {
    clearTimeout(this.saveTimer);
    try {
      this.storage?.setItem(DRAFT_KEY, this.text);
    } catch {
      // storage full or disabled: the text stays in the page
    }
  }

  // ------------------------------------------------------------ Apply, Remove, Run it

  /** The editor's program into the scenario (one undo step) and the run restarted with it; a syntax error is shown instead. */
  async apply() {
    const { doc, client, trust, banners } = this;
    await this.loadEditor();
    this.check();
    if (this.syntax) {
      this.render();
      this.editor?.showLine(this.syntax.line);
      return;
    }
    const source = this.text;
    trust.trust(source);  // the user's own: it runs from now on
    this.announced = null;
    banners.hide();
    if (programText(doc.scenario) === source) client.load(doc.scenario);  // the same program: run it again
    else doc.edit('apply the controller program', (s) => withProgram(s, source), { restart: true });
    this.saveDraft();
  }

  remove() {
    if (!this.doc.scenario.control?.program) return;
    this.banners.hide();
    this.doc.edit('remove the controller program', (s) => withoutProgramOf(s), { restart: true });
  }

  /** Run it: the program left out of the run (a link's, a stopped one) runs, with the scenario on show. */
  runHeld() {
    const { state, doc, client, trust, banners } = this;
    const held = state.program.held;
    if (!held) return;
    trust.trust(held.source);
    this.announced = null;
    banners.hide();
    client.load(programText(doc.scenario) === held.source ? doc.scenario : state.scenario);
  }

  /** Shows the held program: the tab, the program in the editor. */
  async showProgram(source) {
    await this.reveal();
    this.setText(source);
  }

  /** Try this: the slope scenario with the starter program, applied (one undo step) and run. */
  async tryExample() {
    const file = this.scenarios.find((s) => s.id === TRY_SCENARIO);
    if (!file) return;
    const text = await file.load();
    this.setText(STARTER);
    this.trust.trust(STARTER);
    this.banners.hide();
    this.doc.replace(`open ${TRY_SCENARIO} with the starter program`, withProgram(JSON.parse(text), STARTER), { restart: true });
  }

  /** A program left out of the run: the banner asks (Show it / Run it), once per program while the
   * scenario on show is only run again (an edit, a reset of the worker); a link or a file asks each time. */
  announce(held) {
    const key = `${held.reason} ${held.source}`;
    const again = key === this.announced && !held.origin;
    this.announced = key;
    if (again) return this.render();
    const what = held.origin === 'link' ? 'This link contains' : held.origin === 'file' ? 'This file contains' : 'This scenario contains';
    const text =
      held.reason === 'stopped'
        ? `${held.message}. The scenario is open without it, paused; your program is kept in the Controller tab.`
        : `${what} a controller program. It has not run: the scenario is open without it, paused. Show it to read it; Run it to run it.`;
    this.banners.show(text, 'warning', [
      { label: 'Show it', run: () => this.showProgram(held.source) },
      { label: held.reason === 'stopped' ? 'Run it again' : 'Run it', run: () => this.runHeld() },
    ]);
    this.render();
  }

  // ------------------------------------------------------------ what is shown

  markProblems() {
    if (!this.editor) return;
    const problems = [];
    if (this.syntax) problems.push(this.syntax);
    const error = this.state.program.error;
    if (!this.syntax && error?.line && this.text === this.state.program.source) problems.push({ line: error.line, column: error.column, message: error.message });
    this.editor.mark(problems);
  }

  render() {
    this.publish();
    if (!this.built) return;
    const { state, doc } = this;
    const p = state.program;
    const inScenario = programText(doc.scenario);
    const applied = inScenario !== null && inScenario === this.text;
    let status;
    let kind;
    if (inScenario === null) {
      const named = doc.scenario.control?.controller;
      status = `This scenario has no controller program${named ? ` (it runs the built-in ${named} controller, which Apply replaces)` : ''}. Apply runs the one below.`;
      kind = 'none';
    } else if (p.held && p.source === inScenario) {
      status = p.held.reason === 'stopped' ? `Not running: ${p.held.message}.` : 'Not running: this program has not run in this browser (it came with a link, a file or a scenario from elsewhere). Read it, then Run it.';
      kind = 'held';
    } else if (p.error && p.source === inScenario) {
      status = `Stopped the run at t = ${seconds(p.error.time)}: ${p.error.message}`;
      kind = 'error';
    } else if (p.running && p.source === inScenario) {
      status = 'Runs in this run.';
      kind = 'running';
    } else {
      status = 'In the scenario; it runs with the next run.';
      kind = 'idle';
    }
    if (inScenario !== null && !applied) status += ' The editor’s text differs from it: Apply to run the text.';
    this.status.textContent = status;
    this.status.dataset.status = kind;
    this.runButton.hidden = !(p.held && p.source === inScenario);
    this.removeButton.disabled = inScenario === null;
    this.problem.textContent = this.syntax ? `Syntax: line ${this.syntax.line}, column ${this.syntax.column}: ${this.syntax.message}` : '';
    this.markProblems();
    this.renderLog(p.log);
  }

  renderLog(lines) {
    if (lines === this.loggedLines) return;
    this.loggedLines = lines;
    const shown = lines.slice(-LOG_SHOWN);
    this.log.replaceChildren(
      ...shown.map((l) => el('li', { className: l.level }, el('span', { className: 't' }, `t = ${seconds(l.t)}`), ` ${l.text}`)),
    );
    if (!shown.length) this.log.append(el('li', { className: 'empty' }, 'nothing logged yet'));
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** state.controller, for the tests. */
  publish() {
    this.state.controller = {
      ready: Boolean(this.editor),
      text: this.text,
      applied: this.text === programText(this.doc.scenario),
      syntax: this.syntax,
      examples: examples.map((x) => x.name),
    };
  }
}
