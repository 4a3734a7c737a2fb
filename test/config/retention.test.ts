import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('TABLEMILL_RETENTION_DAYS', () => {
  it('is off by default and takes a whole number of days', () => {
    expect(loadConfig({}).retentionDays).toBeNull();
    expect(loadConfig({ TABLEMILL_RETENTION_DAYS: '30' }).retentionDays).toBe(30);
  });
  it('refuses zero and non-numbers', () => {
    expect(() => loadConfig({ TABLEMILL_RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ TABLEMILL_RETENTION_DAYS: '7d' })).toThrow(/TABLEMILL_RETENTION_DAYS/);
  });
});
