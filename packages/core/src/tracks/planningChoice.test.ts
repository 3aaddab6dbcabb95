/**
 * The choices between plannings (cells with headings of their own or not, strip passes or not)
 * read each planning's route first: a planning's coverage is measured, and its plan made, only
 * where a choice or the caller reads it.
 */
import { describe, expect, it } from 'vitest';
import { lazyPlanning, planCellHeadingsOrNot } from './cellHeadingChoice.js';
import type { Planning, PlanWithOptimizer } from './cellHeadingChoice.js';
import { planWithStripFallback, stripFaults } from './stripFallback.js';
import type { Track } from './generateTracks.js';
import type { LocalSegment, LocalWarning } from '../turns/path.js';
import type { StripMode } from './planTracks.js';

interface Fake {
  planning: Planning;
  /** Times its coverage was measured and its plan made. */
  measured: number;
  made: number;
}

function fake(
  name: string,
  o: {
    nonWorking: number;
    uncovered: number;
    own?: boolean;
    faulted?: boolean;
    faults?: number;
    faultCode?: string;
    ordering?: number;
  },
): Fake {
  const f: Fake = { measured: 0, made: 0, planning: undefined as unknown as Planning };
  const routeWarnings = Array.from({ length: o.faults ?? 0 }, () => ({ code: o.faultCode ?? 'turn-not-fitted' }));
  f.planning = lazyPlanning(
    {
      ownCellHeadings: o.own ?? false,
      stripsFaulted: o.faulted ?? false,
      nonWorkingDistanceMeters: o.nonWorking,
      routeWarnings,
      ...(o.ordering !== undefined ? { orderingMilliseconds: o.ordering } : {}),
    },
    () => (f.measured++, { uncoveredRatio: o.uncovered }),
    (m) => m.uncoveredRatio,
    (m) => (
      f.made++,
      {
        name,
        metrics: { uncoveredRatio: m.uncoveredRatio, nonWorkingDistanceMeters: o.nonWorking },
        warnings: routeWarnings,
        optimizer: { timeSpentMilliseconds: o.ordering },
      } as unknown as PlanWithOptimizer
    ),
  );
  return f;
}

const nameOf = (p: unknown): string => (p as { name: string }).name;

describe('choosing between plannings on their routes first', () => {
  it('a per-cell planning longer on the route is neither measured nor made, and the plain one is made once', () => {
    const first = fake('cells', { nonWorking: 900, uncovered: 0.01, own: true, ordering: 5 });
    const plain = fake('plain', { nonWorking: 800, uncovered: 0.02, ordering: 7 });
    let violationsAsked = 0;
    const chosen = planCellHeadingsOrNot(
      (cells) => (cells ? first : plain).planning,
      () => violationsAsked++,
      undefined,
    );
    expect(first.measured + first.made + plain.measured + plain.made + violationsAsked).toBe(0);
    expect(nameOf(chosen.plan)).toBe('plain');
    expect(nameOf(chosen.plan)).toBe('plain');
    expect([plain.measured, plain.made, first.measured, first.made]).toEqual([1, 1, 0, 0]);
    // the ordering time reported is that of both plannings
    expect(chosen.plan.optimizer?.timeSpentMilliseconds).toBe(12);
  });

  it('a per-cell planning shorter on the route is kept only if it covers as well: both measured, no plan made', () => {
    const first = fake('cells', { nonWorking: 700, uncovered: 0.05, own: true });
    const plain = fake('plain', { nonWorking: 800, uncovered: 0.01 });
    const chosen = planCellHeadingsOrNot(
      (cells) => (cells ? first : plain).planning,
      () => 0,
      undefined,
    );
    expect([first.measured, plain.measured, first.made, plain.made]).toEqual([1, 1, 0, 0]);
    expect(nameOf(chosen.plan)).toBe('plain');
    expect([first.made, plain.made, plain.measured]).toEqual([0, 1, 1]);
  });

  it('a longer per-cell planning is kept where the one-heading route leaves out more and clearly more unworked', () => {
    // sk-083 at W 3 m, R 12 m: 9 against 23 faults, 2.6 % against 11.6 % unworked
    const first = fake('cells', {
      nonWorking: 33036,
      uncovered: 0.026,
      own: true,
      faults: 9,
      faultCode: 'headland-pass-skipped',
    });
    const plain = fake('plain', {
      nonWorking: 32408,
      uncovered: 0.116,
      faults: 23,
      faultCode: 'headland-pass-skipped',
    });
    expect(
      nameOf(
        planCellHeadingsOrNot(
          (cells) => (cells ? first : plain).planning,
          () => 0,
          undefined,
        ).plan,
      ),
    ).toBe('cells');
    // leaving out more but not clearly more unworked (within 0.1 % of the field): the shorter route stays
    const close = fake('cells', {
      nonWorking: 33036,
      uncovered: 0.1155,
      own: true,
      faults: 9,
      faultCode: 'headland-pass-skipped',
    });
    expect(
      nameOf(
        planCellHeadingsOrNot(
          (cells) => (cells ? close : plain).planning,
          () => 0,
          undefined,
        ).plan,
      ),
    ).toBe('plain');
  });

  it('the strip fallback decides on the routes’ faults without measuring either; a tie measures both', () => {
    const plannings = (withFaults: number, withoutFaults: number): Record<StripMode, Fake> => ({
      all: fake('with strips', { nonWorking: 1, uncovered: 0.02, faulted: true, faults: withFaults }),
      none: fake('without strips', { nonWorking: 1, uncovered: 0.01, faults: withoutFaults }),
      single: fake('single', { nonWorking: 1, uncovered: 0 }),
    });
    const fewer = plannings(2, 1);
    expect(nameOf(planWithStripFallback((s) => fewer[s].planning))).toBe('without strips');
    expect([fewer.all.measured, fewer.all.made, fewer.none.made]).toEqual([0, 0, 1]);
    const tie = plannings(1, 1);
    expect(nameOf(planWithStripFallback((s) => tie[s].planning))).toBe('without strips');
    expect([tie.all.measured, tie.none.measured, tie.all.made, tie.none.made]).toEqual([1, 1, 0, 1]);
  });

  it('the strip fallback keeps the planning the machine can drive: an unfitted join outweighs parts left out', () => {
    const pick = (withCode: string, withFaults: number, withoutCode: string, withoutFaults: number): string =>
      nameOf(
        planWithStripFallback(
          (s) =>
            ({
              // with strips leaves less unworked: it wins every tie
              all: fake('with strips', {
                nonWorking: 1,
                uncovered: 0.01,
                faulted: true,
                faults: withFaults,
                faultCode: withCode,
              }),
              none: fake('without strips', {
                nonWorking: 1,
                uncovered: 0.02,
                faults: withoutFaults,
                faultCode: withoutCode,
              }),
              single: fake('single', { nonWorking: 1, uncovered: 0 }),
            })[s].planning,
        ),
      );
    // one join not fitted against one pass left out (a tie on the count of faults before)
    expect(pick('turn-not-fitted', 1, 'headland-pass-skipped', 1)).toBe('without strips');
    expect(pick('connector-leaves-field', 1, 'track-skipped', 3)).toBe('without strips');
    // both drivable: fewer faults, then less unworked, as before
    expect(pick('headland-pass-skipped', 1, 'track-skipped', 1)).toBe('with strips');
    expect(pick('headland-pass-skipped', 2, 'track-skipped', 1)).toBe('without strips');
    // both with a join not fitted: the count of those first
    expect(pick('turn-not-fitted', 1, 'turn-not-fitted', 2)).toBe('with strips');
  });

  it('a headland pass left out after a strip pass blames the strips, unless the field’s shape leaves it out', () => {
    const track = (line: number, y: number): Track => ({ line, u0: 0, u1: 100, v: y, x0: 0, y0: y, x1: 100, y1: y });
    // two tracks, the second a strip pass (from index 1 on), driven last
    const tracks = [track(0, 0), track(1, 6)];
    const segments: LocalSegment[] = [0, 1].map((trackIndex) => ({
      type: 'Track',
      xy: new Float64Array(0),
      trackIndex,
    }));
    const skipped = (shapeOnly: boolean): LocalWarning[] => [
      {
        code: 'headland-pass-skipped',
        message: 'headland pass 3 left out',
        x: 50,
        y: 40,
        ...(shapeOnly ? { shapeOnly: true as const } : {}),
      },
    ];
    expect(stripFaults(skipped(false), segments, tracks, 1, false)).toBe(true);
    expect(stripFaults(skipped(true), segments, tracks, 1, false)).toBe(false);
    // with one pass the route left out and one the shape does, the strips are still suspect
    expect(stripFaults([...skipped(true), ...skipped(false)], segments, tracks, 1, false)).toBe(true);
    // every track a strip pass: without them the route starts on a headland pass, that one perhaps
    expect(stripFaults(skipped(true), segments, tracks, 0, false)).toBe(true);
    // the last track driven not a strip pass: not theirs either way
    expect(stripFaults(skipped(false), segments.slice().reverse(), tracks, 1, false)).toBe(false);
  });
});
