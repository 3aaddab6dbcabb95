/**
 * The last resort for joins nothing fits (`dropUnjoinable`): a run of short tracks in the tip of a
 * wedge, every other join of which falls in the tip, where a 3 m machine turning at R 12 m cannot
 * turn. Taking one track out (`skipUnjoinable`) joins two tracks 6 m apart in the same tip, which
 * does not fit either; the route once kept straight `unfitted` connectors there (checkPlan failed
 * it). Now the track is driven the other way, or the run at the join is taken out, each track
 * named in a `track-skipped` warning with its place.
 */
import { describe, expect, it } from 'vitest';
import { corpusField } from '../__fixtures__/corpusField.js';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import type { PathPlanRequest } from '../types.js';
import { polygon } from '../__fixtures__/localPolygons.js';
import { dropUnjoinable } from './order/dropUnjoinable.js';
import type { PartSegment, RouteParts } from './order/connectedOrder.js';
import type { OrderVisit } from './order/fieldOrder.js';

describe('dropUnjoinable on made-up parts', () => {
  // Tracks 0..n-1; a link "fits" unless listed as bad. Keys: "a>b>" = from track a driven forward
  // to track b driven forward ("<" = backward).
  type Seg = PartSegment & { connector?: string };
  const part = (unfitted: boolean, warnings = 0): RouteParts<Seg, string> => ({
    segs: [{ type: 'Connector', xy: new Float64Array(0), ...(unfitted ? { connector: 'unfitted' } : {}) }],
    warnings: Array<string>(warnings).fill('w'),
  });
  const key = (a: number, b: number): string => `${a >> 1}${a & 1 ? '>' : '<'}${b >> 1}${b & 1 ? '<' : '>'}`;
  const parts = (bad: (k: string) => boolean, tailWarnings: (track: number) => number = () => 0) => ({
    link: (a: number, b: number) => part(bad(key(a, b))),
    head: () => undefined,
    tail: (e: number) => part(false, tailWarnings(e >> 1)),
  });
  const opts = (meters: number[]) => ({
    fits: (r: RouteParts<Seg, string>): boolean => !r.segs.some((s) => s.connector === 'unfitted'),
    defects: (r: RouteParts<Seg, string>): number => r.warnings.length,
    meters: (i: number): number => meters[i],
  });
  const fwd = (...ts: number[]): OrderVisit[] => ts.map((trackIndex) => ({ trackIndex, forward: true }));

  it('keeps a route whose joins all fit as it is', () => {
    expect(
      dropUnjoinable(
        fwd(0, 1, 2),
        parts(() => false),
        opts([10, 10, 10]),
      ),
    ).toEqual({ visits: fwd(0, 1, 2), skipped: [] });
  });

  it('drives the track after the join the other way where both its joins then fit', () => {
    // 0 → 1 forward fails; 0 → 1 backward and 1 backward → 2 fit.
    const r = dropUnjoinable(
      fwd(0, 1, 2),
      parts((k) => k === '0>1>'),
      opts([10, 10, 10]),
    );
    expect(r.visits).toEqual([
      { trackIndex: 0, forward: true },
      { trackIndex: 1, forward: false },
      { trackIndex: 2, forward: true },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it(
    'takes out the cheapest run next to the join whose neighbours then join: two short tracks, not one ' + 'long one',
    () => {
      // Every join among 1, 2, 3 fails whichever way (the tip); 0 → 4 fits, so does 0 → 3 but then 3 → 4 fails.
      const tip = new Set([1, 2, 3]);
      const bad = (k: string): boolean => {
        const a = Number(k[0]),
          b = Number(k[2]);
        return (
          (tip.has(a) && tip.has(b)) ||
          (a === 0 && (b === 1 || b === 2)) ||
          (a === 3 && b === 4) ||
          (a === 2 && b === 4)
        );
      };
      const r = dropUnjoinable(fwd(0, 1, 2, 3, 4), parts(bad), opts([100, 5, 5, 5, 100]));
      expect(r.visits).toEqual(fwd(0, 4));
      expect(r.skipped.map((s) => s.visit.trackIndex).sort()).toEqual([1, 2, 3]);
      expect(r.skipped.find((s) => s.visit.trackIndex === 1)!.join).toBe('into');
    },
  );

  it('gives the route no end with more defects than its own: the cheaper track that would end it stays', () => {
    // 1 → 2 fails either way; taking out 2 (1 m) would end the route at 1, whose tail leaves a headland pass out.
    const r = dropUnjoinable(
      fwd(0, 1, 2),
      parts(
        (k) => k[0] === '1' && k[2] === '2',
        (track) => (track === 1 ? 1 : 0),
      ),
      opts([10, 10, 1]),
    );
    expect(r.visits).toEqual(fwd(0, 2));
    expect(r.skipped).toEqual([{ visit: { trackIndex: 1, forward: true }, join: 'out of' }]);
  });

  // Joins that fit on their own but together leave nothing of the track between them: each pulled
  // its end of the track back (a short track between two joins that both need room).
  const keyed = (bad: (k: string) => boolean) => {
    const keys = new WeakMap<object, string>();
    const made = (k: string): RouteParts<Seg, string> => {
      const r = part(bad(k));
      keys.set(r, k);
      return r;
    };
    return {
      keys,
      source: {
        link: (a: number, b: number) => made(key(a, b)),
        head: () => undefined,
        tail: (e: number) => made(`tail${e >> 1}`),
      },
    };
  };

  it('takes out a track its two joins leave nothing of, though each join fits on its own', () => {
    const { keys, source } = keyed(() => false);
    // Track 1 after 0 is eaten up by the join into it and its join to 2, whichever way 2 is driven.
    const trackLeft = (
      into: RouteParts<Seg, string> | undefined,
      v: OrderVisit,
      out: RouteParts<Seg, string> | undefined,
    ): boolean => !(v.trackIndex === 1 && keys.get(into!) === '0>1>' && keys.get(out!)?.startsWith('1>2'));
    const r = dropUnjoinable(fwd(0, 1, 2, 3), source, { ...opts([10, 10, 10, 10]), trackLeft });
    expect(r.visits).toEqual(fwd(0, 2, 3));
    expect(r.skipped).toEqual([{ visit: { trackIndex: 1, forward: true }, join: 'out of' }]);
  });

  it('drives the track after such a join the other way where that leaves the track before it something', () => {
    const { keys, source } = keyed(() => false);
    // 1 → 2 forward eats up track 1 (with 0 → 1); 1 → 2 backward does not.
    const trackLeft = (
      into: RouteParts<Seg, string> | undefined,
      v: OrderVisit,
      out: RouteParts<Seg, string> | undefined,
    ): boolean => !(v.trackIndex === 1 && keys.get(into!) === '0>1>' && keys.get(out!) === '1>2>');
    const r = dropUnjoinable(fwd(0, 1, 2), source, { ...opts([10, 10, 10]), trackLeft });
    expect(r.visits).toEqual([
      { trackIndex: 0, forward: true },
      { trackIndex: 1, forward: true },
      { trackIndex: 2, forward: false },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it('leaves a join as it is where nothing fixes it, and never takes out the whole route', () => {
    const stuck = { link: () => part(true), head: () => part(true), tail: () => part(true) };
    expect(dropUnjoinable(fwd(0, 1), stuck, opts([10, 10]))).toEqual({ visits: fwd(0, 1), skipped: [] });
    // No head is driven: the route may start at 1 (0 taken out), but never lose both.
    const r = dropUnjoinable(
      fwd(0, 1),
      parts(() => true),
      opts([10, 10]),
    );
    expect(r.visits.length).toBe(1);
  });
});

describe('dropUnjoinable re-ordering round a join neither fix mends (made-up parts)', () => {
  // A link fits where it joins neighbouring tracks (track numbers one apart: a turn), plus the pairs
  // listed; `pocket`: a track driven that way leaves the machine where nothing but a turn back fits.
  type Seg = PartSegment & { connector?: string };
  const part = (unfitted: boolean): RouteParts<Seg, string> => ({
    segs: [{ type: 'Connector', xy: new Float64Array(0), ...(unfitted ? { connector: 'unfitted' } : {}) }],
    warnings: [],
  });
  const fitsRule =
    (extra: [number, number][] = [], pocket?: OrderVisit) =>
    (a: number, b: number): boolean => {
      const ta = a >> 1,
        tb = b >> 1;
      if (pocket && ta === pocket.trackIndex && (a & 1) === (pocket.forward ? 1 : 0)) return false;
      return Math.abs(ta - tb) === 1 || extra.some(([x, y]) => (x === ta && y === tb) || (x === tb && y === ta));
    };
  // Joins made once each, at most `most` of them: past that, a join not made yet counts as not fitting.
  const source = (rule: (a: number, b: number) => boolean, most = Infinity) => {
    const made = new Map<string, RouteParts<Seg, string>>();
    const make = (key: string, fits: () => boolean): RouteParts<Seg, string> => {
      const have = made.get(key);
      if (have) return have;
      if (made.size >= most) return part(true);
      const r = part(!fits());
      made.set(key, r);
      return r;
    };
    return {
      link: (a: number, b: number) => make(`${a}>${b}`, () => rule(a, b)),
      head: () => undefined,
      tail: (e: number) => make(`t${e}`, () => true),
    };
  };
  const opts = {
    fits: (r: RouteParts<Seg, string>): boolean => !r.segs.some((s) => s.connector === 'unfitted'),
    defects: (r: RouteParts<Seg, string>): number => r.warnings.length,
    meters: (): number => 10,
  };
  // estimated connector cost: how many tracks apart the two ends are
  const estimate = (a: number, b: number): number => Math.abs((a >> 1) - (b >> 1));
  const fwd = (...ts: number[]): OrderVisit[] => ts.map((trackIndex) => ({ trackIndex, forward: true }));
  const range = (a: number, b: number): number[] => Array.from({ length: b - a }, (_, k) => a + k);

  it('drives the track before the join the other way where that mends it', () => {
    // 5 driven forward ends in a pocket: nothing fits from there, and every track taken out joins tracks 2+ apart.
    const rule = fitsRule([], { trackIndex: 5, forward: true });
    const route = fwd(...range(0, 12));
    const without = dropUnjoinable(route, source(rule), opts);
    expect(without.visits).toEqual(route);
    const r = dropUnjoinable(route, source(rule), { ...opts, relink: { parts: source(rule), estimate } });
    expect(r.skipped).toEqual([]);
    expect(r.visits).toEqual(route.map((v) => (v.trackIndex === 5 ? { ...v, forward: false } : v)));
  });

  it(
    'moves a stretch longer than a run it may take out to where both its ends join, and closes the route where it ' +
      'was',
    () => {
      // 2 → 10 fits (a far join that happens to fit); 14 → 3 does not, nor does any run of at most four taken out.
      const rule = fitsRule([[2, 10]]);
      const route = fwd(0, 1, 2, 10, 11, 12, 13, 14, ...range(3, 10), ...range(15, 18));
      const r = dropUnjoinable(route, source(rule), { ...opts, relink: { parts: source(rule), estimate } });
      expect(r.skipped).toEqual([]);
      expect(r.visits).toEqual(fwd(...range(0, 18)));
      const order = r.visits.map((v) => v.trackIndex);
      for (let k = 1; k < order.length; k++) expect(rule(2 * order[k - 1] + 1, 2 * order[k])).toBe(true);
    },
  );

  it(
    "counts only the joins it tries instead: the route's own joins come from `scan`, so a bad join late in a long " +
      'route is still mended',
    () => {
      // 40 tracks, 38 → 39 forward fails, 39 driven backward fits; `parts` may make 8 joins, which the route's own 39
      // would use up.
      const rule = (a: number, b: number): boolean => !(a === 2 * 38 + 1 && b === 2 * 39);
      const route = fwd(...range(0, 40));
      const limited = (): ReturnType<typeof source> => source(rule, 8);
      expect(dropUnjoinable(route, limited(), opts).visits).toEqual(route);
      const r = dropUnjoinable(route, limited(), { ...opts, scan: source(rule) });
      expect(r.visits).toEqual([...route.slice(0, 39), { trackIndex: 39, forward: false }]);
      expect(r.skipped).toEqual([]);
    },
  );

  it('leaves the route as it is where no change fits', () => {
    const rule = fitsRule([], { trackIndex: 5, forward: true });
    const stuck = (a: number, b: number): boolean => rule(a, b) && !(a >> 1 === 5 || b >> 1 === 5);
    const route = fwd(...range(0, 12));
    const r = dropUnjoinable(route, source(stuck), { ...opts, relink: { parts: source(stuck), estimate } });
    expect(r).toEqual({ visits: route, skipped: [] });
  });
});

describe('a wedge at W 3 m, R 12 m, no reversing, the 3 headland passes asked', () => {
  // 40 m wide at its base, 100 m long, a 4 m wide tip: the tracks run along it, shorter and
  // shorter towards the tip.
  const field = polygon([
    [0, 0],
    [40, 0],
    [22, 100],
    [18, 100],
  ]);
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: false },
    headland: { passes: 3, fitTurns: false },
    tracks: { preferredDirectionDegrees: 0 },
  };

  it(
    'keeps no join it cannot fit: each track is driven or named left out with its place, and checkPlan passes',
    { timeout: 120_000 },
    () => {
      const plan = planRoute(request, { now: () => 0 });
      expect(plan.route.filter((s) => s.connectorKind === 'unfitted')).toEqual([]);
      expect(plan.warnings.filter((w) => w.code === 'turn-not-fitted')).toEqual([]);
      expect(checkPlan(request, plan).violations).toEqual([]);
      const driven = new Set(plan.route.filter((s) => s.type === 'Track').map((s) => s.trackIndex));
      const skipped = plan.warnings.filter((w) => w.code === 'track-skipped');
      for (const w of skipped) {
        const i = Number(/^track (\d+) /.exec(w.message)![1]);
        expect(driven.has(i)).toBe(false);
        expect(w.geometry ?? w.feature ?? w.sequence, w.message).toBeDefined();
      }
      expect(driven.size + skipped.length).toBe((plan.tracks as unknown[]).length);
    },
  );
});

describe(
  'in-063 (a copy in test/fields: a stair-stepped strip 33 m wide) at W 3 m, R 12 m, no reversing, ' + '3 passes',
  () => {
    // A 51 m track between two joins that each fit on its own, but pull its start and its end back by
    // 32 m each: the route could not be put together from them and was connected anew, where the
    // second join found no room and was drawn straight (`unfitted`, checkPlan failed the plan).
    const field = corpusField('in-063');
    const request: PathPlanRequest = {
      field,
      machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: false },
      headland: { passes: 3 },
    };

    it('re-plans the join: nothing drawn unfitted, checkPlan passes', { timeout: 300_000 }, () => {
      const plan = planRoute(request, { now: () => 0 });
      expect(plan.route.filter((s) => s.connectorKind === 'unfitted')).toEqual([]);
      expect(plan.warnings.filter((w) => w.code === 'turn-not-fitted')).toEqual([]);
      expect(checkPlan(request, plan).violations).toEqual([]);
    });
  },
);
