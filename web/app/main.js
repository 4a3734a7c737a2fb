// The app's shell: the API key (kept for this tab only, in sessionStorage), and hash routes
// `#/` (batches and upload), `#/batches/NAME` (one batch), `#/documents/ID` (one document).
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { html } from './html.js';
import { AppApi } from './api.js';
import { SignIn } from './sign-in.js';
import { BatchList } from './batch-list.js';
import { BatchView } from './batch-view.js';
import { DocumentView } from './document-view.js';

const KEY_STORE = 'tablemill.key';

function currentRoute() {
  const [, kind, arg] = /^#\/(batches|documents)\/(.+)$/.exec(location.hash) ?? [];
  return kind ? { kind, arg: decodeURIComponent(arg) } : { kind: 'home' };
}

function App() {
  const [key, setKey] = useState(() => sessionStorage.getItem(KEY_STORE));
  const [route, setRoute] = useState(currentRoute);
  const api = useMemo(() => (key ? new AppApi(key) : null), [key]);

  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  // Moves focus to the new view's heading, so keyboard and screen-reader users land on it.
  useEffect(() => {
    document.querySelector('main h1')?.focus();
  }, [route, key]);

  const signIn = (k) => {
    sessionStorage.setItem(KEY_STORE, k);
    setKey(k);
  };
  const signOut = () => {
    sessionStorage.removeItem(KEY_STORE);
    setKey(null);
    location.hash = '#/';
  };

  let view;
  if (!api) view = html`<${SignIn} onSignIn=${signIn} />`;
  else if (route.kind === 'batches') view = html`<${BatchView} api=${api} name=${route.arg} key=${route.arg} />`;
  else if (route.kind === 'documents') view = html`<${DocumentView} api=${api} id=${route.arg} key=${route.arg} />`;
  else view = html`<${BatchList} api=${api} />`;

  return html`
    <header class="top">
      <a class="brand" href="#/">Tablemill</a>
      <nav aria-label="Main">
        <a href="#/">Batches</a>
        <a href="/docs">API reference</a>
        ${api && html`<button type="button" class="link" onClick=${signOut}>Sign out</button>`}
      </nav>
    </header>
    <main id="main">${view}</main>
  `;
}

const root = document.getElementById('app');
// render() adds to what the element holds: the loading line goes first.
root.textContent = '';
render(html`<${App} />`, root);
