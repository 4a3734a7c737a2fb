/**
 * JSON Schema → TypeScript for the contract's schemas (the subset TypeBox emits there: objects,
 * arrays, fixed-length number tuples, records, nullable type arrays, enums, consts, anyOf, $ref).
 * Every named schema becomes an exported interface or type; a nested schema equal to a named one
 * is written as that name, so `Batch.counts` reads `Counts`, not an inline copy.
 */
import * as schemas from '../src/contract/schemas.js';
import * as hooks from '../src/contract/webhooks.js';

type Schema = Record<string, any>;

/** The exported names, in the order they are written, and their schemas. */
const NAMED: [string, Schema][] = [
  ['ProcessingError', schemas.ProcessingErrorSchema],
  ['Counts', schemas.CountsSchema],
  ['Batch', schemas.BatchSchema],
  ['Document', schemas.DocumentSchema],
  ['Cell', schemas.CellSchema],
  ['Table', schemas.TableSchema],
  ['LineItem', schemas.LineItemSchema],
  ['Totals', schemas.TotalsSchema],
  ['Field', schemas.FieldSchema],
  ['Fields', schemas.FieldsSchema],
  ['DocumentResult', schemas.DocumentResultSchema],
  ['BatchList', schemas.BatchListSchema],
  ['BatchResults', schemas.BatchResultsSchema],
  ['UploadResponse', schemas.UploadResponseSchema],
  ['ProcessResponse', schemas.ProcessResponseSchema],
  ['ErrorBody', schemas.ErrorSchema],
  ['Webhook', hooks.WebhookSchema],
  ['Delivery', hooks.DeliverySchema],
  ['BatchCompletedEvent', hooks.BatchCompletedEventSchema],
];

/** The schema's own JSON, without annotations that do not change the type. */
function key(s: Schema): string {
  return JSON.stringify(s, (k, v) => (k === 'description' || k === 'title' || k === '$id' ? undefined : v));
}

const PRIMITIVE: Record<string, string> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' };

class Writer {
  private readonly byKey = new Map<string, string>();
  private readonly byId = new Map<string, string>();

  constructor(named: [string, Schema][]) {
    for (const [name, s] of named) {
      this.byKey.set(key(s), name);
      if (s.$id) this.byId.set(String(s.$id), name);
      if (s.title) this.byId.set(String(s.title), name);
    }
  }

  /** The type of `s`; `self` is the name being defined (never referenced by itself). */
  type(s: Schema, indent: string, self?: string): string {
    const named = this.byKey.get(key(s));
    if (named && named !== self) return named;
    if (s.$ref) {
      const id = String(s.$ref).split('/').at(-1)!;
      const name = this.byId.get(id);
      if (!name) throw new Error(`client-types: unknown $ref ${s.$ref}`);
      return name;
    }
    if ('const' in s) return JSON.stringify(s.const);
    if (Array.isArray(s.enum)) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
    if (Array.isArray(s.anyOf)) return union(s.anyOf.map((x: Schema) => this.type(x, indent)));
    const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    if (types.length === 0) return 'unknown';
    return union(types.map((t) => this.one(t, s, indent)));
  }

  private one(t: string, s: Schema, indent: string): string {
    if (PRIMITIVE[t]) return PRIMITIVE[t];
    if (t === 'array') {
      const item = this.type(s.items ?? {}, indent);
      if (typeof s.minItems === 'number' && s.minItems === s.maxItems && s.minItems <= 8) return `[${Array(s.minItems).fill(item).join(', ')}]`;
      return /[ |]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    if (t === 'object') {
      if (s.properties) return this.object(s, indent);
      const values = Object.values((s.patternProperties ?? {}) as Record<string, Schema>);
      const value = values.length ? union(values.map((v) => this.type(v, indent))) : s.additionalProperties && typeof s.additionalProperties === 'object' ? this.type(s.additionalProperties, indent) : 'unknown';
      return `Record<string, ${value}>`;
    }
    throw new Error(`client-types: unsupported type ${t}`);
  }

  /** An object literal type, one documented member a line. */
  object(s: Schema, indent: string, self?: string): string {
    const required = new Set<string>(s.required ?? []);
    const inner = `${indent}  `;
    const lines = Object.entries(s.properties as Record<string, Schema>).map(([name, p]) => {
      const doc = p.description ? `${inner}/** ${p.description} */\n` : '';
      const prop = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
      return `${doc}${inner}${prop}${required.has(name) ? '' : '?'}: ${this.type(p, inner, self)};`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  declaration(name: string, s: Schema): string {
    const doc = s.description ? `/** ${s.description} */\n` : '';
    const isObject = s.type === 'object' && s.properties;
    return isObject ? `${doc}export interface ${name} ${this.object(s, '', name)}\n` : `${doc}export type ${name} = ${this.type(s, '', name)};\n`;
  }
}

function union(parts: string[]): string {
  return [...new Set(parts)].join(' | ');
}

/** The text of packages/client/src/types.ts. */
export function clientTypes(named: [string, Schema][] = NAMED): string {
  const w = new Writer(named);
  const head = [
    '// Generated by scripts/client-types.ts from the server\'s TypeBox schemas (src/contract/):',
    '// do not edit; run `node bin/run-ts.js scripts/client-types.ts` after changing the contract.',
    '// The shapes of API.md §4, §5 and §7.',
    '',
  ].join('\n');
  return `${head}\n${named.map(([name, s]) => w.declaration(name, s)).join('\n')}`;
}
