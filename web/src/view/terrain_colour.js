// The View panel's terrain colour: heightmaps coloured by height (low dark,
// high light) or by slope (flat green, 45° and steeper red). A change colours
// the heightmaps on the stage in place (no rebuild, the run goes on); like the
// panel's other view settings it holds for every terrain shown after it, on
// this page. The control is enabled only while the terrain on show has a
// heightmap.
const TITLE_ON = 'Heightmaps coloured by height (low dark, high light) or by slope (flat green, 45° and steeper red)';
const TITLE_OFF = 'This terrain has no heightmap (a grey PNG loaded in Edit terrain, or a scenario with terrain.heightmaps)';

export function wireTerrainColour({ stage }, $ = (id) => document.getElementById(id)) {
  const select = $('terrain-colour');
  const box = $('terrain-colour-box');
  const enable = (on) => {
    select.disabled = !on;
    box.classList.toggle('off', !on);
    box.title = on ? TITLE_ON : TITLE_OFF;
  };
  select.addEventListener('input', () => stage.setTerrainColour(select.value));
  stage.setTerrainColour(select.value);  // a value the browser kept over a reload
  stage.terrainShown.add(enable);
  enable(false);
}
