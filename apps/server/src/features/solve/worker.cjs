// Entry of a solver worker thread (piscina) when the server runs from its TypeScript sources (tests, dev).
// CommonJS on purpose: piscina first require()s its entry, and Node 20's require() of an ES module that
// awaits at top level (worker.mjs) can abort the whole process with a V8 fatal error ("IsGraphAsync must be
// used on an instantiated module", seen in CI). This entry loads the ES module with import() on first use.
'use strict';

/** @type {((task: unknown) => Promise<unknown>) | undefined} */
let run;

module.exports = async function solverTask(task) {
  run ??= (await import('./worker.mjs')).default;
  return run(task);
};
