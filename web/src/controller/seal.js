// The hosts' seal of their global object before a controller program runs
// there (program.js, docs/controllers.md): a module of its own, so that a host
// seals itself without loading the program checker (acorn) until a program
// comes.

/**
 * The built-ins the host's own code calls, which a program shares with it in
 * the worker's realm: frozen (and their global names made constant), so that
 * a program cannot change what the host does (its clock, JSON, Array's
 * methods, the typed arrays the core's rows travel in). Objects of the core
 * (made by its glue code) and a program's own stay as they are.
 */
const INTRINSICS = [
  'Object', 'Function', 'Array', 'Number', 'String', 'Boolean', 'Symbol', 'BigInt', 'Math', 'JSON', 'Reflect',
  'Date', 'RegExp', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Promise', 'Error', 'TypeError', 'RangeError',
  'SyntaxError', 'ReferenceError', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'Float64Array', 'Float32Array',
  'Int8Array', 'Int16Array', 'Int32Array', 'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array',
  'BigInt64Array', 'BigUint64Array', 'performance', 'console',
];

function freezeIntrinsics(scope) {
  const freeze = (o) => {
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null) return;
    Object.freeze(o);
    if (typeof o === 'function' && o.prototype) Object.freeze(o.prototype);
  };
  for (const name of INTRINSICS) {
    const value = scope[name];
    if (value === undefined) continue;
    freeze(value);
    if (name === 'performance') freeze(Object.getPrototypeOf(value));
    try {
      Object.defineProperty(scope, name, { value, writable: false, configurable: false });
    } catch {
      // already constant
    }
  }
  const TypedArray = Object.getPrototypeOf(Float64Array);
  freeze(TypedArray);
  freeze(Object.getPrototypeOf(function* () {}));  // generators' and iterators' prototypes
  freeze(Object.getPrototypeOf([][Symbol.iterator]()));
  freeze(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
}

/**
 * Removes the network, messaging and code-loading globals from a worker's (or
 * Node worker's) global object and its prototypes, after the host has taken
 * what it needs (a bound postMessage): a program that reaches the global
 * object (Function('return this')()) finds them undefined. Then freezes the
 * built-ins the host calls (INTRINSICS).
 */
export function sealGlobals(scope = globalThis) {
  const names = ['fetch', 'importScripts', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'Worker', 'SharedWorker', 'BroadcastChannel', 'indexedDB', 'caches', 'postMessage', 'close'];
  for (let o = scope; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of names) {
      if (!Object.prototype.hasOwnProperty.call(o, name)) continue;
      try {
        delete o[name];
      } catch {
        // not configurable: shadowed on the scope below
      }
    }
  }
  for (const name of names) {
    if (scope[name] === undefined) continue;
    try {
      Object.defineProperty(scope, name, { value: undefined, configurable: false, writable: false });
    } catch {
      // shadowed in the program's function anyway
    }
  }
  freezeIntrinsics(scope);
}
