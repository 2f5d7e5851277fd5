// The address names the scenario on show: `?scenario=ID` opens that file of
// terrains/ (a bookmark, a link to a ready scenario); picking one puts its id
// there as a new history entry, so Back returns to the one before (and opens
// it again if the scenario was edited since); a share link's `#…` stays while
// its scenario is on show unedited, so a reload reopens it. Once the scenario
// is the user's own (edited, loaded from a file) the address names none. While
// the page asks whether an address's scenario may replace autosaved work, the
// address stays as it came until the answer.
import { scenarioFile } from '../scenario/scenarios.js';

const PARAM = 'scenario';
const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);

/** The scenario id in an address, or null. */
export function scenarioIdOf(href) {
  return new URL(href).searchParams.get(PARAM);
}

/** The address with `id` as its scenario (null: none), the rest kept (the `#…` too unless `hash` is false). */
export function addressWith(href, id, { hash = true } = {}) {
  const url = new URL(href);
  if (id) url.searchParams.set(PARAM, id);
  else url.searchParams.delete(PARAM);
  return url.pathname + url.search + (hash ? url.hash : '');
}

/** The label of the document command that opens a share link (sharing.js). */
export const OPEN_LINK = 'open share link';

/**
 * What the page opens with: the address's scenario, unless autosaved work that
 * differs from it is restored (then the work opens and `ask` holds the file,
 * to offer). Returns { scenario, id (the picker's, '' for the user's own), ask, unknown }.
 * The address's file and `fallback` have their text loaded (openingText).
 */
export function openingScenario({ href, restored, fallback }) {
  const wanted = scenarioIdOf(href);
  const file = wanted ? scenarioFile(wanted) : null;
  const unknown = wanted && !file?.text ? wanted : null;  // not in terrains/, or its text could not be loaded
  if (file?.text) {
    const scenario = JSON.parse(file.text);
    if (!restored || same(restored.scenario, scenario)) return { scenario, id: file.id, ask: null, unknown };
    return { scenario: restored.scenario, id: '', ask: file, unknown };
  }
  if (restored) return { scenario: restored.scenario, id: '', ask: null, unknown };
  return { scenario: JSON.parse(fallback.text), id: fallback.id, ask: null, unknown };
}

/** Loads the text of the file the address names, if any (openingScenario reads it; a text that
 * could not be loaded is left out). */
export async function openingText(href) {
  const id = scenarioIdOf(href);
  await (id ? scenarioFile(id) : null)?.load().catch(() => null);
}

/** Keeps the address and the scenario picker together (see the top of this file). */
export function wireAddress({ doc, banners, opening, picker }) {
  let fromHistory = false;
  const open = (file, text) => {
    picker.show(file.id);
    doc.replace(`open ${file.id}`, JSON.parse(text), { restart: true });
  };
  doc.onChange((scenario, info) => {
    if (info.kind === 'preview') return;
    // A share link's fragment names its scenario only while that is on show unedited.
    const target = addressWith(location.href, picker.id || null, { hash: info.label === OPEN_LINK });
    if (target === location.pathname + location.search + location.hash) return;
    const picked = info.kind === 'edit' && picker.id && info.label === `open ${picker.id}` && !fromHistory;
    if (picked) history.pushState(null, '', target);
    else history.replaceState(null, '', target);
  });
  let visited = 0;  // the newest history step taken (an older one's file may arrive later)
  window.addEventListener('popstate', async () => {
    const file = scenarioFile(scenarioIdOf(location.href));
    const step = ++visited;
    const text = await file?.load();
    if (!file || step !== visited || (picker.id === file.id && same(doc.scenario, JSON.parse(text)))) return;
    fromHistory = true;
    try {
      open(file, text);
    } finally {
      fromHistory = false;
    }
  });
  if (opening.unknown) {
    history.replaceState(null, '', addressWith(location.href, null));
    banners.show(`The address names a scenario “${opening.unknown}” that this app does not have; the Scenario picker lists the ones it has.`, 'warning');
  } else if (opening.ask) {
    const file = opening.ask;
    // The address stays as it came until the user answers.
    banners.show(
      `The address opens “${file.id}”. Opening it replaces the work autosaved in this browser (Undo brings it back while this page is open).`,
      'warning',
      [
        { label: `Open ${file.id}`, run: () => open(file, file.text) },
        { label: 'Keep my work', run: () => history.replaceState(null, '', addressWith(location.href, null)) },
      ],
    );
  } else {
    history.replaceState(null, '', addressWith(location.href, opening.id || null));
  }
}
