// Which controller programs run by themselves in this browser. A program
// (docs/controllers.md) is code, and scenarios come from other people (share
// links, files, autosaved work opened from a link), so a scenario's program
// runs only when its text is one the user ran here: applied in the
// Controller tab, or run by a click on "Run it" (a link's, a file's or a
// held program's); or when it comes with the app (a scenario of terrains/).
// Any other program is left out of the run (the scenario loads paused
// without it) until the user says so. A program the page had to stop (it
// did not return within 2 s, or its worker died) no longer runs by itself
// either: the reason is kept, to be said when it is loaded again (after a
// reload, too). Kept in this browser's storage, the newest first, within
// MAX_TRUSTED programs and MAX_CHARS characters.
//
// So is a program that was running when its page ended without closing: in
// Chromium a worker that runs out of memory takes its page's whole process
// with it, so no watchdog of the page is left to stop it, and the autosaved
// work would run it again at the next start. The page notes the program its
// worker runs (RUNNING_KEY) and takes the note back when it no longer runs
// one or the page closes; a note found at the start is a page's that ended
// while it ran. (A second page opened while the first runs a program takes
// its note for such an end too: that program then asks again.)
import { scenarios } from '../scenario/scenarios.js';

export const TRUST_KEY = 'roverlab.programs.v1';
export const RUNNING_KEY = 'roverlab.program-running.v1';
/** Why a program noted as running at the start no longer runs by itself. */
export const ENDED_WHILE_RUNNING = 'The page ended while the controller program ran (one that runs out of memory takes its page with it): stopped';
const MAX_TRUSTED = 16;
const MAX_STOPPED = 8;
const MAX_CHARS = 512 * 1024;

/** The program texts of the scenarios that come with the app (terrains/). */
function builtInSources() {
  const sources = new Set();
  for (const s of scenarios) {
    const source = s.control?.program?.source;
    if (typeof source === 'string') sources.add(source);
  }
  return sources;
}

export class ProgramTrust {
  /** @param storage  a Storage (localStorage) or null: then trust lasts as long as the page */
  constructor(storage = null, builtIn = builtInSources()) {
    this.storage = storage;
    this.builtIn = builtIn;
    this.trusted = [];
    this.stopped = [];  // [{ source, message }]
    try {
      const saved = JSON.parse(storage?.getItem(TRUST_KEY) ?? 'null');
      if (Array.isArray(saved?.trusted)) this.trusted = saved.trusted.filter((s) => typeof s === 'string');
      if (Array.isArray(saved?.stopped)) this.stopped = saved.stopped.filter((s) => typeof s?.source === 'string' && typeof s.message === 'string');
    } catch {
      // unreadable: nothing is trusted yet
    }
    this.noted = false;  // this page noted the program its worker runs
    let ended = null;
    try {
      ended = storage?.getItem(RUNNING_KEY) ?? null;
      storage?.removeItem(RUNNING_KEY);
    } catch {
      // storage disabled: nothing was noted
    }
    if (typeof ended === 'string') this.stop(ended, ENDED_WHILE_RUNNING);
  }

  /** The page's worker runs `source` (null: no program any more, or the page closes): noted in the storage. */
  running(source) {
    if (source === null && !this.noted) return;  // another page's note stays
    this.noted = source !== null;
    try {
      if (source === null) this.storage?.removeItem(RUNNING_KEY);
      else this.storage?.setItem(RUNNING_KEY, source);
    } catch {
      // storage full or disabled: an end while it runs goes unnoticed
    }
  }

  /** The program (its text) runs by itself: not stopped since, and run here at a click or from the app. */
  allows(source) {
    return !this.stoppedWhy(source) && (this.builtIn.has(source) || this.trusted.includes(source));
  }

  /** Why the program was stopped before (the page's words), or null. */
  stoppedWhy(source) {
    return this.stopped.find((s) => s.source === source)?.message ?? null;
  }

  /** The user ran the program (Apply, Run it): from now on it runs by itself. */
  trust(source) {
    this.trusted = [source, ...this.trusted.filter((s) => s !== source)];
    this.stopped = this.stopped.filter((s) => s.source !== source);
    this.save();
  }

  /** The page stopped the program (`message` says why): it no longer runs by itself. */
  stop(source, message) {
    this.trusted = this.trusted.filter((s) => s !== source);
    this.stopped = [{ source, message }, ...this.stopped.filter((s) => s.source !== source)].slice(0, MAX_STOPPED);
    this.save();
  }

  save() {
    // The newest within the limits: an older program then asks again.
    let chars = 0;
    const fits = (text) => (chars += text.length) <= MAX_CHARS;
    this.trusted = this.trusted.slice(0, MAX_TRUSTED).filter((s) => fits(s));
    this.stopped = this.stopped.filter((s) => fits(s.source));
    try {
      this.storage?.setItem(TRUST_KEY, JSON.stringify({ trusted: this.trusted, stopped: this.stopped }));
    } catch {
      // storage full or disabled: trusted for as long as the page is open
    }
  }
}
