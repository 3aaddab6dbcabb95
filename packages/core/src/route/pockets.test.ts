/**
 * Joins nothing fits: a track end in a pocket (the tip of a wedge, a neck, a corner)
 * where no forward turn of the machine's radius fits. The chosen route's join is made with the
 * tracks shortened there (`track-shortened`), or by a more thorough search, or the track is
 * driven elsewhere or left out (`track-skipped`); the plan never keeps a straight `unfitted`
 * connector that checkPlan fails.
 * Corpus fields at the kinematics bench's machines (width 6 m, 2 headland passes, σ 0.3 1/m², no
 * reversing) whose routes had such joins, and `skipUnjoinable` on made-up parts. The headland is
 * kept at the 2 passes asked (`fitTurns: false`): widened to what the turns need, these pockets
 * are gone.
 */
import { describe, expect, it } from 'vitest';
import { corpusField } from '../__fixtures__/corpusField.js';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import type { FieldGeometry, PathPlanRequest, Plan } from '../types.js';
import { skipUnjoinable } from './order/connectedOrder.js';
import type { PartSegment, RouteParts } from './order/connectedOrder.js';
import type { OrderVisit } from './order/fieldOrder.js';

function request(field: FieldGeometry, turnRadiusMeters: number): PathPlanRequest {
  return {
    field,
    machine: { widthMeters: 6, turnRadiusMeters, reverseAllowed: false, maxCurvatureRatePerSquareMeter: 0.3 },
    headland: { passes: 2, fitTurns: false },
  };
}

/** The plan's tracks and nodes (extras of `Plan`). */
function tracksOf(plan: Plan): { index: number; lengthMeters: number }[] {
  return plan.tracks as { index: number; lengthMeters: number }[];
}

/** Full (unshortened) length of each track, from the plan's nodes (2i, 2i + 1: the track's two ends as generated). */
function fullTrackMeters(plan: Plan): number[] {
  const nodes = plan.nodes as { position: [number, number] }[];
  const frame = createLocalFrame(nodes.map((n) => n.position));
  const out: number[] = [];
  for (const t of tracksOf(plan)) {
    const a = nodes[2 * t.index].position,
      b = nodes[2 * t.index + 1].position;
    const [ax, ay] = frame.toLocal(a[0], a[1]),
      [bx, by] = frame.toLocal(b[0], b[1]);
    out.push(Math.hypot(bx - ax, by - ay));
  }
  return out;
}

/** What a plan says about its joins: every track driven or named left out, shortenings as driven. */
function expectJoinsAccountedFor(plan: Plan): void {
  expect(plan.warnings.filter((w) => w.code === 'turn-not-fitted')).toEqual([]);
  expect(plan.route.filter((s) => s.connectorKind === 'unfitted')).toEqual([]);
  const driven = new Map<number, number>();
  for (const s of plan.route)
    if (s.type === 'Track' && s.trackIndex !== undefined) driven.set(s.trackIndex, s.lengthMeters);
  const skipped = new Set<number>();
  for (const w of plan.warnings) {
    if (w.code !== 'track-skipped') continue;
    const m = /^track (\d+) /.exec(w.message);
    expect(m, w.message).not.toBeNull();
    skipped.add(Number(m![1]));
  }
  // Each track is in the route or named by a track-skipped warning, not both.
  for (const t of tracksOf(plan)) expect(driven.has(t.index) !== skipped.has(t.index), `track ${t.index}`).toBe(true);
  // A track named shortened is driven at least that much shorter than generated.
  const full = fullTrackMeters(plan);
  for (const w of plan.warnings) {
    if (w.code !== 'track-shortened') continue;
    const named = [...w.message.matchAll(/track (\d+) by (\d+(?:\.\d+)?) m at its (start|end)/g)];
    expect(named.length, w.message).toBeGreaterThan(0);
    for (const [, index, meters] of named) {
      const i = Number(index);
      expect(driven.has(i)).toBe(true);
      expect(driven.get(i)!).toBeLessThanOrEqual(full[i] - Number(meters) + 0.01);
    }
  }
}

describe('joins nothing fits: shortened or left out, never drawn straight', () => {
  it.each([
    ['bg-010', 9],
    ['es-cat-093', 9],
  ])('%s at R %d m: zero checkPlan violations, the track at the pocket shortened and named', (name, R) => {
    const field = corpusField(name);
    const plan = planRoute(request(field, R), { now: () => 0 });
    expect(checkPlan(field, plan).violations).toEqual([]);
    expectJoinsAccountedFor(plan);
    // These two pockets are a few metres deep: shortening fits a turn there, no track is left out.
    expect(plan.warnings.filter((w) => w.code === 'track-shortened').length).toBeGreaterThan(0);
    expect(plan.warnings.filter((w) => w.code === 'track-skipped')).toEqual([]);
  });

  it(
    'sk-043 at R 6 m: the way out of a dead-end arm (round the tip, up a neck) is searched, inside the field, and ' +
      'nothing is left out',
    () => {
      const field = corpusField('sk-043');
      const plan = planRoute(request(field, 6), { now: () => 0 });
      // checkPlan fails any connector outside the boundary (this join was once drawn 35 m outside).
      expect(checkPlan(field, plan).violations).toEqual([]);
      expectJoinsAccountedFor(plan);
      expect(plan.warnings.filter((w) => w.code === 'track-skipped' || w.code === 'track-shortened')).toEqual([]);
      const driven = new Set(plan.route.filter((s) => s.type === 'Track').map((s) => s.trackIndex));
      expect(driven.size).toBe(tracksOf(plan).length);
    },
  );

  it(
    'two strips joined by a neck off their line (a 36 m sprayer, R 12 m): searched through the neck from ends ' +
      'pulled back, never drawn outside',
    () => {
      // Two 30 m wide strips, one strip pass each on their middle line y = 0; the 10 m neck between
      // them runs 2–12 m off that line, so no manoeuvre from the passes' ends gets into it.
      const frame = createLocalFrame([[13, 52]]);
      const ring: [number, number][] = [
        [0, -15],
        [150, -15],
        [150, 2],
        [215, 2],
        [215, -15],
        [365, -15],
        [365, 15],
        [215, 15],
        [215, 12],
        [150, 12],
        [150, 15],
        [0, 15],
      ];
      const ll = ring.map(([x, y]) => frame.toLonLat(x, y));
      const field: FieldGeometry = { type: 'Polygon', coordinates: [[...ll, ll[0]]] };
      const req: PathPlanRequest = {
        field,
        machine: { widthMeters: 36, turnRadiusMeters: 12 },
        headland: { passes: 1 },
      };
      const plan = planRoute(req);
      expect(checkPlan(req, plan).violations).toEqual([]);
      expectJoinsAccountedFor(plan);
      // straight strip passes are joined by one search through the neck; where the centre-line variant
      // wins (issue 38) one pass follows the strips through the neck and needs no search
      const centreLines = plan.choice!.variants.find((v) => v.status === 'kept')!.centreLines;
      expect(plan.route.filter((s) => s.connectorKind === 'search').length).toBe(centreLines ? 0 : 1);
      expect(plan.warnings.filter((w) => w.code === 'track-shortened').length).toBe(centreLines ? 0 : 1);
    },
  );
});

describe('a headland pass after a track that ends in a pocket', () => {
  // A 32 m × 200 m strip at W 3 m, R 12 m with the 3 passes asked: the last track ends 15 m from
  // the boundary in the middle of the strip, where the machine cannot turn onto any pass; all three
  // passes were once left out (69 % of the strip unworked).
  const frame = createLocalFrame([[15, 48]]);
  const ring = (
    [
      [-100, -16],
      [100, -16],
      [100, 16],
      [-100, 16],
      [-100, -16],
    ] as [number, number][]
  ).map(([x, y]) => frame.toLonLat(x, y));
  const strip: FieldGeometry = { type: 'Polygon', coordinates: [ring] };
  const request: PathPlanRequest = {
    field: strip,
    machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: false },
    headland: { passes: 3, fitTurns: false },
  };

  it("is joined with that track's end pulled back (named), not left out", () => {
    const plan = planRoute(request, { now: () => 0 });
    expect(plan.warnings.filter((w) => w.code === 'headland-pass-skipped')).toEqual([]);
    expect(plan.route.filter((s) => s.type === 'ExteriorHeadland')).toHaveLength(3);
    expect(
      plan.warnings.some(
        (w) => w.code === 'track-shortened' && /onto headland pass \d+: track \d+ by \d+ m at its end/.test(w.message),
      ),
    ).toBe(true);
    expect(checkPlan(request, plan).violations).toEqual([]);
    expectJoinsAccountedFor(plan);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.2);
  });
});

describe('skipUnjoinable', () => {
  // Tracks 0..n-1 driven forward; a link "fits" unless listed as bad (from exit end to entry end).
  type Seg = PartSegment & { connector?: string };
  const parts = (bad: Set<string>, badTails = new Set<number>(), badHeads?: Set<number>) => {
    const part = (unfitted: boolean, warnings = 0): RouteParts<Seg, string> => ({
      segs: [{ type: 'Connector', xy: new Float64Array(0), ...(unfitted ? { connector: 'unfitted' } : {}) }],
      warnings: Array(warnings).fill('w'),
    });
    return {
      // a: the exit end of the track before (its odd end when driven forward), b: the entry end of the next.
      link: (a: number, b: number) => part(bad.has(`${a >> 1}${a & 1 ? '>' : '<'}${b >> 1}${b & 1 ? '<' : '>'}`)),
      head: (e: number) => (badHeads ? part(badHeads.has(e >> 1)) : undefined),
      tail: (e: number) => part(badTails.has(e >> 1)),
    };
  };
  const fits = (r: RouteParts<Seg, string>): boolean => !r.segs.some((s) => s.connector === 'unfitted');
  const defects = (r: RouteParts<Seg, string>): number => r.warnings.length;
  const fwd = (...ts: number[]): OrderVisit[] => ts.map((trackIndex) => ({ trackIndex, forward: true }));
  // Keys: "a>b>" = from track a driven forward to track b driven forward ("<" = backward).

  it('keeps a route whose joins all fit as it is', () => {
    expect(skipUnjoinable(fwd(0, 1, 2, 3), parts(new Set()), fits, defects)).toEqual({
      visits: fwd(0, 1, 2, 3),
      skipped: [],
    });
  });

  it('takes out a track nothing reaches and drives it last where it can be joined there', () => {
    // 1 cannot be reached from 0, but 0 → 2 fits and 3 → 1 fits.
    const r = skipUnjoinable(fwd(0, 1, 2, 3), parts(new Set(['0>1>'])), fits, defects);
    expect(r.visits).toEqual(fwd(0, 2, 3, 1));
    expect(r.skipped).toEqual([]);
  });

  it('leaves a track out (named) when it fits nowhere else, and only that one', () => {
    const r = skipUnjoinable(fwd(0, 1, 2, 3), parts(new Set(['0>1>', '3>1>', '3>1<'])), fits, defects);
    expect(r.visits).toEqual(fwd(0, 2, 3));
    expect(r.skipped).toEqual([{ visit: { trackIndex: 1, forward: true }, join: 'into' }]);
  });

  it('takes out the track before when it is the one nothing leaves', () => {
    // Nothing leaves 1 (1 → 2 and 1 → 3 fail), 0 → 2 fits; 1 cannot be driven last either.
    const r = skipUnjoinable(fwd(0, 1, 2, 3), parts(new Set(['1>2>', '1>3>', '3>1>', '3>1<'])), fits, defects);
    expect(r.visits).toEqual(fwd(0, 2, 3));
    expect(r.skipped).toEqual([{ visit: { trackIndex: 1, forward: true }, join: 'out of' }]);
  });

  it('a route with no head may start at the next track: the first track, which nothing leaves, goes', () => {
    // 0 → 1 fails, 0 cannot end the route (its tail does not fit) and 1 cannot be followed by 0.
    const r = skipUnjoinable(fwd(0, 1), parts(new Set(['0>1>', '1>0>', '1>0<']), new Set([0])), fits, defects);
    expect(r.visits).toEqual(fwd(1));
    expect(r.skipped).toEqual([{ visit: { trackIndex: 0, forward: true }, join: 'out of' }]);
  });

  it('leaves a join as it is where taking a track out does not make it fit', () => {
    // 0 → 1 and 0 → 2 fail, and the route's start (a head) cannot reach 1.
    const r = skipUnjoinable(fwd(0, 1, 2), parts(new Set(['0>1>', '0>2>']), new Set(), new Set([1])), fits, defects);
    expect(r).toEqual({ visits: fwd(0, 1, 2), skipped: [] });
  });

  it('takes no track out for joins that were never made (out of budget): the route stays whole', () => {
    // No head is driven and no link was made: every link is "unknown", none known to fail.
    const untried: RouteParts<Seg, string> = {
      segs: [{ type: 'Connector', xy: new Float64Array(0), connector: 'unfitted' }],
      warnings: [],
    };
    const none = { link: () => untried, head: () => undefined, tail: () => untried };
    const r = skipUnjoinable(fwd(0, 1, 2, 3), none, fits, defects, (p) => p === untried);
    expect(r).toEqual({ visits: fwd(0, 1, 2, 3), skipped: [] });
  });

  it("drives a track taken out last only where the route's end is no worse after it", () => {
    // 1 is taken out (0 → 2 fits); 2 → 1 fits either way, but the tail after 1 has more defects.
    const worseTail = {
      ...parts(new Set(['0>1>'])),
      tail: (e: number): RouteParts<Seg, string> => ({ segs: [], warnings: e >> 1 === 1 ? ['w', 'w'] : ['w'] }),
    };
    const r = skipUnjoinable(fwd(0, 1, 2), worseTail, fits, defects);
    expect(r.visits).toEqual(fwd(0, 2));
    expect(r.skipped).toEqual([{ visit: { trackIndex: 1, forward: true }, join: 'into' }]);
  });
});
