// A destructive action's button, pressed twice: the first press arms it, the second confirms.
import { useState } from 'preact/hooks';
import { html } from './html.js';

/** A button that asks again before it acts: the first press arms it, the second confirms. */
/** `label` is the button's text; `name` (optional) its accessible name when the text alone is ambiguous. */
export function ConfirmButton({ label, name, confirm, onConfirm, test, disabled }) {
  const [armed, setArmed] = useState(false);
  if (!armed) return html`<button type="button" class="danger" data-test=${test} aria-label=${name} disabled=${disabled} onClick=${() => setArmed(true)}>${label}</button>`;
  return html`<span class="confirm" role="group" aria-label=${name ?? label}>
    <button type="button" class="danger" data-test=${`${test}-confirm`} onClick=${() => (setArmed(false), onConfirm())}>${confirm}</button>
    <button type="button" class="secondary" onClick=${() => setArmed(false)}>Cancel</button>
  </span>`;
}

