// What the editor's placement forms share (the heightmap form,
// heightmap_fields.js, and the mesh form, editor/mesh_fields.js): numbers
// typed as text; a message (what was refused) and a status line, both about
// the document's version they were said at and cleared once it changes; and
// Apply, which builds the changed scenario in the worker as a load does and
// makes it the document's (one undo step, the robot restarted on it) only if
// it is valid and the document is still the one it was made from.
import { formatIssues } from '../common/issues.js';

/** Numbers typed as "1 2", "1, 2" or "[1, 2]"; null when any is not one. */
export function numbers(text) {
  const parts = String(text).trim().replace(/^\[|\]$/g, '').trim().split(/[\s,;]+/).filter(Boolean);
  const values = parts.map((p) => (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(p) ? Number(p) : NaN));
  return values.length && values.every(Number.isFinite) ? values : null;
}

/** A number as the forms show it: at most 6 significant digits. */
export const short = (v) => String(Number(Number(v).toPrecision(6)));

export const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

export class BuiltForm {
  /**
   * @param {{ doc, client }} deps  the editor's document and the worker's client (sim_client.js)
   * @param {string} prefix  the prefix of the form's element ids ('hm', 'mesh')
   * @param {Object<string, HTMLElement>} inputs  the form's fields by key (marked when refused)
   */
  constructor({ doc, client }, prefix, inputs) {
    Object.assign(this, { doc, client, inputs });
    this.pending = false;
    this.saidAt = null;  // the document's version the message and status are about, while they show
    this.apply = el('button', { id: `${prefix}-apply`, className: 'primary', title: 'Rebuild the terrain with these values and restart the robot on it (one undo step)' }, 'Apply');
    this.apply.addEventListener('click', () => this.submit());
    for (const input of Object.values(inputs))
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') this.submit();
      });
    this.message = el('div', { className: 'message', id: `${prefix}-message`, role: 'alert' });
    this.status = el('div', { className: 'note', id: `${prefix}-status`, role: 'status' });
  }

  /** Shows `message` (what was refused, its field `key` marked) and `status`, about the document as it is. */
  say({ message = '', status = '', key = null } = {}) {
    for (const [k, input] of Object.entries(this.inputs)) input.classList.toggle('bad', k === key);
    this.message.textContent = message;
    this.status.textContent = status;
    this.saidAt = message || status ? this.doc.version : null;
  }

  /** Once the document changed since the message or status was said: clears them; true when it did
   * (the fields are then to be filled from the document again). */
  dropStale() {
    if (this.saidAt === null || this.saidAt === this.doc.version) return false;
    this.say();
    return true;
  }

  /** Builds `next` (the document's scenario changed by the form) in the worker; if it is valid and the
   * document unchanged meanwhile, it becomes the document's as the step `label`, and `applied` is said. */
  build(next, label, applied) {
    const version = this.doc.version;
    this.pending = true;
    this.apply.disabled = true;
    this.say({ status: 'Building the terrain…' });
    const settle = (said) => {
      this.pending = false;
      this.apply.disabled = false;
      if (this.doc.version !== version) said = { status: 'Not applied: the work changed while the terrain was built. Apply again to rebuild it.' };
      else if (said.applied) this.doc.replace(label, next, { restart: true, loaded: true, owned: true });
      this.say(said);
    };
    this.client.load(next, {
      keep: true,
      onBuilt: () => settle({ applied: true, status: applied }),
      onRejected: (issues) => settle({ message: `Not applied, the terrain is unchanged:\n${formatIssues(issues)}` }),
    });
  }
}
