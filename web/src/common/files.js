// Files: the scenario saved as JSON, a scenario file loaded (built in the
// worker while the current run goes on; it replaces the work only if valid),
// and the telemetry downloaded as CSV (its "#" lines and name: export_names.js;
// the version from package.json).
import { version } from '../../../package.json';
import { csvComments, exportName, slug } from './export_names.js';
import { formatIssues } from './issues.js';

/** Offers `text` (a string or a Blob) as a file named `name` to download. */
export function download(name, text, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The scenario as a JSON file named after it. */
export function saveScenario(scenario) {
  download(`${slug(scenario.name)}.json`, JSON.stringify(scenario, null, 2), 'application/json');
}

/** The run's telemetry as CSV, with "#" lines about the run first (nothing before a model is built). */
export function exportCsv(state, date = new Date()) {
  const { model, telemetry, scenario } = state;
  if (!model || !telemetry) return;
  const comments = csvComments({ scenario, model, telemetry, version, date });
  download(exportName(scenario?.name ?? model.name, date, 'csv'), telemetry.toCsv(comments), 'text/csv');
}

/** A scenario file's text: built in the worker; it replaces the document only if valid. */
export function loadScenarioFile({ doc, client, banners }, text, fileName) {
  let scenario;
  try {
    scenario = JSON.parse(text);
  } catch (error) {
    return banners.show(`${fileName} was not loaded: it is not JSON (${error.message}). Your work is unchanged.`);
  }
  client.load(scenario, {
    keep: true,
    text,
    origin: 'file',  // a program in it runs only after the user's "Run it" (sim_client.js)
    onBuilt: () => {
      doc.replace(`load ${fileName}`, scenario, { restart: true, loaded: true, owned: true });
      banners.show(`Loaded ${fileName}.`, 'info');
    },
    onRejected: (issues) => banners.show(`${fileName} was not loaded, your work is unchanged:\n` + formatIssues(issues)),
  });
}
