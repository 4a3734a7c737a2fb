/**
 * The script of the /docs page's try-it forms: the page is complete without it; with it, each
 * operation's form sends its request with the key from the key field and shows the answer.
 * Inline (the page is one self-contained answer), so it is plain browser JavaScript in a string.
 */
export const TRY_IT_SCRIPT = `
'use strict';
const keyInput = document.getElementById('api-key');
try { keyInput.value = sessionStorage.getItem('tablemill-docs-key') || ''; } catch {}
keyInput.addEventListener('change', () => { try { sessionStorage.setItem('tablemill-docs-key', keyInput.value); } catch {} });
for (const form of document.querySelectorAll('form.try')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const out = form.querySelector('output');
    const method = form.dataset.method.toUpperCase();
    let path = form.dataset.path;
    const query = new URLSearchParams();
    const headers = {};
    for (const input of form.querySelectorAll('[data-in]')) {
      const value = input.value;
      if (value === '') continue;
      const where = input.dataset.in;
      if (where === 'path') path = path.replace('{' + input.name + '}', encodeURIComponent(value));
      else if (where === 'query') query.set(input.name, value);
      else if (where === 'header') headers[input.name] = value;
    }
    if (keyInput.value) headers.authorization = 'Bearer ' + keyInput.value.trim();
    let body;
    const files = form.querySelector('input[type=file]');
    const json = form.querySelector('textarea[name=body]');
    if (files) {
      body = new FormData();
      for (const f of files.files) body.append('file', f, f.name);
    } else if (json && json.value.trim()) {
      body = json.value;
      headers['content-type'] = 'application/json';
    }
    const url = path + (query.size ? '?' + query : '');
    out.textContent = method + ' ' + url + ' …';
    try {
      const res = await fetch(url, { method, headers, body });
      const type = res.headers.get('content-type') || '';
      let text;
      if (type.includes('json')) text = JSON.stringify(await res.json(), null, 2);
      else if (type.startsWith('text/')) text = await res.text();
      else text = '(' + (await res.blob()).size + ' bytes of ' + (type || 'no type') + ')';
      out.textContent = res.status + ' ' + res.statusText + '\\n' + text;
      out.dataset.status = String(res.status);
    } catch (err) {
      out.textContent = String(err);
      out.dataset.status = 'error';
    }
  });
}
document.body.dataset.interactive = 'true';
`;
