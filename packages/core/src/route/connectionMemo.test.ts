import { describe, expect, it } from 'vitest';
import { createConnectionMemo, keepFailure, nearFailure, objectKey, poseKey, remember } from './connectionMemo.js';

describe('connection memo', () => {
  const FULL = 12;
  it('makes a connection once per key and returns the same value after', () => {
    const memo = createConnectionMemo();
    let made = 0;
    const ctx = { warnings: [] as unknown[] };
    const a = remember(memo, ctx, 'k', FULL, () => ({ n: ++made }));
    const b = remember(memo, ctx, 'k', FULL, () => ({ n: ++made }));
    expect(made).toBe(1);
    expect(b).toBe(a);
    expect(remember(undefined, ctx, 'k', FULL, () => ({ n: ++made })).n).toBe(2);
  });

  it('reuses a connection that failed searches only where the budget allows, and charges it', () => {
    const memo = createConnectionMemo();
    let made = 0;
    // Fails two searches and still has some left: the same with any budget above 2.
    const failTwo = (ctx: { searchFailuresLeft?: number }) => () => {
      made++;
      ctx.searchFailuresLeft = (ctx.searchFailuresLeft ?? FULL) - 2;
      return 'x';
    };
    const c1: { warnings: unknown[]; searchFailuresLeft?: number } = { warnings: [] };
    remember(memo, c1, 'k', FULL, failTwo(c1));
    expect(c1.searchFailuresLeft).toBe(FULL - 2);
    const c2: { warnings: unknown[]; searchFailuresLeft?: number } = { warnings: [], searchFailuresLeft: 5 };
    expect(remember(memo, c2, 'k', FULL, failTwo(c2))).toBe('x');
    expect(made).toBe(1);
    expect(c2.searchFailuresLeft).toBe(3);
    // With only 2 left the search would have run out: made again.
    const c3: { warnings: unknown[]; searchFailuresLeft?: number } = { warnings: [], searchFailuresLeft: 2 };
    remember(memo, c3, 'k', FULL, failTwo(c3));
    expect(made).toBe(2);
  });

  it('does not keep a connection that warned or that a deadline cut short', () => {
    const memo = createConnectionMemo();
    let made = 0;
    const ctx: { warnings: unknown[]; aborted?: boolean } = { warnings: [] };
    remember(memo, ctx, 'w', FULL, () => {
      made++;
      ctx.warnings.push('turn-not-fitted');
      return 1;
    });
    remember(memo, ctx, 'w', FULL, () => {
      made++;
      return 1;
    });
    expect(made).toBe(2);
    const cut: { warnings: unknown[]; aborted?: boolean } = { warnings: [] };
    remember(memo, cut, 'a', FULL, () => {
      made++;
      cut.aborted = true;
      return 1;
    });
    remember(memo, { warnings: [] }, 'a', FULL, () => {
      made++;
      return 1;
    });
    expect(made).toBe(4);
  });

  it('keys poses exactly and objects by identity', () => {
    const memo = createConnectionMemo();
    expect(poseKey({ x: 0.1 + 0.2, y: 1, headingRadians: 2 })).not.toBe(poseKey({ x: 0.3, y: 1, headingRadians: 2 }));
    const a = {},
      b = {};
    expect(objectKey(memo, a)).toBe(objectKey(memo, a));
    expect(objectKey(memo, a)).not.toBe(objectKey(memo, b));
  });

  it('keeps a connection that warned where the caller names what its warning says, and warns again on reuse', () => {
    const memo = createConnectionMemo();
    let made = 0;
    const warn = (ctx: { warnings: unknown[] }, what: string) => () => {
      made++;
      ctx.warnings.push({ code: 'turn-not-fitted', message: `nothing fits ${what}` });
      return 'straight';
    };
    const c1 = { warnings: [] as unknown[] };
    remember(memo, c1, 'far a b', FULL, warn(c1, 'to track 7'), '7');
    const c2 = { warnings: [] as unknown[] };
    expect(remember(memo, c2, 'far a b', FULL, warn(c2, 'to track 7'), '7')).toBe('straight');
    expect(made).toBe(1);
    expect(c2.warnings).toEqual(c1.warnings);
    expect(c2.warnings[0]).not.toBe(c1.warnings[0]);
    // Other words (another track's number): made again, with its own warning.
    const c3 = { warnings: [] as unknown[] };
    remember(memo, c3, 'far a b', FULL, warn(c3, 'to track 9'), '9');
    expect(made).toBe(2);
    expect(c3.warnings).toEqual([{ code: 'turn-not-fitted', message: 'nothing fits to track 9' }]);
  });

  it('stands a failed search for one from and to poses within a centimetre, with the same limits only', () => {
    const memo = createConnectionMemo();
    const from = { x: 100.4, y: -20.7, headingRadians: 1.2 },
      to = { x: 160.2, y: 35.5, headingRadians: -2 };
    keepFailure(memo, 'r0 6 0.5', from, to, 1234);
    const moved = (p: typeof from, d: number, dh = 0) => ({
      x: p.x + d,
      y: p.y - d,
      headingRadians: p.headingRadians + dh,
    });
    // a later planning's track end, moved by rounding
    expect(nearFailure(memo, 'r0 6 0.5', moved(from, 1e-4, 1e-6), moved(to, -3e-4))).toBe(1234);
    // a heading a full turn apart is the same heading
    expect(nearFailure(memo, 'r0 6 0.5', moved(from, 0, 2 * Math.PI), to)).toBe(1234);
    // 5 cm or 0.01 rad away, another search
    expect(nearFailure(memo, 'r0 6 0.5', moved(from, 0.05), to)).toBeUndefined();
    expect(nearFailure(memo, 'r0 6 0.5', from, moved(to, 0, 0.01))).toBeUndefined();
    // other limits (radius), another search
    expect(nearFailure(memo, 'r0 7 0.5', from, to)).toBeUndefined();
  });
});
