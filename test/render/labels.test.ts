import { describe, expect, it } from 'vitest';
import { artifactTypeLabel, plural, productLabel } from '../../src/lib/archive/labels.ts';

describe('labels', () => {
  it('counts with the right plural', () => {
    expect(plural(1, 'turn')).toBe('1 turn');
    expect(plural(0, 'turn')).toBe('0 turns');
    expect(plural(2, 'change')).toBe('2 changes');
    expect(plural(1, 'history step')).toBe('1 history step');
    expect(plural(1234, 'entry', 'entries')).toBe('1,234 entries');
  });

  it('names artifact types and products in words, and keeps unknown ones readable', () => {
    expect(artifactTypeLabel('ARTIFACT_TYPE_IMPLEMENTATION_PLAN')).toBe('Implementation plan');
    expect(artifactTypeLabel('ARTIFACT_TYPE_DESIGN_REVIEW')).toBe('Design review');
    expect(artifactTypeLabel('weird')).toBe('Weird');
    expect(productLabel('antigravity-cli')).toBe('Antigravity CLI');
    expect(productLabel('my-fork')).toBe('my-fork');
  });
});
