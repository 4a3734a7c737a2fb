/** Opaque pagination cursors: base64url JSON, so clients cannot depend on what is inside. */

/** A cursor that did not come from us (or from another list); the API answers 400. */
export class InvalidCursorError extends Error {
  constructor() {
    super('invalid cursor');
    this.name = 'InvalidCursorError';
  }
}

/** Encodes a list position as an opaque cursor. */
export function encodeCursor(kind: string, position: (string | number)[]): string {
  return Buffer.from(JSON.stringify([kind, ...position])).toString('base64url');
}

/** Decodes a cursor of the given kind; throws `InvalidCursorError` on anything else. */
export function decodeCursor(kind: string, cursor: string, shape: ('string' | 'number')[]): (string | number)[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (!Array.isArray(parsed) || parsed.length !== shape.length + 1 || parsed[0] !== kind) throw new InvalidCursorError();
  const rest = parsed.slice(1);
  rest.forEach((v, i) => {
    if (typeof v !== shape[i] || (typeof v === 'number' && !Number.isSafeInteger(v))) throw new InvalidCursorError();
  });
  return rest as (string | number)[];
}
