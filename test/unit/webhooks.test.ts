/**
 * The webhook delivery rules that need no database: the retry schedule, the
 * filters, the SSRF guard's ranges (IPv6 and IPv4-written-as-IPv6 included),
 * the signature as a receiver verifies it with `standardwebhooks`, and the
 * secret rotation's 24-hour overlap, on an injected clock.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkedAddress, embeddedIpv4, refusedReason, RefusedAddressError } from '../../lib/webhooks/address-guard';
import { deliveryAddress } from '../../lib/webhooks/endpoint';
import { auditedOperations, checkOperations, matchesFilters } from '../../lib/webhooks/filters';
import { MalformedMessageError, parseMessage } from '../../lib/webhooks/messages';
import { failedTooLong, MAX_ATTEMPTS, nextAttemptAt, queueDelaySeconds, RETRY_DELAYS_MS } from '../../lib/webhooks/schedule';
import { changeEvent, newWebhookSecret, ROTATION_OVERLAP_MS, signDelivery, signingSecrets } from '../../lib/webhooks/signing';
import { leftToReplay } from '../../lib/webhooks/delivery';
import type { AuditEntry } from '../../lib/schemas/responses';

const HOUR = 3600_000;
const change: AuditEntry = {
  id: 'chg1',
  at: '2026-11-28T10:00:00.000Z',
  actor: 'alice',
  operation: 'E2',
  resource_type: 'department',
  resource_id: 'eng',
  changes: { added_user_ids: ['ada'] },
};

describe('the retry schedule', () => {
  it("is Standard Webhooks' schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, more than 24 hours in all", () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    expect(MAX_ATTEMPTS).toBe(8);
    const start = new Date('2026-11-28T00:00:00.000Z');
    let at = start;
    const dues: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAt(attempt, at);
      if (!next) {
        expect(attempt).toBe(8);
        break;
      }
      dues.push(next.toISOString());
      at = next;
    }
    expect(dues[0]).toBe('2026-11-28T00:00:05.000Z');
    expect(at.getTime() - start.getTime()).toBeGreaterThan(24 * HOUR);
  });

  it('delays a queue message at most 15 minutes, never less than nothing', () => {
    const now = new Date('2026-11-28T00:00:00.000Z');
    expect(queueDelaySeconds(new Date(now.getTime() + 5_000), now)).toBe(5);
    expect(queueDelaySeconds(new Date(now.getTime() + 1_500), now)).toBe(2);
    expect(queueDelaySeconds(new Date(now.getTime() + 2 * HOUR), now)).toBe(900);
    expect(queueDelaySeconds(new Date(now.getTime() - 60_000), now)).toBe(0);
  });

  it('disables after 24 hours of failures, not a millisecond before', () => {
    const since = '2026-11-28T00:00:00.000Z';
    expect(failedTooLong(since, new Date(Date.parse(since) + 24 * HOUR - 1))).toBe(false);
    expect(failedTooLong(since, new Date(Date.parse(since) + 24 * HOUR))).toBe(true);
  });
});

describe('filters', () => {
  const none = { resource_types: [], operations: [], exclude_actors: [] };
  it('let everything through when empty', () => {
    expect(matchesFilters(none, change)).toBe(true);
  });
  it('hold a change to each filter that lists anything', () => {
    expect(matchesFilters({ ...none, resource_types: ['department'] }, change)).toBe(true);
    expect(matchesFilters({ ...none, resource_types: ['user', 'group'] }, change)).toBe(false);
    expect(matchesFilters({ ...none, operations: ['E2', 'E4'] }, change)).toBe(true);
    expect(matchesFilters({ ...none, operations: ['addDepartmentUser'] }, change)).toBe(false);
    expect(matchesFilters({ ...none, exclude_actors: ['alice'] }, change)).toBe(false);
    expect(matchesFilters({ ...none, exclude_actors: ['bob'] }, change)).toBe(true);
    expect(matchesFilters({ resource_types: ['department'], operations: ['E2'], exclude_actors: ['alice'] }, change)).toBe(false);
  });
  it('name operations as the audit trail does: a contract label, else the name; reads are refused', () => {
    const operations = auditedOperations();
    expect(operations).toEqual(expect.arrayContaining(['E2', 'G3', 'createUser', 'scimPatchUser', 'createWebhook', 'disableWebhook']));
    expect(operations).not.toContain('addDepartmentUser');
    expect(operations).not.toContain('listUsers');
    expect(() => checkOperations(['E2', 'createWebhook'])).not.toThrow();
    // A rule group's joins and leaves are audited as the service's own operations (lib/groups/rule-follow.ts).
    expect(() => checkOperations(['applyGroupRule', 'followUserChange'])).not.toThrow();
    expect(() => checkOperations(['listUsers'])).toThrow(
      expect.objectContaining({
        slug: 'validation',
        extra: { errors: [{ field: 'operations', message: expect.stringContaining('"listUsers" is not') }] },
      }),
    );
  });
});

describe('the SSRF guard', () => {
  const local = { allowLoopback: false };
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['0:0:0:0:0:ffff:192.168.1.1', 'private'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(refusedReason(address, local), address).toMatch(new RegExp(kind === 'this network' ? 'this network' : kind, 'i'));
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows the public address %s', (address) => {
    expect(refusedReason(address, local)).toBeUndefined();
  });

  it('allows loopback, and only loopback, where the deployment allows local endpoints', () => {
    const allowLocal = { allowLoopback: true };
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(refusedReason(address, allowLocal)).toBeUndefined();
    for (const address of ['10.0.0.1', '169.254.169.254', 'fd00::1', '::ffff:192.168.0.1'])
      expect(refusedReason(address, allowLocal)).toBeDefined();
  });

  it('reads the IPv4 address an IPv6 one embeds', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:192.168.1.1')).toBe('192.168.1.1');
    expect(embeddedIpv4('64:ff9b::a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('::1')).toBeUndefined();
    expect(embeddedIpv4('2001:db8::1')).toBeUndefined();
  });

  it('refuses a host when any address it resolves to is refused, and names it', async () => {
    const resolving =
      (...addresses: string[]) =>
      async () =>
        addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
    const options = (resolver: ReturnType<typeof resolving>) => ({ resolver, allowLoopback: false });
    await expect(checkedAddress('hooks.example.com', options(resolving('93.184.216.34')))).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    for (const address of ['10.0.0.1', '169.254.169.254', '::1']) {
      await expect(checkedAddress('hooks.example.com', options(resolving('93.184.216.34', address)))).rejects.toThrow(address);
    }
    await expect(checkedAddress('hooks.example.com', options(resolving()))).rejects.toBeInstanceOf(RefusedAddressError);
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(checkedAddress('nowhere.example', { resolver: failing, allowLoopback: false })).rejects.toThrow(
      /does not resolve \(ENOTFOUND\)/,
    );
  });

  it('refuses http, and credentials, unless local; an IP literal is checked without a lookup', async () => {
    const resolver = vi.fn(async () => [{ address: '93.184.216.34', family: 4 as const }]);
    await expect(deliveryAddress(new URL('http://hooks.example.com/'), { allowLocal: false, resolver })).rejects.toThrow(/https/);
    await expect(deliveryAddress(new URL('https://u:p@hooks.example.com/'), { allowLocal: false, resolver })).rejects.toThrow(/password/);
    await expect(deliveryAddress(new URL('http://hooks.example.com/'), { allowLocal: true, resolver })).resolves.toMatchObject({
      family: 4,
    });
    await expect(deliveryAddress(new URL('https://[::ffff:169.254.169.254]/'), { allowLocal: true, resolver })).rejects.toThrow(
      /link-local/,
    );
    expect(resolver).toHaveBeenCalledTimes(1);
  });
});

describe('signing', () => {
  afterEach(() => vi.useRealTimers());

  it('is what a receiver verifies with standardwebhooks: the change as data, its id as webhook-id', () => {
    const secret = newWebhookSecret();
    const now = new Date();
    const signed = signDelivery(change.id, changeEvent(change), [secret], now);
    expect(signed.headers['webhook-id']).toBe('chg1');
    expect(signed.headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(signed.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(signed.body, signed.headers)).toEqual({
      type: 'change.recorded',
      timestamp: change.at,
      data: change,
    });
    expect(() => new Webhook(newWebhookSecret()).verify(signed.body, signed.headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(signed.body.replace('eng', 'ops'), signed.headers)).toThrow();
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', () => {
    const rotatedAt = new Date('2026-11-28T10:00:00.000Z');
    const [oldSecret, newSecret] = [newWebhookSecret(), newWebhookSecret()];
    const webhook = {
      secret: newSecret,
      previous_secret: oldSecret,
      previous_secret_expires_at: new Date(rotatedAt.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    };
    const verifiers = (at: Date) => {
      // The receiver's clock is the sender's: standardwebhooks refuses a timestamp 5 minutes off its own.
      vi.useFakeTimers({ toFake: ['Date'], now: at });
      const signed = signDelivery(change.id, changeEvent(change), signingSecrets(webhook, at), at);
      const verifies = (secret: string) => {
        try {
          new Webhook(secret).verify(signed.body, signed.headers);
          return true;
        } catch {
          return false;
        }
      };
      return { old: verifies(oldSecret), new: verifies(newSecret), signatures: signed.headers['webhook-signature'].split(' ').length };
    };
    expect(verifiers(rotatedAt)).toEqual({ old: true, new: true, signatures: 2 });
    expect(verifiers(new Date(rotatedAt.getTime() + 24 * HOUR - 1))).toEqual({ old: true, new: true, signatures: 2 });
    expect(verifiers(new Date(rotatedAt.getTime() + 24 * HOUR))).toEqual({ old: false, new: true, signatures: 1 });
    expect(signingSecrets({ secret: newSecret, previous_secret: null, previous_secret_expires_at: null }, rotatedAt)).toEqual([newSecret]);
  });
});

describe('the queue messages', () => {
  it('read the three kinds, and a raw change-bus event as a change', () => {
    expect(parseMessage(JSON.stringify({ kind: 'change', change }))).toEqual({ kind: 'change', change });
    const attempt = { kind: 'attempt', webhook_id: 'w1', change, attempt: 3, due_at: '2026-11-28T10:05:05.000Z' };
    expect(parseMessage(JSON.stringify(attempt))).toEqual(attempt);
    const replay = { kind: 'replay', webhook_id: 'w1', since: '2026-11-28T09:00:00.000Z', until: '2026-11-28T10:00:00.000Z' };
    expect(parseMessage(JSON.stringify(replay))).toEqual(replay);
    expect(parseMessage(JSON.stringify({ source: 'dept-admin', 'detail-type': 'Change recorded', detail: change }))).toEqual({
      kind: 'change',
      change,
    });
  });

  it('take `changes` as the bus carries it, plain JSON, whatever its keys', () => {
    const named = { ...change, changes: { M: { added_user_ids: ['ada'] } } };
    expect(parseMessage(JSON.stringify({ kind: 'change', change: named }))).toEqual({ kind: 'change', change: named });
  });

  it.each([
    'not json',
    '[]',
    JSON.stringify({ kind: 'launch' }),
    JSON.stringify({ kind: 'change', change: { ...change, resource_type: 'planet' } }),
    JSON.stringify({ kind: 'attempt', webhook_id: 'w1', change, attempt: 0, due_at: change.at }),
    JSON.stringify({ kind: 'replay', webhook_id: 'w1', since: 'yesterday', until: change.at }),
  ])('refuse %s', (body) => {
    expect(() => parseMessage(body)).toThrow(MalformedMessageError);
  });
});

describe('pause and resume', () => {
  const at = (minute: number) => `2026-11-28T10:${String(minute).padStart(2, '0')}:00.000Z`;
  it('leaves to the replay what was made while paused, or in the window a resume replays; nothing else', () => {
    expect(leftToReplay({ status: 'active', paused_at: null, resumed_at: null }, at(5))).toBe(false);
    const paused = { status: 'paused' as const, paused_at: at(10), resumed_at: null };
    expect(leftToReplay(paused, at(9))).toBe(false);
    expect(leftToReplay(paused, at(10))).toBe(true);
    expect(leftToReplay(paused, at(30))).toBe(true);
    const resumed = { status: 'active' as const, paused_at: at(10), resumed_at: at(20) };
    expect([9, 10, 19, 20, 21].map((minute) => leftToReplay(resumed, at(minute)))).toEqual([false, true, true, false, false]);
    // Once the replay of that window has reached the feed's end, the window's late changes are the fan-out's.
    expect(leftToReplay(resumed, at(15), at(20))).toBe(false);
    expect(leftToReplay(resumed, at(15), at(8))).toBe(true);
  });
});
