// The batch's webhook: register or replace the URL (the secret is shown once), or remove it.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { errorText } from './api.js';

export function WebhookForm({ api, name, url: current, onChange }) {
  const [url, setUrl] = useState(current ?? '');
  const [secret, setSecret] = useState('');
  const [shown, setShown] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      onChange?.();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const save = (e) => {
    e.preventDefault();
    void run(async () => {
      const hook = await api.setWebhook(name, secret.trim() ? { url: url.trim(), secret: secret.trim() } : { url: url.trim() });
      setShown(hook.secret);
      setSecret('');
    });
  };
  const remove = () => run(async () => {
    await api.deleteWebhook(name);
    setUrl('');
    setShown(null);
  });

  return html`
    <form class="card" onSubmit=${save} aria-labelledby="webhook-title">
      <h2 id="webhook-title">Webhook</h2>
      <p class="help">When every document of a processing run is done, Tablemill POSTs a signed <code>batch.completed</code> event to this URL.</p>
      <label for="webhook-url">Callback URL</label>
      <input id="webhook-url" data-test="webhook-url" type="url" required placeholder="https://example.org/hooks/tablemill"
        value=${url} onInput=${(e) => setUrl(e.currentTarget.value)} />
      <label for="webhook-secret">Signing secret (optional: one is made when empty)</label>
      <input id="webhook-secret" data-test="webhook-secret" type="password" autocomplete="off" placeholder="whsec_…"
        value=${secret} onInput=${(e) => setSecret(e.currentTarget.value)} />
      <div class="row">
        <button type="submit" data-test="webhook-save" disabled=${busy}>${current ? 'Replace webhook' : 'Set webhook'}</button>
        ${current && html`<button type="button" class="secondary" data-test="webhook-remove" disabled=${busy} onClick=${remove}>Remove webhook</button>`}
      </div>
      ${shown && html`<p role="status" data-test="webhook-secret-shown">Secret (shown once, keep it to verify signatures): <code>${shown}</code></p>`}
      ${error && html`<p class="error" role="alert">${error}</p>`}
    </form>`;
}
