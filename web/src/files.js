// Files: the scenario saved as JSON, a scenario file loaded (built in the
// worker while the current run goes on; it replaces the work only if valid),
// and the telemetry downloaded as CSV.
import { formatIssues } from './issues.js';

/** Offers `text` as a file named `name` to download. */
export function download(name, text, type) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The scenario as a JSON file named after it. */
export function saveScenario(scenario) {
  const name = (scenario.name || 'scenario').replace(/[^\w.-]+/g, '-').toLowerCase();
  download(`${name}.json`, JSON.stringify(scenario, null, 2), 'application/json');
}

/** The run's telemetry as CSV (nothing before a model is built). */
export function exportCsv(state) {
  if (!state.model) return;
  download(`roverlab-${state.model.preset}-${Date.now()}.csv`, state.telemetry.toCsv(), 'text/csv');
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
    onBuilt: () => {
      doc.replace(`load ${fileName}`, scenario, { restart: true, loaded: true, owned: true });
      banners.show(`Loaded ${fileName}.`, 'info');
    },
    onRejected: (issues) => banners.show(`${fileName} was not loaded, your work is unchanged:\n` + formatIssues(issues)),
  });
}
