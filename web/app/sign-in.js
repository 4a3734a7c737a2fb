// Sign in with an API key: the key is checked against the server before it is kept.
import { useState } from 'preact/hooks';
import { html, useTitle } from './html.js';
import { AppApi, errorText } from './api.js';

export function SignIn({ onSignIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useTitle('Sign in');

  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await new AppApi(key.trim()).listBatches({ limit: 1 });
      onSignIn(key.trim());
    } catch (err) {
      setError(err.status === 401 ? 'This API key is not valid.' : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return html`
    <section class="card narrow">
      <h1 tabindex="-1">Sign in</h1>
      <p>Tablemill turns PDFs, scans and photos of invoices, receipts, statements and reports into tables.
        Sign in with an API key (<code>tablemill keys create --account NAME</code> makes one).</p>
      <form onSubmit=${submit}>
        <label for="api-key">API key</label>
        <input id="api-key" data-test="api-key" type="password" autocomplete="current-password" required
          value=${key} onInput=${(e) => setKey(e.currentTarget.value)} aria-describedby=${error ? 'sign-in-error' : undefined} />
        <button type="submit" data-test="sign-in" disabled=${busy || !key.trim()}>${busy ? 'Signing in…' : 'Sign in'}</button>
        ${error && html`<p id="sign-in-error" class="error" role="alert">${error}</p>`}
      </form>
    </section>
  `;
}
