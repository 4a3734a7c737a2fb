// The v1 flow on embedded SQLite (see flow.ts).
import { registerFlow } from './flow.js';

registerFlow('sqlite', () => ({}));
