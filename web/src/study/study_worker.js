// A worker of the study pool (study_pool.js): it loads the WASM core and runs
// one study's rows or threshold searches with the core's own functions
// (core.runStudyRow, core.searchThreshold: core/bindings/study_api.h), one
// task at a time. Messages that come before the core is loaded wait. A study
// whose scenario carries a controller program runs each row with the program
// in its loop (program_rows.js), in this worker, whose network and messaging
// globals are removed once the core is loaded (sealGlobals).
//
// Messages in (pool → worker):
//   { type: 'study', text }        the study (JSON text) the tasks after it belong to
//   { type: 'row', id, index }     runs the grid's row `index`
//   { type: 'search', id, index }  searches the threshold of the grid's combination `index`
// Messages out (worker → pool):
//   { type: 'ready' }                   the core is loaded
//   { type: 'started', id }             a task began (its time limit starts now)
//   { type: 'row', id, row }            a row finished (row: the core's, or { ok: false, issues })
//   { type: 'searchRow', id, row }      a run of a threshold search finished (it goes on)
//   { type: 'search', id, answer }      a search finished (answer: the threshold record)
//   { type: 'fatal', id, message }      the core failed (loading it, or running a task): the
//                                       pool replaces this worker
import { sealGlobals } from '../controller/seal.js';
import { loadCore } from '../sim/core.js';
import { runProgramRow, searchProgramThreshold, studyHasProgram } from './program_rows.js';

let core = null;
let text = null;
let hosted = false;  // the study's scenario carries a program
const waiting = [];
const post = self.postMessage.bind(self);

function handle(message) {
  const { type, id } = message;
  try {
    if (type === 'study') {
      text = message.text;
      hosted = studyHasProgram(core.parseStudy(text));
    } else if (type === 'row') {
      post({ type: 'started', id });
      post({ type: 'row', id, row: hosted ? runProgramRow(core, text, message.index) : core.runStudyRow(text, message.index) });
    } else if (type === 'search') {
      post({ type: 'started', id });
      const onRow = (row) => post({ type: 'searchRow', id, row });
      const answer = hosted ? searchProgramThreshold(core, text, message.index, onRow) : core.searchThreshold(text, message.index, onRow);
      post({ type: 'search', id, answer });
    }
  } catch (error) {
    // A core that aborted (out of memory, a failed check) is not used again.
    post({ type: 'fatal', id, message: String(error?.message ?? error) });
    core = null;
  }
}

self.onmessage = ({ data }) => {
  if (core) handle(data);
  else waiting.push(data);
};

loadCore()
  .then((loaded) => {
    core = loaded;
    sealGlobals(self);
    post({ type: 'ready' });
    for (const message of waiting.splice(0)) if (core) handle(message);
  })
  .catch((error) => post({ type: 'fatal', id: null, message: `the simulation core could not be loaded: ${error?.message ?? error}` }));
