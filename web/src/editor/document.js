// The scenario being edited, its undo history and its autosave.
//
// Every user edit is a command { label, before, after } holding the scenario
// as it was and as it became (scenarios are a few kB, so whole snapshots are
// simpler and safer than inverse operations). A drag previews its changes and
// becomes one command when it ends: one drag, one undo step. Listeners hear
// of every change; the autosave writes the scenario and its undo history
// (debounced, the newest commands that fit HISTORY_BYTES) to storage so that
// a reload or a closed tab loses nothing, not even the way back. `version`
// counts the changes heard (edits, replacements, undo, redo, drag previews):
// a message about the document names the version it describes, and is shown
// only while the document is still that version.

export const AUTOSAVE_KEY = 'roverlab.autosave.v1';
const HISTORY_LIMIT = 200;
// The autosaved history's size (characters of JSON): browsers give a page about 5 MB of storage.
const HISTORY_BYTES = 2_000_000;

const clone = (x) => structuredClone(x);
const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);

export class EditorDocument {
  /**
   * @param {object} scenario  the starting scenario
   * @param {{ storage?: Storage, delayMs?: number }} options  storage for the autosave (none: no autosave)
   */
  constructor(scenario, { storage = null, delayMs = 300, history = null } = {}) {
    this.scenario = clone(scenario);
    // history: { undo, redo } of an autosave (restore()), when it holds this scenario.
    this.undoStack = validCommands(history?.undo);
    this.redoStack = validCommands(history?.redo);
    this.listeners = new Set();
    this.storage = storage;
    this.delayMs = delayMs;
    this.timer = null;
    this.dragStart = null;
    this.deferred = null; // a change shown already, recorded a moment later (deferRecord)
    this.version = 0;     // changes heard so far: one more before each listener hears of a change
  }

  /** The autosaved scenario in `storage`, or null (also when unreadable). */
  static restore(storage) {
    try {
      const text = storage?.getItem(AUTOSAVE_KEY);
      if (!text) return null;
      const saved = JSON.parse(text);
      return saved && typeof saved === 'object' && saved.scenario ? saved : null;
    } catch {
      return null;
    }
  }

  /** listener(scenario, { label, kind: 'edit' | 'undo' | 'redo' | 'preview', restart, loaded }) */
  onChange(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(info) {
    this.version += 1;
    for (const l of this.listeners) l(this.scenario, info);
  }

  /** Applies an edit: `change(scenario)` returns the new scenario (or the same
   * one mutated). No command when nothing changed. `restart`: the simulation
   * restarts on it (and on its undo and redo) even when live editing is off.
   * `loaded`: the simulation runs it already (a link or a file built before it
   * was put here), so this change itself restarts nothing. */
  edit(label, change, { restart = false, loaded = false } = {}) {
    this.recordDeferred();
    const before = this.dragStart ?? clone(this.scenario);
    const after = change(clone(this.scenario)) ?? this.scenario;
    if (this.dragStart) {
      this.scenario = after;
      this.emit({ label, kind: 'preview' });
      return;
    }
    if (same(before, after)) return;
    this.push({ label, before, after, restart }, { loaded });
  }

  /** Replaces the whole scenario (load, template, scenario picker): undoable too. */
  replace(label, scenario, { restart = false, loaded = false, owned = false } = {}) {
    this.recordDeferred();
    if (this.dragStart) return this.edit(label, () => clone(scenario), { restart, loaded });
    // As edit(), with fewer copies (a scenario may hold thousands of pieces).
    // `owned`: the caller hands the object over and keeps no other use of it, so it is not copied.
    const after = owned ? scenario : clone(scenario);
    if (same(this.scenario, after)) return;
    this.push({ label, before: this.scenario, after, restart }, { loaded, owned });
  }

  /**
   * A change the page shows already and records a moment later (a large image drawn first, then
   * compared and autosaved): `record()` makes it (a replace()). Any edit, replace, drag, undo, redo
   * or autosave before then records it first, so it is never overtaken: an Undo pressed at once
   * undoes it. Returns the function that records it when its moment comes.
   */
  deferRecord(record) {
    this.recordDeferred();
    this.deferred = record;
    return () => this.recordDeferred();
  }

  recordDeferred() {
    const record = this.deferred;
    this.deferred = null;
    record?.();
  }

  push(command, { loaded = false, owned = false } = {}) {
    this.undoStack.push(command);
    if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.shift();
    this.redoStack = [];
    this.scenario = owned ? command.after : clone(command.after);
    this.changed({ label: command.label, kind: 'edit', restart: Boolean(command.restart), loaded });
  }

  /** Starts a drag: edits until endDrag() are previews, then one command. */
  beginDrag() {
    this.recordDeferred();
    this.dragStart = clone(this.scenario);
  }

  endDrag(label) {
    if (!this.dragStart) return;
    const before = this.dragStart;
    this.dragStart = null;
    if (same(before, this.scenario)) return;
    this.push({ label, before, after: clone(this.scenario) });
  }

  /** Abandons a drag, back to where it started. */
  cancelDrag() {
    if (!this.dragStart) return;
    this.scenario = this.dragStart;
    this.dragStart = null;
    this.emit({ label: 'cancel', kind: 'preview' });
  }

  get canUndo() {
    return this.undoStack.length > 0 || this.deferred !== null;
  }

  get canRedo() {
    return this.redoStack.length > 0 && this.deferred === null;
  }

  undo() {
    this.recordDeferred();
    const command = this.undoStack.pop();
    if (!command) return;
    this.redoStack.push(command);
    this.scenario = clone(command.before);
    this.changed({ label: command.label, kind: 'undo', restart: Boolean(command.restart) });
  }

  redo() {
    this.recordDeferred();
    const command = this.redoStack.pop();
    if (!command) return;
    this.undoStack.push(command);
    this.scenario = clone(command.after);
    this.changed({ label: command.label, kind: 'redo', restart: Boolean(command.restart) });
  }

  changed(info) {
    this.scheduleSave();
    this.emit(info);
  }

  scheduleSave() {
    if (!this.storage) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.saveNow(), this.delayMs);
  }

  /** Writes the autosave at once (also on page hide): the scenario, and as much of the history as fits. */
  saveNow() {
    if (!this.storage) return;
    this.recordDeferred();
    clearTimeout(this.timer);
    this.timer = null;
    const scenario = JSON.stringify(this.scenario);
    const [undo, redo] = newestThatFit([this.undoStack, this.redoStack], HISTORY_BYTES - scenario.length);
    const text = (history) => `{"savedAt":${Date.now()},"scenario":${scenario},"history":${JSON.stringify(history)}}`;
    try {
      this.storage.setItem(AUTOSAVE_KEY, text({ undo, redo }));
    } catch {
      try {
        this.storage.setItem(AUTOSAVE_KEY, text({ undo: [], redo: [] }));  // storage full: the work first
      } catch {
        // Storage full or disabled: the work stays in the page; nothing else to do.
      }
    }
  }
}

/** The commands of an autosaved stack that have the shape of one (a stack from elsewhere is dropped). */
function validCommands(stack) {
  if (!Array.isArray(stack)) return [];
  const ok = (c) => c && typeof c.label === 'string' && c.before && typeof c.before === 'object' && c.after && typeof c.after === 'object';
  return stack.every(ok) ? stack.slice(-HISTORY_LIMIT) : [];
}

// A command's JSON length, measured once (a step of a large terrain holds two copies of it).
const lengths = new WeakMap();
function jsonLength(command) {
  if (!lengths.has(command)) lengths.set(command, JSON.stringify(command).length);
  return lengths.get(command);
}

/** The newest commands of each stack (the end of each array) whose JSON fits `budget` characters in all. */
function newestThatFit(stacks, budget) {
  const kept = stacks.map(() => []);
  let left = budget;
  const sizes = stacks.map((stack) => stack.map(jsonLength));
  // Newest first, alternating stacks, so both keep their nearest steps.
  for (let age = 0; ; age++) {
    let any = false;
    for (let k = 0; k < stacks.length; k++) {
      const i = stacks[k].length - 1 - age;
      if (i < 0 || left < 0) continue;
      any = true;
      left -= sizes[k][i];
      if (left >= 0) kept[k].unshift(stacks[k][i]);
    }
    if (!any || left < 0) return kept;
  }
}
