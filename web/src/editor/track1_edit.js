// Keeps Track1 nodes that a person placed when the left row changes: each
// node keeps its fraction along its edge (the intersection line of the
// adjacent left-row planes), so it stays on its line as the quads move.
// Nodes of new edges start at the scenario's `lateral` fraction.

const dot = (p, q) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
const sub = (p, q) => p.map((v, k) => v - q[k]);

/**
 * @param core   the WASM core (inspectTerrain)
 * @param before the scenario before the edit
 * @param after  the scenario after it (modified in place and returned)
 */
export function refitTrack1(core, before, after) {
  const nodes = after.track1?.nodes;
  if (!nodes) return after;
  const automatic = structuredClone(after);
  automatic.track1 = { lateral: after.track1.lateral ?? 0.5 };
  const fresh = core.inspectTerrain(JSON.stringify(automatic));
  if (!fresh.ok) return after;  // the edit left the terrain invalid: the nodes wait for a fix
  if (!fresh.track1.length) {
    delete after.track1;  // no left row any more: no Track1
    return after;
  }
  const old = core.inspectTerrain(JSON.stringify(before));
  const fractions = (old.ok ? old.track1 : []).map((line, i) =>
    nodes[i] && line.edgeLength > 0 ? dot(sub(nodes[i], line.linePoint), line.lineDir) / line.edgeLength : null,
  );
  after.track1.nodes = fresh.track1.map((line, i) => {
    const f = fractions[i];
    if (f === null || f === undefined || !Number.isFinite(f)) return line.point;
    const t = Math.min(1, Math.max(0, f)) * line.edgeLength;
    return line.linePoint.map((v, k) => v + t * line.lineDir[k]);
  });
  return after;
}
