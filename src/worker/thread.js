// The piscina thread entry. Threads do not inherit the main thread's loader hooks, so this file
// registers tsx itself, then loads the TypeScript task module and hands piscina its function.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./task.ts');

export default mod.runTask;
