// htm bound to Preact's h: components are written as tagged templates, with no build step.
import { h } from 'preact';
import { useEffect } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

/** Sets the window's title to `what – Tablemill` while the view shows (tabs and history name the view). */
export function useTitle(what) {
  useEffect(() => {
    document.title = what ? `${what} – Tablemill` : 'Tablemill';
  }, [what]);
}
