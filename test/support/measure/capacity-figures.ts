/**
 * The capacity each operation of the scenario consumes and its minimum, read from the table of docs/capacity.md: the
 * bench judges against the minimum, the capacity test asserts the exact figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './util';

/** The rows of the table (after its header), by operation: RCU, WCU, their minima and how those are made up. */
export function capacityFigures() {
  const rows = readFileSync(join(projectRoot, 'docs', 'capacity.md'), 'utf8')
    .split('\n')
    .filter((line) => /^\|\s*[^\s-]/.test(line))
    .slice(1);
  return new Map(
    rows.map((line) => {
      const [operation, rcu, wcu, minRcu, minWcu, why] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return [operation, { rcu: Number(rcu), wcu: Number(wcu), min_rcu: Number(minRcu), min_wcu: Number(minWcu), why }];
    }),
  );
}
