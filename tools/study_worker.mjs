// A worker thread of `node tools/roverlab.mjs study` (study_command.mjs): the
// WASM core runs the study's tasks the main thread hands it, one at a time, a
// controller program in each run's loop when the study's scenario carries one
// (web/src/study/program_rows.js). While a program runs it tells the main
// thread it is alive (a heartbeat in shared memory, written at each of the
// program's calls), so that an update that never returns is stopped.
//
// In: { type: 'task', index } (a grid row, or a threshold study's combination).
// Out: { type: 'ready' }, { type: 'run', index, row } (a threshold search's
// run), { type: 'done', index, result } (the row or the threshold record).
import { parentPort, workerData } from 'node:worker_threads';

import { sealGlobals } from '../web/src/controller/seal.js';
import { runProgramRow, searchProgramThreshold, studyHasProgram } from '../web/src/study/program_rows.js';
import createRoverlabCore from '../web/src/wasm/roverlab_core.js';

const core = await createRoverlabCore();
const post = parentPort.postMessage.bind(parentPort);
sealGlobals();

const { text, epoch } = workerData;
const beat = new Int32Array(workerData.beat);
const description = core.parseStudy(text);
const hosted = studyHasProgram(description);
/** The program's clock (ms), which also says this worker is alive (in the shared heartbeat). */
const now = () => {
  Atomics.store(beat, 0, Date.now() - epoch);
  return performance.now();
};

parentPort.on('message', ({ index }) => {
  let result;
  if (description.isThreshold) {
    const onRow = (row) => post({ type: 'run', index, row });
    result = hosted ? searchProgramThreshold(core, text, index, onRow, { now }) : core.searchThreshold(text, index, onRow);
  } else {
    result = hosted ? runProgramRow(core, text, index, { now }) : core.runStudyRow(text, index);
  }
  post({ type: 'done', index, result });
});
post({ type: 'ready' });
