// A grey PNG imported as the terrain: by the editor's Load button or dropped on
// the view. The image becomes one heightmap embedded as a data URL (so Save and
// Share keep one self-contained file) under the robot's start: 0.05 m cells,
// white 0.5 m above black, the robot 1 m inside its west edge, half-way across.
// The rest of the scenario (robot, control, simulation, materials) is kept.
import { formatIssues } from '../common/issues.js';
import { robotName } from '../scenario/scenarios.js';

/** Cell size (m) and height of white over black (m) of an imported image. */
export const IMPORT_CELL = 0.05;
export const IMPORT_RISE = 0.5;
/** Images of more pixels than this become the work after their terrain is first drawn (importHeightmap). */
const RECORD_AFTER_SAMPLES = 513 * 513;

const dataUrlOf = (file) =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** Width, height and bit depth of a PNG from its header (IHDR), or null when the bytes are not a PNG. */
export function pngHeader(bytes) {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 26 || signature.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20), bits: bytes[24] };
}

/** The scenario with its terrain replaced by the image `name` (header from pngHeader, png a data URL). */
export function scenarioWithHeightmap(scenario, { width, height, bits }, png, name) {
  const [x, y] = scenario.robot?.pose?.position ?? [0, 0];
  const out = structuredClone(scenario);
  out.name = `${robotName(scenario)} on ${name}`;
  out.description = `Terrain imported from ${name}: a ${width} × ${height} heightmap of ${IMPORT_CELL} m cells, white ${IMPORT_RISE} m above black.`;
  out.terrain = {
    ...(scenario.terrain?.materials ? { materials: scenario.terrain.materials } : {}),
    heightmaps: [
      {
        origin: [x - 1, y - ((height - 1) * IMPORT_CELL) / 2],
        cell: IMPORT_CELL,
        png,
        height_scale: IMPORT_RISE / (2 ** (bits === 16 ? 16 : 8) - 1),
        ...(scenario.terrain?.materials && !scenario.terrain.materials.default ? { material: Object.keys(scenario.terrain.materials)[0] } : {}),
      },
    ],
  };
  delete out.track1;
  return out;
}

/** Imports `file` (a PNG) as the terrain: built in the worker; it replaces the work only if valid. */
export async function importHeightmap({ doc, client, banners }, file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const header = pngHeader(bytes);
  if (!header) return banners.show(`${file.name} was not imported: it is not a PNG image. Your work is unchanged.`);
  const scenario = scenarioWithHeightmap(doc.scenario, header, await dataUrlOf(file), file.name);
  client.load(scenario, {
    keep: true,
    onBuilt: () => {
      const record = () => {
        doc.replace(`import ${file.name}`, scenario, { restart: true, loaded: true, owned: true });
        banners.show(
          `Imported ${file.name} as a ${header.width} × ${header.height} heightmap: ${IMPORT_CELL} m cells, white ${IMPORT_RISE} m above black, ` +
            'the robot 1 m inside its west edge. Its origin, cell and height_scale are in the saved scenario (Save).',
          'info',
        );
      };
      // A large image's terrain is shown first (drawn in the next animation frame), then it becomes
      // the work: the document compares, inspects and autosaves its megabytes of text. An edit, undo
      // or save in between records it first (EditorDocument.deferRecord).
      if (header.width * header.height > RECORD_AFTER_SAMPLES) {
        const recordNow = doc.deferRecord(record);
        requestAnimationFrame(() => setTimeout(recordNow, 0));
      } else record();
    },
    onRejected: (issues) => banners.show(`${file.name} was not imported, your work is unchanged:\n` + formatIssues(issues)),
  });
}
