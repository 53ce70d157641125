// Entry of a solver worker thread (piscina). Workers do not inherit a TypeScript loader in every setting
// (tsx CLI, node --import tsx, vitest), so this plain-JS entry loads the TypeScript task through tsx's API.
import { tsImport } from 'tsx/esm/api';

const task = await tsImport('./task.ts', import.meta.url);

export default task.default;
