// An OBJ mesh imported as the terrain: by the editor's Load button or dropped
// on the view. The text becomes one mesh embedded in the scenario
// (terrain.meshes[0].obj, so Save and Share keep one self-contained file),
// read in metres, its lowest point at z = 0, its vertices starting 1 m
// behind the robot's start and centred on it across (the outermost 0.5 %
// aside, so that a ground plane reaching far beyond a scanned patch leaves
// the robot at the patch). The file's up axis is taken to be
// the thinner of its y and z extents (a terrain patch is wide and flat), so
// files from y-up tools stand the right way. Robot, control, simulation and
// materials are kept. The editor's mesh form (editor/mesh_fields.js) then
// sets the placement.
import { formatIssues } from '../common/issues.js';
import { robotName } from '../scenario/scenarios.js';

/** Largest OBJ text the app embeds (bytes): the scenario document's limit is 16 MiB. */
export const MAX_OBJ_BYTES = 15 * 1024 * 1024;

/** Share of the vertices left out at the west (and each across) end when placing: a far-reaching ground plane's few vertices. */
export const PLACE_QUANTILE = 0.005;

/**
 * Bounds of the OBJ text's vertices ({ min: [x, y, z], max, count, low, high }:
 * `low` and `high` leave out the PLACE_QUANTILE share at each end, per axis),
 * or null when it has none. `place` maps a file vertex to where it goes (as
 * it is in the file by default).
 */
/** The description an imported mesh's scenario starts with. */
export function importDescription(name, up) {
  return `Terrain imported from ${name}: an OBJ mesh in metres, ${up} up.`;
}

/** `description` with its up axis set to `up` when it is still the one an import wrote; otherwise as it is (the user's own). */
export function withImportUp(description, up) {
  const m = /^Terrain imported from (.+): an OBJ mesh in metres, [yz] up\.$/.exec(description ?? '');
  return m ? importDescription(m[1], up) : description;
}

export function objBounds(text, place = (p) => p) {
  const coords = [[], [], []];
  const vertex = /^v[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)/gm;
  for (let m = vertex.exec(text); m; m = vertex.exec(text)) {
    const file = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (!file.every(Number.isFinite)) continue;  // the core names the bad vertex
    const p = place(file);
    for (let k = 0; k < 3; k++) coords[k].push(p[k]);
  }
  const count = coords[0].length;
  if (!count) return null;
  const sorted = coords.map((c) => Float64Array.from(c).sort());
  const at = (q) => sorted.map((c) => c[Math.min(count - 1, Math.floor(q * count))]);
  return { min: at(0), max: sorted.map((c) => c[count - 1]), count, low: at(PLACE_QUANTILE), high: at(1 - PLACE_QUANTILE) };
}

const round = (v) => Math.round(v * 1e6) / 1e6 + 0;

/** The scenario with its terrain replaced by the OBJ text `obj` of file `name` (bounds from objBounds). */
export function scenarioWithMesh(scenario, bounds, obj, name) {
  const [x, y] = scenario.robot?.pose?.position ?? [0, 0];
  const { min, max } = bounds;
  const [low, high] = [bounds.low ?? min, bounds.high ?? max];
  const up = max[2] - min[2] <= max[1] - min[1] ? 'z' : 'y';
  // For that up axis: where the vertices begin along ground x (the westmost
  // few aside), their middle across (ground y) and the lowest height.
  const [gx0, gyMid, lowest] =
    up === 'z' ? [low[0], (low[1] + high[1]) / 2, min[2]] : [low[0], -(low[2] + high[2]) / 2, min[1]];
  const out = structuredClone(scenario);
  out.name = `${robotName(scenario)} on ${name}`;
  out.description = importDescription(name, up);
  out.terrain = {
    ...(scenario.terrain?.materials ? { materials: scenario.terrain.materials } : {}),
    meshes: [
      {
        obj,
        offset: [round(x - 1 - gx0), round(y - gyMid), round(-lowest)],
        up,
        ...(scenario.terrain?.materials && !scenario.terrain.materials.default ? { material: Object.keys(scenario.terrain.materials)[0] } : {}),
      },
    ],
  };
  delete out.track1;
  return out;
}

/** Imports `file` (OBJ text) as the terrain: built in the worker; it replaces the work only if valid. */
export async function importMesh({ doc, client, banners }, file) {
  if (file.size > MAX_OBJ_BYTES)
    return banners.show(`${file.name} was not imported: it is ${(file.size / 2 ** 20).toFixed(1)} MiB, and a scenario holds at most 15 MiB of OBJ text. Run it with the command-line tool ("file": "${file.name}"). Your work is unchanged.`);
  const text = await file.text();
  const bounds = objBounds(text);
  if (!bounds) return banners.show(`${file.name} was not imported: it has no vertices ("v x y z" lines), so it is not an OBJ mesh. Your work is unchanged.`);
  const scenario = scenarioWithMesh(doc.scenario, bounds, text, file.name);
  const mesh = scenario.terrain.meshes[0];
  client.load(scenario, {
    keep: true,
    onBuilt: () => {
      doc.replace(`import ${file.name}`, scenario, { restart: true, loaded: true, owned: true });
      banners.show(
        `Imported ${file.name} as a mesh of ${bounds.count} vertices, ${mesh.up} up, in metres: its lowest point at z = 0, ` +
          'its vertices starting 1 m behind the robot and centred on it across (the outermost 0.5 % aside). Its offset, scale, yaw and up are in the saved scenario (Save).',
        'info',
      );
    },
    onRejected: (issues) => banners.show(`${file.name} was not imported, your work is unchanged:\n` + formatIssues(issues)),
  });
}
