import { describe, expect, it } from 'vitest';
import { PlanError, FURROW_VERSION } from '@furrow/core';

describe('workspace wiring', () => {
  it('resolves @furrow/core from source', () => {
    const err = new PlanError('invalid-boundary', 'ring 0 is not closed');
    expect(err.code).toBe('invalid-boundary');
    expect(FURROW_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});
