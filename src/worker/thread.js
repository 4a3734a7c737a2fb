// The piscina thread entry. Compiled (dist/), it loads task.js beside it. From the TypeScript
// sources (tests, `bin/run-ts.js`) it registers tsx itself, since threads do not inherit the
// main thread's loader hooks, and loads task.ts.
import { existsSync } from 'node:fs';

const compiled = existsSync(new URL('./task.js', import.meta.url));
if (!compiled) (await import('tsx/esm/api')).register();
const mod = await import(compiled ? './task.js' : './task.ts');

export default mod.runTask;
