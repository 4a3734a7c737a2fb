/**
 * Every link in README.md and docs/*.md resolves inside the repository: relative links name a
 * file or folder of the repository (a clone carries everything its documents point to), and
 * `#anchors` name a heading of the target document. Web links are left alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';

const DOCS = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Link targets of a Markdown text: inline `[text](target)` and reference definitions `[id]: target`, outside code. */
function linkTargets(md: string): string[] {
  const text = md.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const refs = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...refs];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(md: string): Set<string> {
  const out = new Set<string>();
  for (const m of md.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    out.add(
      m[1]!
        .toLowerCase()
        .replace(/[`*_]/g, '')
        .replace(/[^\p{L}\p{N}\s-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return out;
}

describe('documentation links resolve inside the repository', () => {
  it.each(DOCS)('%s', (doc) => {
    const md = readFileSync(join(REPO_ROOT, doc), 'utf8');
    const targets = linkTargets(md);
    const broken: string[] = [];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path ? resolve(dirname(join(REPO_ROOT, doc)), decodeURIComponent(path)) : join(REPO_ROOT, doc);
      const inside = !relative(REPO_ROOT, file).startsWith('..');
      if (!inside || !existsSync(file)) {
        broken.push(`${target} (${inside ? 'no such file' : 'outside the repository'})`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor.toLowerCase())) broken.push(`${target} (no heading #${anchor})`);
    }
    expect(broken).toEqual([]);
  });

  it('finds the links it checks (the parser is not blind)', () => {
    expect(linkTargets('see [a](docs/api.md) and [b](#x "t")\n[c]: ../other/API.md\n`[d](no.md)`')).toEqual(['docs/api.md', '#x', '../other/API.md']);
    expect(anchors('## Web app\n### The `zip` format (CSV)')).toEqual(new Set(['web-app', 'the-zip-format-csv']));
  });
});
