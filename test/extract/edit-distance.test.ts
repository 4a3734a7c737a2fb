import { expect, it } from 'vitest';
import { editDistance } from '../../src/extract/edit-distance.js';

it('counts the insertions, deletions and substitutions between two strings', () => {
  expect(editDistance('', '')).toBe(0);
  expect(editDistance('sdn', 'sdn')).toBe(0);
  expect(editDistance('son', 'sdn')).toBe(1);
  expect(editDistance('enierprise', 'enterprise')).toBe(1);
  expect(editDistance('kitten', 'sitting')).toBe(3);
  expect(editDistance('', 'abc')).toBe(3);
  expect(editDistance('abc', '')).toBe(3);
});
