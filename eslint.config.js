import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'web/vendor/**', 'bench/.cache/**', '.tmp/**', 'native/build/**', 'dist/**', 'packages/*/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', fetch: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', structuredClone: 'readonly', performance: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // The web app's modules run in the browser.
  {
    files: ['web/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', location: 'readonly', sessionStorage: 'readonly', addEventListener: 'readonly', removeEventListener: 'readonly', XMLHttpRequest: 'readonly', FormData: 'readonly', URLSearchParams: 'readonly', requestAnimationFrame: 'readonly', CSS: 'readonly', ResizeObserver: 'readonly' } },
  },
  // Layering (docs/design.md): dependencies point inward, and nothing below the API imports it.
  ...layer('src/extract/**/*.ts', 'The engine is pure: bytes in, JSON out.', ['api', 'store', 'worker', 'blobs', 'webhooks', 'contract', 'client', 'cli', 'server']),
  ...layer('src/domain/**/*.ts', 'The domain imports nothing.', ['*']),
  ...layer('src/blobs/**/*.ts', 'Blobs import nothing of the service.', ['api', 'store', 'worker', 'webhooks', 'contract', 'client', 'cli', 'extract', 'server', 'config']),
  ...layer('src/store/**/*.ts', 'The store imports the domain, the blobs and (types only) the config.', ['api', 'worker', 'webhooks', 'contract', 'client', 'cli', 'extract', 'server'], ['config']),
  ...layer('src/contract/**/*.ts', 'The contract imports the domain, the engine (whose results it shapes) and the types of the store rows it maps.', ['api', 'worker', 'webhooks', 'blobs', 'client', 'cli', 'server', 'config'], ['store']),
  ...layer('src/webhooks/**/*.ts', 'The webhooks are a service below the API.', ['api', 'worker', 'client', 'cli', 'server', 'extract']),
  ...layer('src/worker/**/*.ts', 'Workers run the engine on the store; they never import the API.', ['api', 'webhooks', 'client', 'cli', 'server']),
  ...layer('src/metrics/**/*.ts', 'Metrics import only the domain.', ['api', 'store', 'worker', 'blobs', 'webhooks', 'contract', 'client', 'cli', 'extract', 'server', 'config']),
  // The SDK (packages/client, `@tablemill/client`) is a package of its own: only the CLI uses it.
  ...layer('src/api/**/*.ts', 'The API serves the SDK\'s built files to the web app, never imports it.', ['client', 'cli']),
  {
    files: ['packages/client/src/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: '^(?!node:|\\./)', message: 'The SDK depends on nothing but Node: no packages, nothing outside packages/client/src.' }] }] },
  },
  // Its browser entry (core.ts) and what it imports run in any runtime with fetch: no Node at all.
  {
    files: ['packages/client/src/{core,errors,wait,types}.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\./)', message: 'The browser entry of the SDK imports only its own modules (Node-only code goes in index.ts, files.ts, verify.ts).' }] }],
      'no-restricted-globals': ['error', { name: 'Buffer', message: 'Not in browsers: use Uint8Array.' }, { name: 'process', message: 'Not in browsers.' }],
    },
  },
);

/**
 * Restricts what files under `files` may import from `src/`: `banned` rooms not at all,
 * `typesOnly` rooms by `import type` alone. `*` bans every room but the file's own.
 */
function layer(files, why, banned, typesOnly = []) {
  const room = files.split('/')[1];
  const rooms = ['api', 'store', 'worker', 'blobs', 'webhooks', 'contract', 'client', 'cli', 'extract', 'domain', 'server', 'config', 'metrics'];
  const names = (list) => (list.includes('*') ? rooms.filter((r) => r !== room && !typesOnly.includes(r)) : list);
  // Rooms are folders of src/, except config.ts and server.ts at its root, and the SDK, the
  // workspace package `@tablemill/client`.
  const group = (r) => (r === 'config' || r === 'server' ? ['../', '../../', '../../../'].map((up) => `${up}${r}.js`) : r === 'client' ? ['@tablemill/client', '@tablemill/client/*'] : [`**/${r}/**`]);
  const patterns = names(banned).map((r) => ({ group: group(r), message: `${why} (${room} must not import ${r})` }));
  const typePatterns = typesOnly.map((r) => ({ group: group(r), allowTypeImports: true, message: `${why} (${room} imports only the types of ${r})` }));
  return [{ files: [files], rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...patterns, ...typePatterns] }] } }];
}
