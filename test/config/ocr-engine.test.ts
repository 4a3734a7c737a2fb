import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('TABLEMILL_OCR_ENGINE', () => {
  it('defaults to auto and takes every engine by name, from the environment or --ocr-engine', () => {
    expect(loadConfig({}).ocr.engine).toBe('auto');
    for (const e of ['auto', 'fast', 'js', 'native', 'program', 'paddle', 'vote', 'recheck']) expect(loadConfig({ TABLEMILL_OCR_ENGINE: e }).ocr.engine).toBe(e);
    expect(loadConfig({ TABLEMILL_OCR_ENGINE: 'js' }, { 'ocr-engine': 'program' }).ocr.engine).toBe('program');
  });

  it('refuses an unknown engine, naming the setting and the choices', () => {
    expect(() => loadConfig({ TABLEMILL_OCR_ENGINE: 'cuda' })).toThrow(ConfigError);
    expect(() => loadConfig({ TABLEMILL_OCR_ENGINE: 'cuda' })).toThrow(/TABLEMILL_OCR_ENGINE.*auto, fast, js, native, program, paddle, vote, recheck.*"cuda"/);
  });
});
