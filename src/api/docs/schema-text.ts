/** A compact, TypeScript-like text of a JSON schema for the /docs page; depth-limited so big result shapes stay readable. */
type Schema = Record<string, any>;

/** `s` with the five HTML-special characters escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The schema as text (not escaped). */
export function schemaText(s: Schema | undefined, indent = 0, depth = 0): string {
  if (!s) return 'any';
  const pad = '  '.repeat(indent);
  if (s.$ref) return String(s.$ref).split('/').pop()!;
  if (s.anyOf) return (s.anyOf as Schema[]).map((x) => schemaText(x, indent, depth)).join(' | ');
  if (s.enum) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  const types: Array<string | undefined> = Array.isArray(s.type) ? s.type : [s.type];
  return types
    .map((t) => {
      if (t === 'object' || (!t && s.properties)) {
        const props: Record<string, Schema> = s.properties ?? {};
        const keys = Object.keys(props);
        if (!keys.length) {
          if (s.additionalProperties && typeof s.additionalProperties === 'object') return `{ [key: string]: ${schemaText(s.additionalProperties, indent, depth)} }`;
          if (s.patternProperties) return `{ [key: string]: ${schemaText(Object.values<Schema>(s.patternProperties)[0], indent, depth)} }`;
          return '{}';
        }
        if (depth > 4) return '{ … }';
        const req = new Set<string>(s.required ?? []);
        const lines = keys.map((k) => `${pad}  ${k}${req.has(k) ? '' : '?'}: ${schemaText(props[k], indent + 1, depth + 1)}`);
        return `{\n${lines.join('\n')}\n${pad}}`;
      }
      if (t === 'array') return `${schemaText(s.items, indent, depth)}[]`;
      if (t === 'string' && s.format) return `string<${s.format}>`;
      return t ?? 'any';
    })
    .join(' | ');
}
