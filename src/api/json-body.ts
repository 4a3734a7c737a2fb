/**
 * JSON request bodies (API.md §5): nesting and width bounded before the body is parsed, and
 * validated as written. Nothing in the API nests deeper than 4 levels (a correction's line item
 * cells); a body of 200,000 nested arrays inside an unknown key answered 500 when the correction
 * was stored (`JSON.stringify` ran out of stack), so the bounds are checked on the text, before
 * anything walks it. Bodies are never coerced (`"labels": "x"` is not a list) and an unknown key is a 400, not
 * dropped; query strings and path parameters keep Fastify's coercion (`?limit=5` is a number).
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { invalidRequest } from '../domain/errors.js';

/** How deep a JSON body may nest (objects and arrays): four times what any route takes. */
export const MAX_JSON_DEPTH = 16;
/**
 * How many keys one object of a JSON body may have, and how many items one array: what the
 * largest of any route takes (a line item's 100 cells, a correction's 10,000 cells). A body of
 * 30,000 keys is refused before it is parsed (~100 ms of the event loop on a loaded machine).
 */
export const MAX_JSON_KEYS = 100;
export const MAX_JSON_ITEMS = 10_000;

/** What the shape of a JSON text breaks first, without parsing it: its depth, an object's keys or an array's items; null if nothing. */
export function jsonShapeError(text: string): { message: string; limit: number } | null {
  // Per open container: whether it is an object, and its members so far (commas + 1).
  const object: boolean[] = [];
  const members: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Past the string: an escaped character is skipped with its backslash.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > MAX_JSON_DEPTH) return { message: `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, limit: MAX_JSON_DEPTH };
      object[depth] = c === 0x7b;
      members[depth] = 1;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
    else if (c === 0x2c /* , */ && depth > 0) {
      const n = ++members[depth]!;
      if (object[depth] && n > MAX_JSON_KEYS) return { message: `an object of the JSON body has more than ${MAX_JSON_KEYS} keys`, limit: MAX_JSON_KEYS };
      if (!object[depth] && n > MAX_JSON_ITEMS) return { message: `an array of the JSON body has more than ${MAX_JSON_ITEMS} items`, limit: MAX_JSON_ITEMS };
    }
  }
  return null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A JSON body's text as received: a route that hands the body to a thread sends this, not the parsed object. */
    jsonText?: string;
  }
}

/** Parses `application/json` bodies with Fastify's own parser (prototype poisoning refused) once their shape is known to be within bounds. */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const shape = jsonShapeError(text);
    if (shape) return done(invalidRequest(shape.message, { in: 'body', limit: shape.limit }), undefined);
    request.jsonText = text;
    parse(request, text, done);
  });
}

/**
 * Fastify's `schemaController`: the default Ajv compiler for query strings, parameters and
 * headers, and one that neither coerces nor removes for bodies.
 */
export function bodyValidation(): NonNullable<FastifyServerOptions['schemaController']> {
  const pool = AjvCompiler();
  return {
    compilersFactory: {
      buildValidator(externalSchemas, options) {
        const opts = options ?? { customOptions: {} };
        const loose = pool(externalSchemas ?? {}, opts as never);
        const strict = pool(externalSchemas ?? {}, { ...opts, customOptions: { ...opts.customOptions, coerceTypes: false, removeAdditional: false, allowUnionTypes: true } } as never);
        return (route) => (route.httpPart === 'body' ? strict : loose)(route);
      },
    },
  };
}
