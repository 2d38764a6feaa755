/**
 * The planner's cost model: what reading one way of a scope (a set of
 * sources) costs for the scope's share of a page, in items read — the unit
 * the read capacity is paid in, once items are of one size.
 *
 * A source gives its share of what the scope must give (by its expected
 * count), reads that divided by the share of what it reads that its residual
 * filter lets through (`selectivity`), and pays per Query what the read unit
 * that Query starts holds, plus the margin each partition of a merge reads
 * beyond its share. The cheapest way wins; on a tie, the first way offered.
 */
import type { Source } from '../streams';

/**
 * What one Query costs beyond the items it reads, in user items: a Query is
 * paid in whole read units (4 KB, 0.5 RCU eventually consistent), so it pays
 * for up to one unit it does not fill; the model charges a whole one.
 * Measured against DynamoDB Local (ReturnConsumedCapacity of Queries of a
 * department's byName partition with Limit 1…40, users written by the
 * service: 523–614 bytes, 568 on average): 0.5 RCU up to 6 items, 1 RCU from
 * 7, then 0.5 RCU more every 7 items — a unit holds about 7 user items.
 * 8 was set when the planner was written, not from this measurement, and is
 * kept (the planner's choices stay as they were): one item above what was
 * measured, it leans a little towards ways of fewer partitions. Larger user
 * items (more attributes) make a unit hold fewer of them: about 4096 / the
 * item's size.
 */
const QUERY_COST_ITEMS = 8;

/**
 * What each source reads beyond its share of the page, in items: in a merge,
 * its first Query asks for its share plus one to look ahead and rounds up
 * (firstReads in lib/db/query.ts), so about 2 more. Chosen, not measured:
 * a lone source reads no margin at all; changing firstReads' margin is what
 * would change this. Added to QUERY_COST_ITEMS, it makes a fixed
 * 10 items per source: only that sum decides between ways.
 */
const MARGIN_ITEMS_PER_SOURCE = 2;

/**
 * The lowest selectivity a source is priced at: a source whose filter the
 * counters say lets (almost) nothing through costs 100 times its share, not
 * an unbounded amount (an estimate of 0 would divide by zero). Chosen, not
 * measured: the same floor readPage sizes each Query with (lib/lists/streams.ts).
 * Only ways whose selectivities are both below it are affected: they compare
 * by their Queries alone.
 */
const MIN_SELECTIVITY = 0.01;

/** The estimated cost, in items, of reading a way's sources for `scopeNeed` items of the page. */
export function wayCost(sources: Source[], scopeNeed: number): number {
  const expected = sources.reduce((n, s) => n + s.expected, 0) || 1;
  return sources.reduce((total, s) => {
    const share = scopeNeed * (s.expected / expected);
    return total + QUERY_COST_ITEMS + share / Math.max(s.selectivity, MIN_SELECTIVITY) + MARGIN_ITEMS_PER_SOURCE;
  }, 0);
}

/** The cheapest of the ways (each a non-empty set of sources), the first of equals. */
export function cheapestWay(ways: Source[][], scopeNeed: number): Source[] {
  return ways.reduce((best, way) => (wayCost(way, scopeNeed) < wayCost(best, scopeNeed) ? way : best));
}
