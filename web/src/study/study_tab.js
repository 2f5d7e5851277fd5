// The Study tab: a study (docs/study-format.md) built from the scenario on
// show, or opened from studies/, a file or a share link; run in this
// browser's workers (study_pool.js) with a progress bar and Cancel; its
// results drawn as they come (study_view.js); a cell or a point clicked opens
// that run in the view (the base scenario with the run's values set by the
// core, as `roverlab run --set` sets them) and plays it; the rows exported
// as the command line's CSV; the study shared as a link. The core judges
// every study (core.parseStudy on this page): its issues are listed with
// their paths and marked at their fields, and a study with issues does not
// run. A study whose base scenario carries a controller program runs it in
// every row (study/program_rows.js); one the user has not run here before
// (controller/program_trust.js: from a file, a link, a scenario held without
// it) runs only after "Run it" in the banner Run raises. The tab's element says where the study is (data-status: idle,
// running, done, cancelled or failed; data-done, data-total) for the tests.
import { download } from '../common/files.js';
import { exportName, slug } from '../common/export_names.js';
import { formatIssues } from '../common/issues.js';
import { scenarioFile } from '../scenario/scenarios.js';
import { readyStudies } from './ready_studies.js';
import { MEASURES, STUDY_FORMAT, drawnPredicate, linkPayload, newStudy, parameterSuggestions, studyFromLink, withBase } from './study_document.js';
import { StudyForm, el } from './study_form.js';
import { MAX_WORKERS, RUN_TIME_LIMIT_S, StudyPool, defaultWorkerCount } from './study_pool.js';
import { StudyResults } from './study_results.js';
import { StudyPlot, plotModel, showValue } from './study_view.js';
import './study.css';

/** The tab's Try this: a 2 × 3 grid of the wheel rig on flat ground, 2 s a run. */
export const STUDY_EXAMPLE = {
  scenario: 'flat-wheel-rig',
  duration: 2,
  parameters: [
    { path: 'robot.params.wheel_radius', values: [0.15, 0.25] },
    { path: 'control.wheel_speed', from: 1, to: 3, steps: 3 },
  ],
  predicates: { moved: { base_x_past: 0.6 } },
};

const VALIDATE_AFTER_MS = 150;
const TABLE_ROWS = 300;  // rows listed in the table (all are exported)

/** A wall time: 4.2 s below a minute, else m:ss. */
function clock(seconds) {
  if (seconds < 59.95) return `${Math.max(0, seconds).toFixed(1)} s`;
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const lastPart = (path) => path.split('.').pop();

export class StudyTab {
  constructor({ state, signals, doc, client, banners, corePromise, sharing, trust }, $ = (id) => document.getElementById(id)) {
    Object.assign(this, { state, signals, doc, client, banners, corePromise, sharing, trust, $ });
    this.container = $('study');
    this.study = null;      // the document being edited
    this.checked = null;    // { text, parsed }: the core's answer for the document as it is
    this.results = null;    // StudyResults of the last run
    this.pool = null;       // while a study runs
    this.status = 'idle';
    this.progress = null;   // the pool's last progress
    this.startedAt = 0;
    this.endedAt = 0;
    this.view = { colourBy: 'predicate', predicate: null, measure: 'base_x_m', x: 0, y: 1, slice: {} };
    this.built = false;
    this.active = false;
    this.drawPending = false;
    this.validateTimer = null;
    signals.tabChanged.add((tab) => this.tabChanged(tab));
    signals.presetsLoaded.add(() => this.built && this.study && this.form.show(this.study, this.suggestions()));
    window.addEventListener('resize', () => this.active && this.redraw());
  }

  /** The side panel shows `tab`. */
  tabChanged(tab) {
    this.active = tab === 'study';
    if (this.active) this.showTab();
  }

  /** The tab is shown: made the first time, with a study of the scenario on show. */
  showTab() {
    if (!this.built) this.build();
    if (!this.study) this.setStudy(newStudy(this.doc.scenario, this.state.presets));
    this.redraw();
  }

  /** Shows the tab (as its button does). */
  reveal() {
    if (this.state.tab !== 'study') this.$('tab-study').click();
    else this.showTab();
  }

  build() {
    this.built = true;
    const c = this.container;
    // Keys typed into the study's fields are the study's: not the page's driving, playing or undo keys.
    c.addEventListener('keydown', (e) => {
      if (e.target.matches('input, textarea, select')) e.stopPropagation();
    });
    const ready = el('select', { className: 'study-ready', title: 'The studies of the repository’s studies/ folder' });
    ready.append(
      el('option', { value: '', textContent: readyStudies.length ? 'Open a ready-made study…' : 'no ready-made studies' }),
      ...readyStudies.map((s) => el('option', { value: s.id, textContent: s.name, title: s.description })),
    );
    ready.addEventListener('change', () => {
      const s = readyStudies.find((r) => r.id === ready.value);
      ready.value = '';
      if (s) this.openText(s.text, `studies/${s.id}.json`);
    });
    const file = el('input', { type: 'file', accept: '.json,application/json', hidden: true });
    file.addEventListener('change', async () => {
      const [f] = file.files;
      file.value = '';
      if (f) this.openText(await f.text(), f.name);
    });
    const button = (label, title, run, className = '') => {
      const b = el('button', { type: 'button', textContent: label, title, className });
      b.addEventListener('click', run);
      return b;
    };
    this.baseName = el('b');
    this.form = new StudyForm(el('div', { className: 'study-form' }), (study) => this.edited(study));
    this.issueList = el('ul', { className: 'study-issues', role: 'status' });
    this.workers = el('input', { type: 'number', min: 1, max: MAX_WORKERS, step: 1, value: defaultWorkerCount(), className: 'study-workers' });
    this.limit = el('input', { type: 'number', min: 1, step: 'any', value: RUN_TIME_LIMIT_S, className: 'study-limit' });
    this.runButton = button('Run', 'Run the study in this browser’s workers', () => this.run(), 'primary study-run');
    this.cancelButton = button('Cancel', 'Stop the workers: the rows finished are kept', () => this.cancel(), 'study-cancel');
    this.bar = el('progress', { className: 'study-progress', max: 1, value: 0 });
    this.statusText = el('span', { className: 'study-status', role: 'status' });
    this.drawControls = el('div', { className: 'study-draw' });
    this.plotBox = el('div', { className: 'study-plot-box' });
    this.plot = new StudyPlot(this.plotBox, (target) => this.pick(target));
    this.staleNote = el('p', { className: 'note study-stale', hidden: true });
    this.openedNote = el('p', { className: 'note study-opened', hidden: true });
    this.csvButton = button('Export CSV', 'The rows as the command line writes them (roverlab study --out)', () => this.exportCsv('main'), 'study-csv');
    this.runsCsvButton = button('Export runs CSV', 'Every run of the threshold searches, one row each', () => this.exportCsv('runs'), 'study-runs-csv');
    this.table = el('table', { className: 'study-table' });
    this.rowsSummary = el('summary', {}, 'Rows');
    this.rowsBox = el('details', { className: 'study-rows' }, this.rowsSummary, el('div', { className: 'study-table-box' }, this.table));
    this.rowsBox.addEventListener('toggle', () => this.redraw());
    this.json = el('textarea', { className: 'study-json-text', spellcheck: false, rows: 12 });
    this.programText = el('pre', { className: 'study-program-text' });
    this.programBox = el('details', { className: 'study-program', hidden: true }, el('summary', {}, 'Controller program ', el('small', {}, '(of the base scenario: it runs in every row)')), this.programText);
    const applyJson = button('Apply', 'Use this JSON as the study (its base scenario stays unless it names one)', () => this.applyJson());
    c.replaceChildren(
      el('h2', {}, 'Study ', el('small', {}, '(many runs of one scenario, in this browser)')),
      el(
        'div',
        { className: 'study-tools' },
        ready,
        button('Open file…', 'A study file (its scenario inline)', () => file.click()),
        button('Save', 'The study as a JSON file (roverlab study runs it too)', () => this.save()),
        button('Share', 'A link that opens this study in the Study tab', () => this.share()),
        file,
      ),
      el(
        'p',
        { className: 'study-base' },
        'Base scenario: ',
        this.baseName,
        ' ',
        button('Use the scenario on show', 'Make the scenario on show (with your edits) the base of this study; its parameters stay', () => this.useScenarioOnShow()),
      ),
      this.programBox,
      this.form.container,
      this.issueList,
      el(
        'div',
        { className: 'study-run-bar' },
        el('label', { title: `Web Workers running rows at once (1 … ${MAX_WORKERS}); this machine has ${navigator.hardwareConcurrency || 1} logical processors` }, 'workers ', this.workers),
        el('label', { title: 'A run taking longer (wall time) is stopped and its row marked failed' }, 'time limit per run ', this.limit, ' s'),
        this.runButton,
        this.cancelButton,
      ),
      el('div', { className: 'study-progress-line' }, this.bar, this.statusText),
      this.staleNote,
      this.drawControls,
      this.plotBox,
      this.openedNote,
      el('div', { className: 'study-exports' }, this.csvButton, this.runsCsvButton),
      this.rowsBox,
      el(
        'details',
        { className: 'study-json' },
        el('summary', {}, 'Study JSON ', el('small', {}, '(without its base scenario)')),
        this.json,
        applyJson,
      ),
    );
    this.showStatus();
  }

  /** The paths offered for the study's base scenario. */
  suggestions(study = this.study) {
    return parameterSuggestions(study?.scenario, this.state.presets);
  }

  /** A new document in the tab (its form drawn again, checked by the core). */
  setStudy(study) {
    this.study = study;
    this.baseName.textContent = study.scenario?.name ?? '(unnamed scenario)';
    const program = this.program();
    this.programBox.hidden = !program;
    this.programText.textContent = program?.source ?? '';
    this.form.show(study, this.suggestions());
    this.showJson();
    return this.validate();
  }

  /** A change made in the form. */
  edited(study) {
    this.study = study;
    this.showJson();
    clearTimeout(this.validateTimer);
    this.validateTimer = setTimeout(() => this.validate(), VALIDATE_AFTER_MS);
  }

  showJson() {
    if (document.activeElement === this.json) return;
    this.json.value = JSON.stringify(linkPayload(this.study).study, null, 2);
  }

  /** The core's answer for the document as it is: its issues listed and marked; resolves with it. */
  async validate() {
    clearTimeout(this.validateTimer);
    const core = await this.corePromise;
    const text = JSON.stringify(this.study);
    const parsed = core.parseStudy(text);
    this.checked = { text, parsed };
    const issues = parsed.ok ? [] : parsed.issues;
    this.form.markIssues(issues);
    this.issueList.replaceChildren(...issues.map((i) => el('li', {}, el('code', {}, i.path || '(the study)'), `: ${i.message}`)));
    this.preview = parsed.ok ? new StudyResults(text, parsed) : null;
    this.showStatus();
    this.redraw();
    return parsed;
  }

  /** Opens a study's text (a ready-made study, a file): refused with the core's issues when it is not one to run. */
  async openText(text, source) {
    const core = await this.corePromise;
    let doc = null;
    try {
      doc = JSON.parse(text);
    } catch {
      // The core says where the JSON breaks.
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc) || doc.format !== STUDY_FORMAT || typeof doc.scenario !== 'object' || doc.scenario === null) {
      const parsed = core.parseStudy(text);
      const issues = parsed.ok ? [{ path: 'scenario', message: 'must be the base scenario itself (an object)' }] : parsed.issues;
      return this.banners.show(`${source} was not opened as a study:\n${formatIssues(issues)}`);
    }
    this.reveal();
    return this.adopt(doc, source);
  }

  /** A share link's study (study_link: the study without its scenario), its base scenario the link's. */
  openShared(study, scenario) {
    this.reveal();
    return this.adopt(studyFromLink(scenario, study), 'This link’s study');
  }

  /** A study opened from elsewhere: in the form, its results gone, its issues in a banner. */
  async adopt(study, source) {
    if (this.pool) this.cancel();
    this.results = null;
    this.preview = null;
    this.view.predicate = null;
    this.openedNote.hidden = true;
    const parsed = await this.setStudy(study);
    if (!parsed.ok) this.banners.show(`${source} cannot run as it is (fix it in the Study tab):\n${formatIssues(parsed.issues)}`);
    else this.banners.show(`${source} is open in the Study tab: ${parsed.runs} ${parsed.isThreshold ? 'runs at most' : 'runs'}; press Run to run it.`, 'info');
    return parsed;
  }

  /** The tab's Try this: STUDY_EXAMPLE, run at once. */
  async tryExample() {
    const scenario = JSON.parse(await scenarioFile(STUDY_EXAMPLE.scenario).load());
    scenario.simulation = { ...(scenario.simulation ?? {}), duration: STUDY_EXAMPLE.duration };
    this.reveal();
    const study = { format: STUDY_FORMAT, version: 1, name: `${scenario.name}: wheel size and speed`, scenario, parameters: STUDY_EXAMPLE.parameters, predicates: STUDY_EXAMPLE.predicates };
    if (this.pool) this.cancel();
    this.results = null;
    const parsed = await this.setStudy(study);
    if (parsed.ok) this.run();
  }

  useScenarioOnShow() {
    this.setStudy(withBase(this.study, this.doc.scenario));
  }

  applyJson() {
    let doc;
    try {
      doc = JSON.parse(this.json.value);
    } catch (error) {
      return this.banners.show(`The study's JSON was not applied: it is not JSON (${error.message}).`);
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return this.banners.show('The study’s JSON was not applied: a study is a JSON object.');
    this.json.blur();
    this.setStudy('scenario' in doc ? doc : { ...doc, scenario: this.study.scenario });
  }

  save() {
    if (!this.study) return;
    download(`${slug(this.study.name)}.study.json`, JSON.stringify(this.study, null, 2), 'application/json');
  }

  share() {
    if (this.study) this.sharing.shareStudy(this.study, () => this.save());
  }

  // --- running

  /** The base scenario's controller program ({ language, source }), or null. */
  program() {
    const p = this.study?.scenario?.control?.program;
    return p && typeof p === 'object' && typeof p.source === 'string' ? p : null;
  }

  /** The user's word before a program not run here runs in the study's rows: false while it is asked for. */
  consented() {
    const program = this.program();
    if (!program || program.language !== 'javascript' || !this.trust || this.trust.allows(program.source)) return true;
    this.banners.show('This study’s scenario contains a controller program, which runs in every row. It has not run here before. Show it to read it; Run it to run the study with it.', 'warning', [
      {
        label: 'Show it',
        run: () => {
          this.programBox.open = true;
          this.programBox.scrollIntoView({ block: 'nearest' });
        },
      },
      {
        label: 'Run it',
        run: () => {
          this.trust.trust(program.source);
          this.run();
        },
      },
    ]);
    return false;
  }

  async run() {
    if (this.pool || !this.consented()) return;
    const core = await this.corePromise;
    const text = JSON.stringify(this.study);
    const parsed = core.parseStudy(text);
    if (!parsed.ok) {
      await this.validate();
      return this.banners.show(`The study cannot run as it is:\n${formatIssues(parsed.issues)}`);
    }
    if (!(this.results && this.results.text === text && !this.results.complete)) {
      this.results = new StudyResults(text, parsed);
      this.openedNote.hidden = true;
    }
    if (this.state.banner?.kind === 'info') this.banners.hide();
    const results = this.results;
    if (!parsed.predicates.some((p) => p.name === this.view.predicate)) this.view.predicate = drawnPredicate(this.study);
    const workers = Math.min(MAX_WORKERS, Math.max(1, Math.round(Number(this.workers.value)) || defaultWorkerCount()));
    this.workers.value = workers;
    const pool = new StudyPool({ workers, runTimeLimitS: Number(this.limit.value) || RUN_TIME_LIMIT_S });
    this.pool = pool;
    this.status = 'running';
    this.startedAt = performance.now();
    this.progress = { done: 0, failed: 0, total: results.missing().length, busy: 0, workers };
    this.showStatus();
    this.redraw();
    const end = await pool.run(
      { text, kind: results.kind, tasks: results.missing() },
      {
        onResult: (i, result) => {
          results.record(i, result);
          this.redraw();
        },
        onRun: (i, row) => {
          results.addRun(i, row);
          this.redraw();
        },
        onProgress: (p) => {
          this.progress = p;
          this.showStatus();
        },
      },
    );
    if (this.pool !== pool) return;  // a study opened meanwhile has the tab now
    this.pool = null;
    this.endedAt = performance.now();
    this.status = end.error ? 'failed' : end.cancelled ? 'cancelled' : 'done';
    this.progress = { ...this.progress, ...end };
    if (end.error) this.banners.show(`The study stopped: ${end.error}. The rows finished are kept.`);
    this.showStatus();
    this.redraw();
  }

  cancel() {
    this.pool?.cancel();
  }

  /** The progress bar, its words, the buttons and the tab's data-status. */
  showStatus() {
    if (!this.built) return;
    const { results, checked } = this;
    const text = checked?.text;
    const valid = Boolean(checked?.parsed.ok);
    const running = Boolean(this.pool);
    // The words for the results' tasks, and for the study as it is now (what Run runs).
    const unit = results?.threshold ? 'searches' : 'rows';
    const nowUnit = checked?.parsed.isThreshold ? 'searches' : 'rows';
    const same = results && results.text === text;
    const left = same ? results.total - results.done : 0;
    const total = valid ? checked.parsed.grid.length : 0;
    this.runButton.disabled = running || !valid;
    this.runButton.textContent = !valid ? 'Run' : same && left && left < results.total ? `Run the ${left} left` : same && !left ? 'Run again' : `Run ${total} ${total === 1 ? nowUnit.replace(/e?s$/, '') : nowUnit}`;
    this.cancelButton.disabled = !running;
    const done = results?.done ?? 0;
    const all = results?.total ?? total;
    this.bar.max = Math.max(1, all);
    this.bar.value = done;
    const workers = this.progress?.workers ?? 0;
    const elapsed = ((running ? performance.now() : this.endedAt) - this.startedAt) / 1000;
    const failedText = results?.failed ? `, ${results.failed} failed` : '';
    let words;
    if (!valid) words = 'The study has issues (listed above); it runs once they are fixed.';
    else if (running) {
      const ran = this.progress.done;
      const rate = ran ? elapsed / ran : 0;
      words = `${done} of ${all} ${unit}${failedText} · ${workers} ${workers === 1 ? 'worker' : 'workers'} · ${clock(elapsed)}${ran ? `, ~${clock(rate * (all - done))} left` : ''}`;
    } else if (this.status === 'cancelled') words = `Cancelled: ${done} of ${all} ${unit} kept; Run goes on with the ${all - done} left.`;
    else if (this.status === 'failed') words = `Stopped: ${done} of ${all} ${unit} kept.`;
    else if (results?.complete) words = `${all} ${unit}${failedText} in ${clock(elapsed)}.`;
    else words = `${checked.parsed.runs} ${checked.parsed.isThreshold ? 'runs at most' : 'runs'} (${total} ${nowUnit}).`;
    this.statusText.textContent = words;
    const c = this.container;
    c.dataset.status = running ? 'running' : this.status;
    c.dataset.done = String(done);
    c.dataset.total = String(all);
    this.csvButton.disabled = !results?.done;
    this.runsCsvButton.hidden = !results?.threshold;
    this.runsCsvButton.disabled = !results?.runs.length;
  }

  // --- results

  /** The results on show: the last run's, or the study's grid not run yet. */
  shown() {
    const text = this.checked?.text;
    if (this.results && (this.pool || this.results.text === text || !this.checked?.parsed.ok)) return this.results;
    return this.preview ?? this.results;
  }

  /** Draws the results again, at most once a frame (while the tab is shown; its status always). */
  redraw() {
    if (!this.built) return;
    if (!this.active) return this.showStatus();
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.draw();
    });
  }

  draw() {
    const shown = this.shown();
    this.staleNote.hidden = !(this.results && shown === this.results && this.checked && this.results.text !== this.checked.text);
    this.staleNote.textContent = 'These are the results of the study as it was run; Run runs it as it is now.';
    this.showStatus();
    if (!shown) return this.plot.show({ kind: 'empty', message: 'The study’s results are drawn here as they come.' });
    this.drawOptions(shown);
    this.plot.show(plotModel(shown, { ...this.view, units: this.unitsOf(shown) }), (target) => this.describe(target, shown));
    this.drawTable(shown);
  }

  /** The units of the paths of a study's base scenario, by path. */
  unitsOf(shown) {
    if (this.units?.text !== shown.text) this.units = { text: shown.text, byPath: Object.fromEntries(this.suggestions(JSON.parse(shown.text)).map((s) => [s.path, s.unit])) };
    return this.units.byPath;
  }

  /** The drawing's choices for these results: predicate or measure, and the axes. */
  drawOptions(shown) {
    const { parsed } = shown;
    const v = this.view;
    const predicates = parsed.predicates.map((p) => p.name);
    if (!predicates.includes(v.predicate)) v.predicate = parsed.threshold?.predicate ?? predicates.find((p) => p !== 'flipped' && p !== 'left_terrain') ?? 'flipped';
    const times = parsed.columns.filter((c) => c.endsWith('_time_s')).map((key) => ({ key, label: key, unit: 's' }));
    const measures = [...MEASURES, ...times];
    if (!measures.some((m) => m.key === v.measure)) v.measure = 'base_x_m';
    const params = parsed.parameters;
    if (this.axesOf !== shown.text) {
      // New results: x (and y) the parameters of most values, numbers before others; the first slice.
      this.axesOf = shown.text;
      const order = params
        .map((p, i) => ({ i, n: p.values.length + (p.values.every((x) => typeof x === 'number') ? 0.5 : 0) }))
        .sort((a, b) => b.n - a.n || a.i - b.i)
        .map((p) => p.i);
      const [first = 0, second = 1] = order;
      [v.x, v.y] = shown.threshold || params.length < 2 ? [first, second] : [Math.min(first, second), Math.max(first, second)];
      v.slice = {};
    }
    const key = JSON.stringify([shown.text, v]);
    if (key === this.optionsKey) return;
    this.optionsKey = key;
    const select = (name, options, value, onChange) => {
      const s = el('select', { dataset: { draw: name } }, ...options.map(([val, label]) => el('option', { value: String(val), textContent: label })));
      s.value = String(value);
      s.addEventListener('change', () => {
        onChange(s.value);
        this.redraw();
      });
      return s;
    };
    const parts = [];
    const threshold = shown.threshold;
    const heat = !threshold && params.length >= 2;
    if (heat) {
      const by = select('colour', [['predicate', 'the answer of'], ['measure', 'the measure']], v.colourBy, (x) => (v.colourBy = x));
      parts.push(el('label', {}, 'colour by ', by));
    } else if (!threshold) parts.push(el('span', {}, 'points coloured by'));
    else parts.push(el('span', {}, 'runs coloured by'));
    if (!threshold) parts.push(select('predicate', predicates.map((p) => [p, p]), v.predicate, (x) => (v.predicate = x)));
    else parts.push(el('b', {}, parsed.threshold.predicate));
    if (!threshold) parts.push(el('label', {}, heat ? ' measure ' : ' measure (y) ', select('measure', measures.map((m) => [m.key, `${m.key}`]), v.measure, (x) => (v.measure = x))));
    const names = params.map((p, i) => [i, lastPart(p.path)]);
    if (params.length >= 2 || (threshold && params.length >= 1)) {
      const x = Math.min(v.x, params.length - 1);
      parts.push(el('label', {}, ' x ', select('x', names, x, (s) => {
        v.x = Number(s);
        if (v.y === v.x) v.y = params.findIndex((_, i) => i !== v.x);
      })));
      if (heat) parts.push(el('label', {}, ' y ', select('y', names.filter(([i]) => i !== x), v.y === x ? names.find(([i]) => i !== x)[0] : v.y, (s) => (v.y = Number(s)))));
      // A heat map of more than two parameters shows one slice: a value for each of the others.
      if (heat)
        params.forEach((p, k) => {
          const y = v.y === x ? names.find(([i]) => i !== x)[0] : v.y;
          if (k === x || k === y) return;
          parts.push(el('label', {}, ` at ${lastPart(p.path)} `, select(`slice-${k}`, p.values.map((val, i) => [i, showValue(val)]), v.slice[k] ?? 0, (s) => (v.slice[k] = Number(s)))));
        });
    }
    this.drawControls.replaceChildren(...parts);
  }

  /** The tooltip of a cell or a point: the run's values, outcome, answer, measure and hash. */
  describe(target, shown) {
    const { parsed } = shown;
    const lines = [];
    const row = target.row ?? (target.kind === 'threshold' ? null : shown.results[target.index]);
    const index = target.combination ?? target.index;
    if (index !== undefined && index !== null) for (const [path, value] of Object.entries(shown.valuesOf(index))) lines.push(`${path} = ${showValue(value)}`);
    if (target.kind === 'threshold') {
      const a = shown.results[target.index];
      if (a?.found) lines.push(`${lastPart(parsed.threshold.path)}: ${parsed.threshold.predicate} changes at ${showValue(a.threshold)} (between ${showValue(a.lower)} and ${showValue(a.upper)}), ${a.runs} runs`);
      else if (a) lines.push(a.message || 'nothing found');
      lines.push('click: open the run at this value in the view');
      return lines;
    }
    if (shown.threshold && row) lines.push(`${parsed.threshold.path} = ${showValue(row[parsed.threshold.path])}`);
    if (!row) return [...lines, 'not run yet'];
    lines.push(`outcome: ${row.outcome}${row.message ? ` (${row.message})` : ''}`);
    const predicate = shown.threshold ? parsed.threshold.predicate : this.view.predicate;
    if (row.outcome !== 'refused' && row.outcome !== 'failed') {
      lines.push(`${predicate}: ${row[predicate] ? 'yes' : 'no'}`);
      if (!shown.threshold) lines.push(`${this.view.measure} = ${showValue(row[this.view.measure])}`);
      lines.push(`state_hash ${row.state_hash}`);
    }
    lines.push('click: open this run in the view');
    return lines;
  }

  /** The rows (a threshold study: its records) as a table; a row clicked opens its run. */
  drawTable(shown) {
    const { parsed } = shown;
    const threshold = shown.threshold;
    const predicate = threshold ? parsed.threshold.predicate : this.view.predicate;
    const params = parsed.parameters.map((p) => p.path);
    const columns = threshold
      ? [...params, 'found', 'threshold', 'lower', 'upper', 'runs', 'message']
      : [...params, ...(parsed.repeats > 1 ? ['repeat'] : []), 'outcome', predicate, this.view.measure, 'state_hash', 'message'];
    const items = shown.results.map((r, index) => ({ r, index })).filter(({ r }) => r);
    this.rowsSummary.textContent = `${threshold ? 'Thresholds' : 'Rows'} (${items.length} of ${shown.total})`;
    if (!this.rowsBox.open) return;  // the table is made when it is looked at
    const head = el('tr', {}, ...columns.map((c) => el('th', { textContent: lastPart(c), title: c })));
    const body = items.slice(0, TABLE_ROWS).map(({ r, index }) => {
      const tr = el('tr', { dataset: { index: String(index) }, title: 'click: open this run in the view' }, ...columns.map((c) => el('td', { textContent: typeof r[c] === 'boolean' ? (r[c] ? 'yes' : 'no') : showValue(r[c]) })));
      tr.addEventListener('click', () => this.pick(threshold ? { kind: 'threshold', index } : { kind: 'cell', index }));
      return tr;
    });
    if (items.length > TABLE_ROWS) body.push(el('tr', {}, el('td', { colSpan: columns.length, className: 'note', textContent: `… ${items.length - TABLE_ROWS} more in the CSV` })));
    this.table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...body));
  }

  // --- a run opened in the view

  /** A cell, point or table row picked: its run opens in the view. */
  pick(target) {
    const shown = this.shown();
    if (!shown) return;
    let run;
    if (target.kind === 'threshold') {
      const a = shown.results[target.index];
      const t = shown.parsed.threshold;
      run = { values: [...shown.grid[target.index].values, a?.found ? a.threshold : t.from], repeat: shown.grid[target.index].repeat };
    } else if (target.row) run = shown.runOf(target.row, target.combination);
    else run = target.index;
    if (run === null || run === undefined) return;
    return this.openRun(shown, run);
  }

  /** The base scenario with the run's values set (by the core), built by the worker and played in the view. */
  async openRun(shown, run) {
    const core = await this.corePromise;
    const out = core.studyScenario(shown.text, run);
    if (!out.ok) return this.banners.show(`This run cannot be opened:\n${formatIssues(out.issues)}`);
    const scenario = JSON.parse(out.scenario);
    const what = out.assignments.join(', ');
    this.openedNote.hidden = false;
    this.openedNote.textContent = `Opening in the view: ${what || 'the base scenario'}.`;
    this.client.load(scenario, {
      keep: true,
      text: out.scenario,
      onBuilt: () => {
        this.doc.replace(`open study run ${what}`, scenario, { restart: true, loaded: true, owned: true });
        this.openedNote.textContent = `In the view: ${what || 'the base scenario'}.`;
      },
      onRejected: (issues) => {
        this.openedNote.textContent = `Not opened: ${what}.`;
        this.banners.show(`This run's scenario is refused (${what}), the view is unchanged:\n${formatIssues(issues)}`);
      },
    });
  }

  // --- files

  async exportCsv(which) {
    const { results } = this;
    if (!results?.done) return;
    const core = await this.corePromise;
    const rows = which === 'runs' || !results.threshold ? results.rows() : results.answers();
    const kind = which === 'runs' || !results.threshold ? 'rows' : 'thresholds';
    const csv = core.studyCsv(results.text, rows, kind);
    if (typeof csv !== 'string') return this.banners.show(`The CSV was not written:\n${formatIssues(csv.issues)}`);
    const name = JSON.parse(results.text).name || 'study';
    download(exportName(name, new Date(), 'csv', which === 'runs' ? 'study-runs' : 'study'), csv, 'text/csv');
  }
}
