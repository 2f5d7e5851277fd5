// A robot brought into the app: a URDF with the mesh files it names (STL),
// dropped on the view or picked with "Import robot…" (several files, or one
// .zip of them). The worker's core reads them into a robot description
// (core/bindings/robot_api.h), which the scenario then holds inline as
// robot.model: Save, autosave and share links carry the whole robot, its
// collision meshes as convex hulls. The robot stands where the last one
// stood, on the same terrain; a rejected URDF leaves the work as it was.
import { unzipSync } from 'fflate';
import { formatIssues } from '../common/issues.js';
import { withRobot } from '../scenario/scenarios.js';

/** Most bytes of a URDF (as the core reads it: kMaxUrdfBytes). */
export const MAX_URDF_BYTES = 50 * 2 ** 20;
/** Most bytes of a robot's mesh files together (kMaxUrdfMeshBytes), unpacked. */
export const MAX_MESH_BYTES = 128 * 2 ** 20;
/** Most files in a .zip (a robot package rarely holds a hundred). */
export const MAX_ZIP_FILES = 10000;

const isUrdf = (name) => /\.urdf$/i.test(name);

/**
 * The URDF and its companions from dropped or picked files: { urdf: { name,
 * text }, files: { name: Uint8Array } } or { error } (a sentence). A .zip is
 * unpacked, its entries' sizes checked against the limits before any is
 * inflated; names are kept relative to the URDF's folder in it.
 */
export async function robotFiles(list) {
  const entries = {};
  let total = 0;
  for (const file of [...list]) {
    if (/\.zip$/i.test(file.name)) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let count = 0;
      let refused = null;
      let unpacked;
      try {
        unpacked = unzipSync(bytes, {
          filter: (entry) => {
            if (entry.name.endsWith('/')) return false;
            count++;
            total += entry.originalSize;
            if (count > MAX_ZIP_FILES) refused ??= `${file.name} holds more than ${MAX_ZIP_FILES} files`;
            else if (total > MAX_URDF_BYTES + MAX_MESH_BYTES)
              refused ??= `${file.name} unpacks to more than ${(MAX_URDF_BYTES + MAX_MESH_BYTES) / 2 ** 20} MiB (a URDF holds at most 50 MiB and its meshes 128 MiB)`;
            return !refused;
          },
        });
      } catch (e) {
        return { error: `${file.name} is not a .zip that can be read (${e.message})` };
      }
      if (refused) return { error: refused };
      Object.assign(entries, unpacked);
    } else {
      total += file.size;
      if (total > MAX_URDF_BYTES + MAX_MESH_BYTES) return { error: `the files hold more than ${(MAX_URDF_BYTES + MAX_MESH_BYTES) / 2 ** 20} MiB` };
      entries[file.webkitRelativePath || file.name] = new Uint8Array(await file.arrayBuffer());
    }
  }
  const urdfs = Object.keys(entries).filter(isUrdf);
  if (urdfs.length !== 1)
    return { error: urdfs.length ? `give one robot at a time: ${urdfs.length} URDF files were given (${urdfs.slice(0, 3).join(', ')})` : 'no .urdf file was given (give the .urdf with its meshes, or a .zip of them)' };
  const [path] = urdfs;
  if (entries[path].length > MAX_URDF_BYTES) return { error: `${path} is larger than 50 MiB, the limit of a URDF` };
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const files = {};
  for (const [name, bytes] of Object.entries(entries))
    if (name !== path) files[name.startsWith(folder) ? name.slice(folder.length) : name] = bytes;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(entries[path]);
  return { urdf: { name: path.split('/').pop(), text }, files };
}

/** The banner's lines for the reader's warnings (at most `most` of them, then how many more). */
export function warningLines(warnings, most = 8) {
  const lines = warnings.slice(0, most).map((w) => `${w.path}: ${w.message}`);
  if (warnings.length > most) lines.push(`… and ${warnings.length - most} more`);
  return lines.join('\n');
}

/** Imports the robot in `list` (Files): read in the worker; it replaces the robot only if the scenario builds. */
export async function importRobot({ doc, client, banners }, list) {
  const given = await robotFiles(list);
  if (given.error) return banners.show(`The robot was not imported: ${given.error}. Your work is unchanged.`);
  const { urdf, files } = given;
  const read = await client.importRobot(urdf.text, files);
  if (!read.ok) return banners.show(`${urdf.name} was not imported, your work is unchanged:\n` + formatIssues(read.issues));
  const name = read.model.name || urdf.name.replace(/\.urdf$/i, '');
  const scenario = withRobot(doc.scenario, { model: read.model }, name, `imported from ${urdf.name}`);
  client.load(scenario, {
    keep: true,
    onBuilt: () => {
      doc.replace(`import robot ${urdf.name}`, scenario, { restart: true, loaded: true, owned: true });
      const links = read.model.links?.length ?? 0;
      const wheels = read.model.wheels?.length ?? 0;
      banners.show(
        `Imported ${urdf.name}: ${name}, ${links} links, ${wheels} wheels, kept in the scenario as its description (Save and Share carry it). ` +
          (read.warnings.length ? `What the reader did not use or approximated:\n${warningLines(read.warnings)}` : 'The reader used everything in it.'),
        'info',
      );
    },
    onRejected: (issues) => banners.show(`${urdf.name} was read but its robot does not run, your work is unchanged:\n` + formatIssues(issues)),
  });
}
