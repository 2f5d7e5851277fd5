// The pinned runs kept in this browser, beside the autosaved work: one
// IndexedDB record per run (its telemetry a Float64Array, stored as is: a
// run is up to PIN_BYTES, too much for localStorage's few MB). Every call
// returns a promise that rejects with the browser's error (storage disabled,
// quota exceeded); the caller says so and keeps the runs in the page.

const DB_NAME = 'roverlab';
const DB_VERSION = 1;
const STORE = 'pinned-runs';

/** A request's result as a promise. */
function requested(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** A write transaction's end (committed) as a promise. */
function committed(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('the transaction was aborted'));
  });
}

export class PinStore {
  constructor(db) {
    this.db = db;
  }

  /** Opens the store (created on first use). */
  static async open(indexedDB = globalThis.indexedDB) {
    if (!indexedDB) throw new Error('this browser has no IndexedDB');
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: 'n' });
    };
    return new PinStore(await requested(request));
  }

  /** Every record, by run number. */
  all() {
    return requested(this.db.transaction(STORE).objectStore(STORE).getAll());
  }

  /** Writes a record ({ n, ... }), replacing the one of its number. */
  put(record) {
    const tx = this.db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(record);
    return committed(tx);
  }

  delete(n) {
    const tx = this.db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).delete(n);
    return committed(tx);
  }
}
