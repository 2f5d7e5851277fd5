// The scenario being edited, its undo history and its autosave.
//
// Every user edit is a command { label, before, after } holding the scenario
// as it was and as it became (scenarios are a few kB, so whole snapshots are
// simpler and safer than inverse operations). A drag previews its changes and
// becomes one command when it ends: one drag, one undo step. Listeners hear
// of every change; the autosave writes the scenario (debounced) to storage so
// that a reload or a closed tab loses nothing.

export const AUTOSAVE_KEY = 'roverlab.autosave.v1';
const HISTORY_LIMIT = 200;

const clone = (x) => structuredClone(x);
const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);

export class EditorDocument {
  /**
   * @param {object} scenario  the starting scenario
   * @param {{ storage?: Storage, delayMs?: number }} options  storage for the autosave (none: no autosave)
   */
  constructor(scenario, { storage = null, delayMs = 300 } = {}) {
    this.scenario = clone(scenario);
    this.undoStack = [];
    this.redoStack = [];
    this.listeners = new Set();
    this.storage = storage;
    this.delayMs = delayMs;
    this.timer = null;
    this.dragStart = null;
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
    for (const l of this.listeners) l(this.scenario, info);
  }

  /** Applies an edit: `change(scenario)` returns the new scenario (or the same
   * one mutated). No command when nothing changed. `restart`: the simulation
   * restarts on it (and on its undo and redo) even when live editing is off.
   * `loaded`: the simulation runs it already (a link or a file built before it
   * was put here), so this change itself restarts nothing. */
  edit(label, change, { restart = false, loaded = false } = {}) {
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
    if (this.dragStart) return this.edit(label, () => clone(scenario), { restart, loaded });
    // As edit(), with fewer copies (a scenario may hold thousands of pieces).
    // `owned`: the caller hands the object over and keeps no other use of it, so it is not copied.
    const after = owned ? scenario : clone(scenario);
    if (same(this.scenario, after)) return;
    this.push({ label, before: this.scenario, after, restart }, { loaded, owned });
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
    return this.undoStack.length > 0;
  }

  get canRedo() {
    return this.redoStack.length > 0;
  }

  undo() {
    const command = this.undoStack.pop();
    if (!command) return;
    this.redoStack.push(command);
    this.scenario = clone(command.before);
    this.changed({ label: command.label, kind: 'undo', restart: Boolean(command.restart) });
  }

  redo() {
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

  /** Writes the autosave at once (also on page hide). */
  saveNow() {
    if (!this.storage) return;
    clearTimeout(this.timer);
    this.timer = null;
    try {
      this.storage.setItem(AUTOSAVE_KEY, JSON.stringify({ savedAt: Date.now(), scenario: this.scenario }));
    } catch {
      // Storage full or disabled: the work stays in the page; nothing else to do.
    }
  }
}
