import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { judge, retryDelay } from '../../src/webhooks/dispatcher.js';
import { maskSecret, newWebhookSecret, secretKey } from '../../src/webhooks/signing.js';

describe('retry schedule', () => {
  const schedule = loadConfig({}).webhooks.retryScheduleMs;

  it('defaults to 5s, 5m, 30m, 2h, 5h, 10h, 10h (about a day) and is overridable', () => {
    expect(schedule).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(schedule.reduce((a, b) => a + b) / 3600e3).toBeCloseTo(27.6, 1);
    expect(loadConfig({ TABLEMILL_WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' }).webhooks.retryScheduleMs).toEqual([1000, 1000, 1000]);
  });

  it('jitters each delay within ±10 % and stops when the schedule is spent', () => {
    expect(retryDelay(schedule, 1, () => 0)).toBe(4500);
    expect(retryDelay(schedule, 1, () => 1)).toBe(5500);
    expect(retryDelay(schedule, 7, () => 0.5)).toBe(36e6);
    expect(retryDelay(schedule, 8)).toBeNull();
  });

  it('judges outcomes: 2xx delivered, 410 disables, others retry until the last attempt', () => {
    expect(judge({ status: 204, error: null }, 1, schedule, 0)).toMatchObject({ status: 'delivered', retry_at: null, disable: false });
    expect(judge({ status: 410, error: null }, 1, schedule, 0)).toMatchObject({ status: 'failed', retry_at: null, disable: true });
    const r = judge({ status: 500, error: null }, 1, schedule, 1000);
    expect(r.status).toBe('failed');
    expect(r.retry_at!).toBeGreaterThanOrEqual(1000 + 4500);
    expect(judge({ status: null, error: 'ECONNREFUSED' }, 8, schedule, 0)).toMatchObject({ status: 'failed', error: 'ECONNREFUSED', retry_at: null });
    expect(judge({ status: 301, error: null }, 1, schedule, 0).error).toBe('receiver answered 301');
  });
});

describe('secrets', () => {
  it('are whsec_ + base64 of 32 random bytes, masked on read', () => {
    const a = newWebhookSecret();
    expect(a).not.toBe(newWebhookSecret());
    expect(secretKey(a)!.length).toBe(32);
    expect(maskSecret(a)).toBe(`whsec_…${a.slice(-4)}`);
    expect(secretKey('whsec_' + Buffer.alloc(23).toString('base64'))).toBeNull();
    expect(secretKey('whsec_not*base64')).toBeNull();
    expect(secretKey('sk_' + Buffer.alloc(32).toString('base64'))).toBeNull();
  });
});
