/**
 * One Node.js version everywhere a person or a machine reads it: package.json's "engines" (the
 * source, also checked by bin/tablemill at start), the client package's, the lock file, every
 * "Node.js ≥" of README.md and docs/, and the Dockerfile's base image.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';

const read = (p: string) => readFileSync(join(REPO_ROOT, p), 'utf8');
const engines = (p: string) => (JSON.parse(read(p)) as { engines: { node: string } }).engines.node;

describe('the Node.js version', () => {
  const want = /^>=(\d+)\.(\d+)$/.exec(engines('package.json'));

  it('is one in package.json, the client package, the lock file, the docs and the Dockerfile', () => {
    expect(want, 'package.json engines.node as >=MAJOR.MINOR').not.toBeNull();
    const [, major, minor] = want!;
    expect(engines('packages/client/package.json')).toBe(`>=${major}.${minor}`);
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };
    expect(lock.packages['']!.engines!.node).toBe(`>=${major}.${minor}`);
    expect(lock.packages['packages/client']!.engines!.node).toBe(`>=${major}.${minor}`);

    const docs = ['README.md', 'packages/client/README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const said = docs.flatMap((d) => [...read(d).matchAll(/Node(?:\.js)? ?(?:≥|>=) ?v?([\d.]+)/g)].map((m) => `${d}: ${m[1]}`));
    expect(said.some((s) => s.startsWith('README.md:'))).toBe(true);
    for (const s of said) expect(s).toMatch(new RegExp(`: ${major}\\.${minor}$`));

    const images = [...read('Dockerfile').matchAll(/^FROM node:(\d+)(?:\.(\d+))?/gm)];
    expect(images.length).toBeGreaterThan(0);
    for (const m of images) {
      expect(m[1]).toBe(major);
      if (m[2]) expect(Number(m[2])).toBeGreaterThanOrEqual(Number(minor));
    }
  });
});
