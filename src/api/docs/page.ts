/**
 * The /docs page, rendered on the server from the OpenAPI document: every operation with its
 * parameters, request body and responses is in the HTML itself, so the page is readable at once
 * (and with scripts off); a try-it form per operation sends a request with a key (try-it.ts).
 */
import { escapeHtml as esc, schemaText } from './schema-text.js';
import { TRY_IT_SCRIPT } from './try-it.js';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f6f7f9; }
  header { background: #1d3a5f; color: #fff; padding: 16px 28px; }
  header h1 { margin: 0; font-size: 22px; }
  header p { margin: 4px 0 0; opacity: .85; }
  main { max-width: 1040px; margin: 0 auto; padding: 20px 28px 60px; }
  nav { margin: 0 0 18px; }
  nav a { margin-right: 14px; color: #1d3a5f; }
  .key { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 10px 14px; }
  .key input { font: 14px ui-monospace, monospace; width: min(480px, 100%); }
  h2 { margin: 30px 0 10px; font-size: 18px; text-transform: capitalize; }
  details.op { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; margin: 8px 0; }
  details.op > summary { cursor: pointer; padding: 10px 14px; list-style: none; display: flex; flex-wrap: wrap; gap: 12px; align-items: baseline; }
  .method { font: 600 12px ui-monospace, monospace; padding: 2px 8px; border-radius: 4px; color: #fff; min-width: 56px; text-align: center; }
  .get { background: #2f7d32; } .post { background: #1565c0; } .put { background: #8e5a00; } .delete { background: #b3261e; } .patch { background: #6a1b9a; }
  .path { font: 14px ui-monospace, monospace; overflow-wrap: anywhere; }
  .summary { color: #505a66; }
  .body { padding: 0 16px 14px; border-top: 1px solid #eceff2; }
  table { border-collapse: collapse; width: 100%; margin: 6px 0; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eceff2; vertical-align: top; font-size: 14px; }
  code, .schema, output { font: 13px ui-monospace, monospace; }
  .schema, output { display: block; background: #f3f5f8; padding: 8px 10px; border-radius: 4px; white-space: pre; overflow-x: auto; }
  .lock { font-size: 12px; color: #8e5a00; }
  form.try { border-top: 1px dashed #d8dde3; margin-top: 10px; padding-top: 8px; }
  form.try label { display: block; margin: 6px 0 2px; font-size: 14px; }
  form.try input, form.try textarea { font: 14px ui-monospace, monospace; width: min(480px, 100%); }
  form.try button { display: block; margin-top: 8px; padding: 4px 14px; }
  output:empty { display: none; }
`;

function paramRows(params: Json[]): string {
  if (!params.length) return '';
  const rows = params
    .map((p) => {
      const def = p.schema && 'default' in p.schema ? ` (default ${esc(JSON.stringify(p.schema.default))})` : '';
      return `<tr class="param"><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td><code>${esc(schemaText(p.schema))}</code>${def}</td><td>${p.required ? 'yes' : 'no'}</td></tr>`;
    })
    .join('');
  return `<h4>Parameters</h4><table><tr><th>parameter</th><th>in</th><th>type</th><th>required</th></tr>${rows}</table>`;
}

/** A response's schema as text: a named shape by its name and, one level down, its properties. */
function responseText(schema: Json, named: Json): string {
  const name = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : null;
  return name && named[name] ? `${name} ${schemaText(named[name])}` : schemaText(schema);
}

function responses(op: Json, named: Json): string {
  return Object.entries<Json>(op.responses ?? {})
    .map(([code, resp]) => {
      const media = resp.content ? Object.values<Json>(resp.content)[0] : null;
      const schema = media?.schema ? `<div class="schema">${esc(responseText(media.schema, named))}</div>` : '';
      return `<p><strong>${esc(code)}</strong> ${esc(resp.description ?? '')}</p>${schema}`;
    })
    .join('');
}

/** The try-it form of one operation: a labelled field per parameter, the body, a send button, the answer. */
function tryForm(id: string, path: string, method: string, op: Json): string {
  const fields = (op.parameters ?? [])
    .map((p: Json) => {
      const fid = `${id}-${p.in}-${p.name}`;
      const hint = p.schema && 'default' in p.schema ? ` placeholder="${esc(String(p.schema.default))}"` : '';
      return `<label for="${esc(fid)}">${esc(p.name)} (${esc(p.in)}${p.required ? ', required' : ''})</label><input id="${esc(fid)}" name="${esc(p.name)}" data-in="${esc(p.in)}"${p.required ? ' required' : ''}${hint}>`;
    })
    .join('');
  const content = op.requestBody?.content ?? {};
  let body = '';
  if (content['multipart/form-data']) body = `<label for="${id}-files">files (one part named file each)</label><input id="${id}-files" type="file" multiple>`;
  else if (content['application/json']) body = `<label for="${id}-body">JSON body</label><textarea id="${id}-body" name="body" rows="4"></textarea>`;
  return `<form class="try" data-method="${method}" data-path="${esc(path)}" aria-label="Try ${method.toUpperCase()} ${esc(path)}">${fields}${body}<button type="submit">Send ${method.toUpperCase()}</button><output aria-live="polite"></output></form>`;
}

function operation(id: string, path: string, method: string, op: Json, named: Json): string {
  const request = Object.entries<Json>(op.requestBody?.content ?? {})
    .map(([type, media]) => `<h4>Request body (${esc(type)})</h4><div class="schema">${esc(schemaText(media.schema))}</div>`)
    .join('');
  const lock = op.security?.length ? '<span class="lock" title="needs Authorization: Bearer &lt;key&gt;">bearer key</span>' : '';
  return `<details class="op" id="${id}" data-method="${method}" data-path="${esc(path)}"><summary><span class="method ${method}">${method.toUpperCase()}</span><span class="path">${esc(path)}</span><span class="summary">${esc(op.summary ?? '')}</span>${lock}</summary><div class="body">${op.description ? `<p>${esc(op.description)}</p>` : ''}${paramRows(op.parameters ?? [])}${request}<h4>Responses</h4>${responses(op, named)}${tryForm(id, path, method, op)}</div></details>`;
}

/** The whole page for the OpenAPI document `doc`. */
export function renderDocsPage(doc: Json): string {
  const byTag = new Map<string, string[]>();
  let n = 0;
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operation(`op${++n}`, path, method, op, doc.components?.schemas ?? {}));
    }
  }
  const schemas = Object.entries<Json>(doc.components?.schemas ?? {});
  const nav = [...byTag.keys()].map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join('') + (schemas.length ? '<a href="#schemas">schemas</a>' : '');
  // The named shapes the operations refer to by name.
  const shapes = schemas.map(([name, schema]) => `<h3 id="schema-${esc(name)}">${esc(name)}</h3><div class="schema">${esc(schemaText(schema))}</div>`).join('');
  const sections =
    [...byTag].map(([t, ops]) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2>${ops.join('')}`).join('') + (schemas.length ? `<h2 id="schemas">Schemas</h2>${shapes}` : '');
  const info = doc.info ?? {};
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tablemill API reference</title>
<style>${STYLE}</style>
</head>
<body data-rendered="${n}">
<header>
  <h1 id="title">${esc(`${info.title ?? 'API'} ${info.version ?? ''}`.trim())}</h1>
  <p id="description">${esc(`${info.description ?? ''} (OpenAPI ${doc.openapi}, also at /openapi.json)`)}</p>
</header>
<main>
  <nav id="nav">${nav}</nav>
  <div class="key"><label for="api-key">API key for the try-it forms (sent as <code>Authorization: Bearer</code>; kept in this tab only)</label><br><input id="api-key" type="password" autocomplete="off" spellcheck="false"></div>
  <div id="ops">${sections}</div>
</main>
<script>${TRY_IT_SCRIPT}</script>
</body>
</html>`;
}
