/**
 * The choice between a call's variants: one objective (objective.ts), the variants listed as data
 * (planVariants.ts), a variant whose route alone cannot win never measured (choose.ts).
 */
import { describe, expect, it } from 'vitest';
import { objectiveOf, UNWORKED_RETURN_FACTOR, type ObjectiveFacts } from '../objective.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import type { TurnHeadland } from '../tracks/widenHeadland.js';
import { addTimeLimitWarning, safetyCap } from '../clock.js';
import type { PlanWarning } from '../types.js';
import { bestOf, variantReports } from './choose.js';
import { planVariants } from './planVariants.js';
import type { Call, PlannedVariant } from './planVariant.js';
import type { PlanWithOptimizer, RoutedVariant } from './routedVariant.js';
import type { Variant } from './variant.js';

const machine = {
  widthMeters: 3,
  workingSpeedMetersPerSecond: 2.5,
  turningSpeedMetersPerSecond: 1.5,
  transportSpeedMetersPerSecond: 4,
  cuspStopSeconds: 3,
};
const asked: Variant = {
  headlandPasses: 3,
  strips: 'all',
  cellHeadings: true,
  centreLines: false,
  why: 'asked',
  orderingSpentMilliseconds: 0,
};

interface Fake extends RoutedVariant {
  name: string;
  measures: number;
}

/** A routed variant with these facts; counts how often its coverage is measured. */
function fake(
  name: string,
  facts: Partial<ObjectiveFacts> & { uncoveredSquareMeters: number },
  o: { own?: boolean; faulted?: boolean; codes?: string[]; ordering?: number; variant?: Variant } = {},
): Fake {
  const all: ObjectiveFacts = {
    workingMeters: 10_000,
    turningMeters: 1_000,
    transportMeters: 0,
    cusps: 0,
    undrivableJoins: 0,
    offFieldMeters: 0,
    ...facts,
  };
  let measured = false;
  const f: Fake = {
    name,
    measures: 0,
    variant: o.variant ?? asked,
    ownCellHeadings: o.own ?? false,
    stripsFaulted: o.faulted ?? false,
    stripPasses: 0,
    nonWorkingDistanceMeters: all.turningMeters,
    routeWarnings: (o.codes ?? []).map((code) => ({ code, message: code })),
    ...(o.ordering !== undefined ? { orderingMilliseconds: o.ordering } : {}),
    routeSeconds: objectiveOf({ ...all, uncoveredSquareMeters: 0 }, machine).seconds,
    objective: () => {
      f.measures++;
      measured = true;
      return objectiveOf(all, machine);
    },
    measured: () => measured,
    leftOver: () => [],
    strips: () => [],
    plan: () => ({ name }) as unknown as PlanWithOptimizer,
  };
  return f;
}

describe('the objective', () => {
  it('prices unworked ground as the time to work it, times the return factor', () => {
    const o = objectiveOf({ ...zeroFacts(), uncoveredSquareMeters: 750 }, machine);
    expect(o.parts.unworkedSeconds).toBeCloseTo((750 / (3 * 2.5)) * UNWORKED_RETURN_FACTOR, 9);
    expect(o.seconds).toBeCloseTo(o.parts.unworkedSeconds, 9);
  });

  it('counts transport at the transport speed and a cusp as its stop', () => {
    const o = objectiveOf({ ...zeroFacts(), transportMeters: 400, cusps: 2, uncoveredSquareMeters: 0 }, machine);
    expect(o.parts.transportSeconds).toBeCloseTo(100, 9);
    expect(o.parts.cuspSeconds).toBe(6);
  });
});

function zeroFacts(): ObjectiveFacts {
  return {
    workingMeters: 0,
    turningMeters: 0,
    transportMeters: 0,
    cusps: 0,
    uncoveredSquareMeters: 0,
    undrivableJoins: 0,
    offFieldMeters: 0,
  };
}

describe('bestOf', () => {
  it('keeps the planning that leaves far less unworked over a slightly shorter route (sk-083 at W 3 m, R 12 m)', () => {
    // sk-083's two plannings: 2.6 % against 11.6 % of a 23 ha field unworked, 33,036 against 32,408 m non-working
    const area = 230_000;
    const cells = fake('cells', { turningMeters: 33_036, uncoveredSquareMeters: 0.026 * area });
    const plain = fake('plain', { turningMeters: 32_408, uncoveredSquareMeters: 0.116 * area });
    expect(bestOf([cells, plain]).name).toBe('cells');
    // and 0.4 % against 21.6 % (the experiment the old cell-heading rule got wrong)
    const good = fake('good', { turningMeters: 2_000, uncoveredSquareMeters: 0.004 * area });
    const bad = fake('bad', { turningMeters: 1_500, uncoveredSquareMeters: 0.216 * area });
    expect(bestOf([bad, good]).name).toBe('good');
  });

  it('measures no planning whose route alone costs more than the best measured', () => {
    const short = fake('short', { turningMeters: 1_000, uncoveredSquareMeters: 10 });
    const long = fake('long', { turningMeters: 9_000, uncoveredSquareMeters: 0 });
    expect(bestOf([long, short]).name).toBe('short');
    expect([short.measures, long.measures]).toEqual([1, 0]);
    const reports = variantReports([long, short] as PlannedVariant[], short);
    expect(reports.map((r) => r.status)).toEqual(['bound', 'kept']);
    expect(reports[0].objectiveSeconds).toBeGreaterThan(reports[1].objectiveSeconds!);
  });

  it('a join the machine cannot drive weighs more than an hour of work left out, no more', () => {
    // a 300 m pass of 3 m left out against one join nothing fits
    const skips = fake('skips', { uncoveredSquareMeters: 900 }, { codes: ['headland-pass-skipped'] });
    const undrivable = fake('undrivable', { uncoveredSquareMeters: 0, undrivableJoins: 1 });
    expect(bestOf([undrivable, skips]).name).toBe('skips');
    // a third of a hectare left out is worth a manoeuvre by hand
    const skipsMore = fake('skips more', { uncoveredSquareMeters: 3_000 }, { codes: ['headland-pass-skipped'] });
    expect(bestOf([undrivable, skipsMore]).name).toBe('undrivable');
  });

  it('breaks a tie for the planning listed first', () => {
    const a = fake('a', { uncoveredSquareMeters: 5 });
    const b = fake('b', { uncoveredSquareMeters: 5 });
    expect(bestOf([a, b]).name).toBe('a');
    expect(bestOf([b, a]).name).toBe('b');
  });
});

describe('planVariants: the variants as data', () => {
  const call = (over: Partial<Call> = {}): Call =>
    ({ request: {}, settings: { headlandPasses: 3 } as PlanSettings, cap: undefined, ...over }) as Call;
  const need: TurnHeadland = {
    widened: true,
    asked: 3,
    passes: 8,
    depthMeters: 23.1,
    skipLines: 8,
    fewTracks: false,
    roundOnly: false,
    x: 0,
    y: 0,
  };
  /** A stand-in pipeline: `table` gives each variant's planning by `passes/strips/cells`. */
  const pipeline = (table: Record<string, (v: Variant) => PlannedVariant>, seen: string[]) =>
    ((_c: Call, v: Variant) => {
      const key = `${v.headlandPasses}/${v.strips}/${v.cellHeadings ? 'cells' : 'one'}`;
      seen.push(key);
      const make = table[key];
      if (!make) throw new Error(`not listed: ${key}`);
      return make(v);
    }) as never;

  it('widens where the turns need it, halfway where that plan leaves passes out, and keeps the best', () => {
    const seen: string[] = [];
    const chosen = planVariants(
      call(),
      pipeline(
        {
          '3/all/cells': (variant) => ({ variant, replacedBy: need }),
          '8/all/cells': (variant) =>
            fake('8', { uncoveredSquareMeters: 16_000 }, { variant, codes: ['headland-pass-skipped'] }),
          '5/all/cells': (variant) => fake('5', { uncoveredSquareMeters: 5_000 }, { variant }),
        },
        seen,
      ),
    );
    expect(seen).toEqual(['3/all/cells', '8/all/cells', '5/all/cells']);
    expect((chosen.kept as Fake).name).toBe('5');
    expect(variantReports(chosen.tried, chosen.kept).map((r) => `${r.why}:${r.status}`)).toEqual([
      'asked:replaced',
      'turns-need:planned',
      'halfway:kept',
    ]);
  });

  it('plans one heading where cells got their own, and no strips where the route’s faults may be theirs', () => {
    const seen: string[] = [];
    const chosen = planVariants(
      call(),
      pipeline(
        {
          '3/all/cells': (variant) =>
            fake('cells', { uncoveredSquareMeters: 900 }, { variant, own: true, faulted: true, ordering: 4 }),
          '3/all/one': (variant) =>
            fake('one', { uncoveredSquareMeters: 800 }, { variant, faulted: true, ordering: 5 }),
          '3/none/cells': (variant) => fake('none', { uncoveredSquareMeters: 100 }, { variant }),
        },
        seen,
      ),
    );
    expect(seen).toEqual(['3/all/cells', '3/all/one', '3/none/cells']);
    expect((chosen.kept as Fake).name).toBe('none');
    // the one-heading variant gets what its per-cell sibling spent of the ordering time
    expect(chosen.tried[1].variant.orderingSpentMilliseconds).toBe(4);
  });

  it('past the wall-clock cap plans no optional variant and says so', () => {
    let t = 0;
    const cap = safetyCap(() => t, 10);
    const seen: string[] = [];
    const chosen = planVariants(
      call({ cap }),
      pipeline(
        {
          '3/all/cells': (variant) => {
            t = 100;
            return fake('cells', { uncoveredSquareMeters: 900 }, { variant, own: true, faulted: true });
          },
        },
        seen,
      ),
    );
    expect(seen).toEqual(['3/all/cells']);
    expect((chosen.kept as Fake).name).toBe('cells');
    expect(cap.secondSkipped).toBe(true);
    expect(cap.stripsSkipped).toBe(true);
  });

  it('past the cap plans the headland the turns need, not the halfway one, and says so', () => {
    let t = 0;
    const cap = safetyCap(() => t, 10);
    const seen: string[] = [];
    const chosen = planVariants(
      call({ cap }),
      pipeline(
        {
          '3/all/cells': (variant) => ({ variant, replacedBy: need }),
          '8/all/cells': (variant) => {
            t = 100;
            return fake('8', { uncoveredSquareMeters: 16_000 }, { variant, codes: ['headland-pass-skipped'] });
          },
          '5/all/cells': (variant) => fake('5', { uncoveredSquareMeters: 5_000 }, { variant }),
        },
        seen,
      ),
    );
    // the same plannings as in the first test but for the halfway one, which the cap cut
    expect(seen).toEqual(['3/all/cells', '8/all/cells']);
    expect((chosen.kept as Fake).name).toBe('8');
    expect(cap.headlandsSkipped).toBe(true);
    const plan = { warnings: [] as PlanWarning[] };
    addTimeLimitWarning(plan, cap);
    expect(plan.warnings[0].message).toMatch(/not planned again with fewer headland passes/);
  });
});
