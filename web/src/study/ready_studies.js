// The studies of the repository's studies/ folder (bundled at build time, as
// the scenarios of terrains/ are): each `roverlab-study` document, its
// scenario put inline when it names a file of the same folder (the browser
// reads no files; the core refuses a study whose scenario is a file name).

const files = import.meta.glob('../../../studies/*.json', { query: '?raw', import: 'default', eager: true });

const byName = Object.fromEntries(Object.entries(files).map(([path, text]) => [path.split('/').pop(), text]));

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** [{ id, name, description, text }] of the studies in studies/, sorted by id; text: the study with its scenario inline. */
export const readyStudies = Object.entries(byName)
  .map(([file, text]) => ({ file, doc: parse(text), text }))
  .filter(({ doc }) => doc?.format === 'roverlab-study')
  .map(({ file, doc, text }) => {
    const scenario = typeof doc.scenario === 'string' && byName[doc.scenario] ? parse(byName[doc.scenario]) : null;
    return {
      id: file.replace(/\.json$/, ''),
      name: typeof doc.name === 'string' && doc.name ? doc.name : file,
      description: typeof doc.description === 'string' ? doc.description : '',
      text: scenario ? JSON.stringify({ ...doc, scenario }) : text,
    };
  })
  .sort((a, b) => a.id.localeCompare(b.id));
