import { describe, expect, it } from 'vitest';
import { batchStatus, batchTimestamps, emptyCounts, isAllDone } from '../../src/domain/batch.js';
import { publicStatus } from '../../src/domain/status.js';

const c = (o: Partial<ReturnType<typeof emptyCounts>>) => ({ ...emptyCounts(), ...o });

describe('batch aggregation (API.md §1)', () => {
  it('rule 1: empty or all queued is queued', () => {
    expect(batchStatus(c({}))).toBe('queued');
    expect(batchStatus(c({ queued: 3 }))).toBe('queued');
    expect(isAllDone(c({}))).toBe(false);
  });
  it('rule 2: anything in flight is processing', () => {
    expect(batchStatus(c({ queued: 1, succeeded: 1 }))).toBe('processing');
    expect(batchStatus(c({ processing: 1 }))).toBe('processing');
    expect(batchStatus(c({ queued: 1, canceled: 1 }))).toBe('processing');
  });
  it('rules 3–5 once all done', () => {
    expect(batchStatus(c({ canceled: 2 }))).toBe('canceled');
    expect(batchStatus(c({ canceled: 1, failed: 1 }))).toBe('failed');
    expect(batchStatus(c({ failed: 5, succeeded: 1 }))).toBe('succeeded');
    expect(isAllDone(c({ failed: 1 }))).toBe(true);
  });
  it('completed_at is null until all done', () => {
    expect(batchTimestamps(c({ succeeded: 1, queued: 1 }), 1, 2, 3).completed_at).toBeNull();
    expect(batchTimestamps(c({ succeeded: 2 }), 1, 2, 3)).toEqual({ created_at: 1, started_at: 2, completed_at: 3 });
  });
});

describe('public status mapping', () => {
  it('maps internal states onto the public statuses', () => {
    expect(publicStatus('uploaded', false)).toBe('queued');
    expect(publicStatus('pending', false)).toBe('queued');
    expect(publicStatus('pending', true)).toBe('processing');
    expect(publicStatus('leased', true)).toBe('processing');
    expect(publicStatus('succeeded', true)).toBe('succeeded');
    expect(publicStatus('canceled', false)).toBe('canceled');
  });
});
