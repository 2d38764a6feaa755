/**
 * What keeps the repository easy to read and to change, checked so that it cannot drift back: it stands alone
 * (nothing names an issue number a reader cannot look up, or a file outside the checkout), the README is short
 * enough to read to the end, every link in the docs leads somewhere, the bench stays small and no module of lib/
 * grows long. This file's own patterns are written so that they do not match themselves.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { globSync } from 'glob';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const lineCount = (file: string) => read(file).split('\n').length - (read(file).endsWith('\n') ? 1 : 0);

/** What is written by hand: code, tests, the bench, the console, the scripts, the docs (not what is built or installed). */
const WRITTEN = globSync(['{lib,functions,infra,test,bench,console,tools,.ci,docs}/**/*', '*'], {
  cwd: ROOT,
  nodir: true,
  dot: true,
  ignore: ['**/node_modules/**', 'cdk.out/**', '.local/**', 'coverage/**', 'bench/build/**', 'console/dist/**', '.git/**'],
})
  .filter((file) => !/\.(png|jpe?g|gif|ico|woff2?)$|(^|\/)package-lock\.json$/.test(file))
  .sort();

/** What a reader of the repository cannot follow: an issue's number, or a file that lives elsewhere. */
const OUTSIDE_REFERENCES: [string, RegExp][] = [
  ['an issue number', /\b[Ii]ssues? #?\d+/],
  ['an issue number', /(?:^|[\s([])#\d+\b(?![\w-])/], // not AUDIT#1, `${id}#2`, &#39; or a hex colour such as #1a1a1a
  ['the contract by its file name', /\bAPI\.md\b/],
  ['a folder beside the checkout', /\.\.\/shared\b/],
  ['a task description', /\boriginal[-]description\b/],
  ['an absolute path of some machine', /(?:^|[\s'"`(=:])\/(?:work|home|root|mnt|srv|tmp)\/\w/],
];

describe('the repository stands alone', () => {
  it('finds the files it checks', () => {
    expect(WRITTEN).toEqual(expect.arrayContaining(['README.md', 'lib/routes.ts', 'test/unit/repository-hygiene.test.ts', '.ci/run']));
  });

  it('names no issue number and no file outside the repository, in code, tests, the bench or the docs', () => {
    const found = WRITTEN.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) =>
          OUTSIDE_REFERENCES.filter(([, pattern]) => pattern.test(line))
            .filter(([what]) => !(file.endsWith('.css') && what === 'an issue number' && /#[\da-f]{3,8}\b/i.test(line)))
            .map(([what]) => `${file}:${index + 1}: ${what}: ${line.trim().slice(0, 120)}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it('catches each kind of outside reference (the patterns can fail)', () => {
    const samples = [
      ['see issue', 12].join(' '),
      'fixed in #' + 12,
      ['API', 'md'].join('.'),
      ['..', 'shared', 'x'].join('/'),
      ['original', 'description'].join('-'),
      ` ${['', 'work', 'x'].join('/')}`,
    ];
    expect(samples.map((sample) => OUTSIDE_REFERENCES.some(([, pattern]) => pattern.test(sample)))).toEqual(samples.map(() => true));
    const fine = ["pk: 'AUDIT#1'", '`${entry.id}#2`', "'&#39;'", 'color: #1a1a1a;', '/scim/v2/Users/{id}', '#!/usr/bin/env bash'];
    expect(fine.filter((sample) => OUTSIDE_REFERENCES.some(([, pattern]) => pattern.test(sample)))).toEqual([]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors a markdown file offers: its headings' slugs (a repeated one numbered, as GitHub does). */
const anchorsOf = (file: string) => {
  const seen = new Map<string, number>();
  return new Set(
    outsideCode(read(file))
      .filter((line) => /^#{1,6}\s/.test(line))
      .map((line) => {
        const base = slug(line.replace(/^#+\s*/, '').replace(/`/g, ''));
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        return n === 0 ? base : `${base}-${n}`;
      }),
  );
};

/** A markdown file's lines outside fenced code blocks. */
const outsideCode = (text: string) => {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return !fenced && !/^\s*```/.test(line);
  });
};

const PAGES = ['README.md', 'bench/README.md', ...globSync('docs/**/*.md', { cwd: ROOT }).sort()];

describe('the docs', () => {
  it('keep the README under 200 lines, for a newcomer to read to the end', () => {
    expect(lineCount('README.md')).toBeLessThan(200);
  });

  it('link only to files (and headings) that exist inside the repository', () => {
    const broken = PAGES.flatMap((page) =>
      outsideCode(read(page))
        .flatMap((line) => [...line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]))
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)) // http:, https:, mailto:
        .filter((target) => {
          const [path, anchor] = target.split('#') as [string, string | undefined];
          const file = path === '' ? page : relative(ROOT, resolve(ROOT, dirname(page), decodeURIComponent(path)));
          if (file.startsWith('..') || file.startsWith(sep) || !existsSync(join(ROOT, file))) return true;
          return anchor !== undefined && file.endsWith('.md') && statSync(join(ROOT, file)).isFile() && !anchorsOf(file).has(anchor);
        })
        .map((target) => `${page}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('check links with anchors as GitHub makes them', () => {
    expect(slug('How many changes a second')).toBe('how-many-changes-a-second');
    expect(slug('One template, under CloudFormation’s 500 resources')).toBe('one-template-under-cloudformations-500-resources');
    expect(slug('Idempotency-Key')).toBe('idempotency-key');
  });
});

/**
 * The bench's budget: its sections and what only they use (what npm test measures with too is in
 * test/support/measure/, not counted here). A section that needs more makes room by sharing what another already has.
 */
const BENCH_MAX_LINES = 3_000;

describe('short modules', () => {
  it(`keeps bench/'s code under ${BENCH_MAX_LINES.toLocaleString('en-US')} lines`, () => {
    const files = globSync('bench/**/*.ts', { cwd: ROOT, ignore: ['bench/build/**'] });
    const lines = files.reduce((sum, file) => sum + lineCount(file), 0);
    expect(files.length).toBeGreaterThan(5);
    expect(lines).toBeLessThan(BENCH_MAX_LINES);
  });

  it('keeps every file of lib/ at 450 lines or fewer', () => {
    const long = globSync('lib/**/*', { cwd: ROOT, nodir: true })
      .map((file) => [file, lineCount(file)] as const)
      .filter(([, lines]) => lines > 450);
    expect(long).toEqual([]);
  });
});
