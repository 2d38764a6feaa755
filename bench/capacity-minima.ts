/**
 * The capacity each operation of the scenario consumes and its minimum, read from the table of docs/capacity.md
 * (written once, with how each minimum is made up): the bench judges against the minimum, the capacity test asserts the
 * exact figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CapacityFigures {
  rcu: number;
  wcu: number;
  min_rcu: number;
  min_wcu: number;
  why: string;
}

export const CAPACITY_DOC = join(import.meta.dirname, '..', 'docs', 'capacity.md');

/** The rows of the table, by operation. */
export function capacityFigures(): Map<string, CapacityFigures> {
  const rows = readFileSync(CAPACITY_DOC, 'utf8')
    .split('\n')
    .filter((line) => /^\|\s*[^\s-]/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .slice(1);
  return new Map(
    rows.map(([operation, rcu, wcu, minRcu, minWcu, why]) => [
      operation,
      { rcu: Number(rcu), wcu: Number(wcu), min_rcu: Number(minRcu), min_wcu: Number(minWcu), why },
    ]),
  );
}
