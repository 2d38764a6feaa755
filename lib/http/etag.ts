/**
 * ETags are the item's version, which every change bumps (membership moves
 * included). If-Match is passed to the domain as the version to require in
 * the write's own condition, never compared after a read.
 */
export const etagOf = (version: number) => `"${version}"`;

/** The version If-Match asks for; `undefined` when absent or `*`. A tag that is no version of ours can never match. */
export function expectedVersion(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(ifMatch);
  return match ? Number(match[1]) : -1;
}
