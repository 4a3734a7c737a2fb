/**
 * Hooks for some routes only. A scope hook (`addHook`) runs on every request of every route under
 * it, even when it returns at once; one added from `onRoute` runs only on the routes it serves.
 */
import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preHandler' | 'preSerialization' | 'onSend';

/** Appends `hook` to the route's own `name` hooks (after the scope's). */
export function addRouteHook(route: RouteOptions, name: HookName, hook: (...args: any[]) => unknown): void {
  const own = route[name] as unknown;
  route[name] = (own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook]) as never;
}
