/**
 * How an ordered list of layout passes runs: each pass in turn, given the page (or document) it
 * works on and the tables so far, returning the tables after it. Each is timed under its name
 * (`../passes.ts`).
 */
import type { Table } from '../types.js';
import { pass } from '../passes.js';

/** One named step of the layout: the tables after it, from what it works on and the tables before it. */
export interface LayoutPass<P> {
  name: string;
  run(on: P, tables: Table[]): Table[];
}

/** The tables after running `passes` in order on `on`, from `tables`. */
export function runPasses<P>(passes: readonly LayoutPass<P>[], on: P, tables: Table[] = []): Table[] {
  for (const p of passes) tables = pass(p.name, () => p.run(on, tables));
  return tables;
}
