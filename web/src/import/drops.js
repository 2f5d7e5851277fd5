// Files dropped on the view, told apart by their names before any importer is
// loaded: a URDF (with its meshes) or a .zip is a robot, a PNG a heightmap, an
// OBJ a mesh terrain, anything else a scenario file.

/** True when `files` (File objects) hold a robot: a .urdf or a .zip. */
export function holdsRobot(files) {
  return [...files].some((f) => /\.(urdf|zip)$/i.test(f.name));
}

/** Files dropped on `target`: a URDF (with its meshes) or a .zip imported as the robot, a PNG or an OBJ mesh as the terrain, a JSON file loaded as the scenario. */
export function acceptDrops(target, { onImage, onMesh, onScenario, onRobot }) {
  target.addEventListener('dragover', (event) => {
    if ([...(event.dataTransfer?.types ?? [])].includes('Files')) event.preventDefault();
  });
  target.addEventListener('drop', async (event) => {
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    if (holdsRobot(event.dataTransfer.files)) onRobot([...event.dataTransfer.files]);
    else if (/\.png$/i.test(file.name) || file.type === 'image/png') onImage(file);
    else if (/\.obj$/i.test(file.name)) onMesh(file);
    else onScenario(await file.text(), file.name);
  });
}
