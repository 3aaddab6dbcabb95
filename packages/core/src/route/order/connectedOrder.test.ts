import { describe, expect, it } from 'vitest';
import { orderInput } from '../../__fixtures__/orderInput.js';
import { orderFieldTracks, type FieldOrderInput, type OrderVisit } from './fieldOrder.js';
import {
  assembleRoute,
  refineOrderOnConnectors,
  transitionClassifier,
  type ConnectorCost,
  type PartSegment,
  type RealCostModel,
  type RouteParts,
} from './connectedOrder.js';

const input = orderInput;

/**
 * A "real" connector model unlike the optimizer's estimate: a turn to the very next line does not
 * fit (a long fishtail, 120 m), two lines over is a plain U (the spacing + 10 m), anything else
 * drives along the headland (distance + 40 m); one pair is defective.
 */
function model(inp: FieldOrderInput, calls: { n: number }, defective?: [number, number]): RealCostModel {
  const t = inp.tracks;
  const xy = (e: number): [number, number] => (e & 1 ? [t[e >> 1].x1, t[e >> 1].y1] : [t[e >> 1].x0, t[e >> 1].y0]);
  return {
    link: (a, b): ConnectorCost => {
      calls.n++;
      const [ax, ay] = xy(a);
      const [bx, by] = xy(b);
      const d = Math.hypot(ax - bx, ay - by);
      const dl = Math.abs(t[a >> 1].line - t[b >> 1].line);
      const defects =
        defective &&
        ((a >> 1 === defective[0] && b >> 1 === defective[1]) || (a >> 1 === defective[1] && b >> 1 === defective[0]))
          ? 1
          : 0;
      if ((a & 1) === (b & 1) && dl === 1) return { cost: 120, defects };
      if ((a & 1) === (b & 1) && dl === 2) return { cost: d + 10, defects };
      return { cost: d + 40, defects };
    },
    head: () => (calls.n++, { cost: 0, defects: 0 }),
    tail: () => (calls.n++, { cost: 0, defects: 0 }),
  };
}

/** Real cost of a route under a model, computed independently of the code under test. */
function realCost(m: RealCostModel, visits: OrderVisit[]): ConnectorCost {
  const entry = (v: OrderVisit): number => 2 * v.trackIndex + (v.forward ? 0 : 1);
  const exit = (v: OrderVisit): number => entry(v) ^ 1;
  const acc = { ...m.head(entry(visits[0])) };
  for (let k = 1; k < visits.length; k++) {
    const c = m.link(exit(visits[k - 1]), entry(visits[k]));
    acc.cost += c.cost;
    acc.defects += c.defects;
  }
  const tail = m.tail(exit(visits[visits.length - 1]));
  return { cost: acc.cost + tail.cost, defects: acc.defects + tail.defects };
}

describe('refineOrderOnConnectors', () => {
  it('is never worse on the real connectors than any alternative, and beats them all when the estimate is off', () => {
    const inp = input(24);
    const ordered = orderFieldTracks(inp);
    expect(ordered.alternatives.length).toBeGreaterThan(2);
    const calls = { n: 0 };
    const m = model(inp, calls);
    const r = refineOrderOnConnectors(inp, ordered, m);
    // connectors shared between routes are built once
    expect(calls.n).toBe(r.connectorsEvaluated);
    const mine = realCost(m, r.visits);
    expect(mine.cost).toBeCloseTo(r.nonWorkingCost, 6);
    expect(new Set(r.visits.map((v) => v.trackIndex)).size).toBe(24);
    const others = ordered.alternatives.map((a) => realCost(m, a.visits).cost);
    for (const c of others) expect(mine.cost).toBeLessThanOrEqual(c + 1e-9);
    // every turn to the next line costs 120 m here: the estimate's favourites pay for that, the refined route does not
    expect(mine.cost).toBeLessThan(Math.min(...others) - 1);
    expect(r.algorithm).toBe('optimized-refined');
    expect(r.rounds).toBeGreaterThan(0);
  });

  it('ranks defects before cost', () => {
    const inp = input(12);
    const ordered = orderFieldTracks(inp);
    const calls = { n: 0 };
    const clean = refineOrderOnConnectors(inp, ordered, model(inp, calls));
    const pair = [clean.visits[3].trackIndex, clean.visits[4].trackIndex] as [number, number];
    const m = model(inp, calls, pair);
    const r = refineOrderOnConnectors(inp, ordered, m);
    expect(r.defects).toBe(0);
    expect(realCost(m, r.visits).defects).toBe(0);
  });

  it("out of time: keeps the optimizer's own order, evaluated in full, and stops", () => {
    const inp = input(30);
    const ordered = orderFieldTracks(inp);
    const r = refineOrderOnConnectors(inp, ordered, model(inp, { n: 0 }), { outOfTime: () => true });
    expect(r.visits).toEqual(ordered.alternatives[0].visits);
    expect(r.evaluated).toHaveLength(1);
    expect(r.rounds).toBe(0);
    expect(r.stoppedBy).toBe('time-limit');
  });

  it('abandons a route once it costs more than the best complete one', () => {
    const inp = input(24);
    const ordered = orderFieldTracks(inp);
    const m = model(inp, { n: 0 });
    const r = refineOrderOnConnectors(inp, ordered, m);
    const partial = r.evaluated.filter((e) => !e.complete);
    expect(partial.length).toBeGreaterThan(0);
    for (const e of partial) expect(e.nonWorkingCost).toBeGreaterThan(r.nonWorkingCost);
  });

  it('a fixed order is returned as it is, without evaluation', () => {
    const inp = input(10, { routeOptions: { algorithm: 'snake' } });
    const ordered = orderFieldTracks(inp);
    const calls = { n: 0 };
    const r = refineOrderOnConnectors(inp, ordered, model(inp, calls));
    expect(r.visits).toEqual(ordered.visits);
    expect(calls.n).toBe(0);
  });

  it('is deterministic without a clock', () => {
    const inp = input(20);
    const a = refineOrderOnConnectors(inp, orderFieldTracks(inp), model(inp, { n: 0 }));
    const b = refineOrderOnConnectors(inp, orderFieldTracks(inp), model(inp, { n: 0 }));
    expect(a.visits).toEqual(b.visits);
  });

  it('classifies transitions by side and line distance', () => {
    const c = transitionClassifier(input(6));
    expect(c(1, 3)).toBe(1); // track 0 end 1 → track 1 end 1: same side, next line
    expect(c(1, 7)).toBe(3);
    expect(c(1, 9)).toBe(4);
    expect(c(1, 2)).toBe(5);
  });
});

describe('refineOrderOnConnectors: each link bounded by what its route may still cost', () => {
  /** The model, honouring the bound as the connect stage does: a link over it comes back `over` at the bound. */
  function bounded(m: RealCostModel, asked: number[], overs: { n: number }): RealCostModel {
    return {
      ...m,
      link: (a, b, abort, maxCost = Infinity) => {
        asked.push(maxCost);
        const c = m.link(a, b, abort);
        if (c.cost > maxCost || (c.defects > 0 && maxCost < Infinity)) {
          overs.n++;
          return { cost: maxCost, defects: c.defects, over: true };
        }
        return c;
      },
    };
  }

  it('keeps the same route as costing every link in full, and abandons the routes a link puts over', () => {
    const inp = input(24);
    const ordered = orderFieldTracks(inp);
    const m = model(inp, { n: 0 });
    const full = refineOrderOnConnectors(inp, ordered, m, { maxRounds: 0 });
    const asked: number[] = [];
    const overs = { n: 0 };
    const r = refineOrderOnConnectors(inp, ordered, bounded(m, asked, overs), { maxRounds: 0 });
    expect(r.visits).toEqual(full.visits);
    expect(r.nonWorkingCost).toBeCloseTo(full.nonWorkingCost, 9);
    // the first route is costed without a bound, later ones with one; some link went over it
    expect(asked[0]).toBe(Infinity);
    expect(asked.some((x) => Number.isFinite(x))).toBe(true);
    expect(overs.n).toBeGreaterThan(0);
    // a route abandoned at a link over its bound is no better than the best (its real cost, from the model)
    for (const a of ordered.alternatives)
      expect(realCost(m, a.visits).cost).toBeGreaterThanOrEqual(r.nonWorkingCost - 1e-9);
  });

  it('with optimizer rounds, is still never worse than any alternative on the real connectors', () => {
    const inp = input(24);
    const ordered = orderFieldTracks(inp);
    const m = model(inp, { n: 0 });
    const r = refineOrderOnConnectors(inp, ordered, bounded(m, [], { n: 0 }));
    const mine = realCost(m, r.visits);
    expect(mine.cost).toBeCloseTo(r.nonWorkingCost, 6);
    for (const a of ordered.alternatives) expect(mine.cost).toBeLessThanOrEqual(realCost(m, a.visits).cost + 1e-9);
    expect(r.rounds).toBeGreaterThan(0);
  });
});

describe('assembleRoute', () => {
  // three straight tracks along y (x = 0, 10, 20; y 0 → 100), driven up, down, up
  const seg = (type: string, xy: number[], trackIndex?: number): PartSegment => ({
    type,
    xy: Float64Array.from(xy),
    ...(trackIndex !== undefined ? { trackIndex } : {}),
  });
  const visits: OrderVisit[] = [
    { trackIndex: 0, forward: true },
    { trackIndex: 1, forward: false },
    { trackIndex: 2, forward: true },
  ];
  // each turn pulls both track ends back by 2 m (as the connect stage does when a turn needs room)
  const links = new Map<string, RouteParts<PartSegment, string>>([
    [
      '1,3',
      {
        segs: [seg('Track', [0, 0, 0, 98], 0), seg('Turn', [0, 98, 5, 104, 10, 98]), seg('Track', [10, 98, 10, 0], 1)],
        warnings: ['w01'],
      },
    ],
    [
      '2,4',
      {
        segs: [
          seg('Track', [10, 100, 10, 2], 1),
          seg('Turn', [10, 2, 15, -4, 20, 2]),
          seg('Track', [20, 2, 20, 100], 2),
        ],
        warnings: [],
      },
    ],
  ]);
  const tail: RouteParts<PartSegment, string> = {
    segs: [
      seg('Track', [20, 0, 20, 100], 2),
      seg('Connector', [20, 100, 30, 100]),
      seg('ExteriorHeadland', [30, 100, 30, 0]),
    ],
    warnings: ['tail'],
  };
  const parts = {
    link: (a: number, b: number) => links.get(`${a},${b}`),
    head: () => undefined,
    tail: (e: number) => (e === 5 ? tail : undefined),
  };

  it('joins each track as trimmed by the turn before and the turn after it, with the connectors in between', () => {
    const r = assembleRoute(visits, parts, () => 100)!;
    expect(r.segs.map((s) => s.type)).toEqual([
      'Track',
      'Turn',
      'Track',
      'Turn',
      'Track',
      'Connector',
      'ExteriorHeadland',
    ]);
    expect(Array.from(r.segs[0].xy)).toEqual([0, 0, 0, 98]);
    // track 1: its start from the first turn (98), its end from the second (2)
    expect(Array.from(r.segs[2].xy)).toEqual([10, 98, 10, 2]);
    expect(Array.from(r.segs[4].xy)).toEqual([20, 2, 20, 100]);
    expect(r.warnings).toEqual(['w01', 'tail']);
  });

  it('gives up (the caller connects in full) when a part is missing or the pieces do not meet', () => {
    expect(
      assembleRoute(
        visits,
        { ...parts, link: (a: number, b: number) => (a === 2 ? undefined : parts.link(a, b)) },
        () => 100,
      ),
    ).toBeUndefined();
    const gap = new Map(links);
    gap.set('2,4', {
      segs: [seg('Track', [10, 100, 10, 2], 1), seg('Turn', [10, 3, 20, 3]), seg('Track', [20, 2, 20, 100], 2)],
      warnings: [],
    });
    expect(
      assembleRoute(visits, { ...parts, link: (a: number, b: number) => gap.get(`${a},${b}`) }, () => 100),
    ).toBeUndefined();
  });
});

describe('refineOrderOnConnectors under a clock', () => {
  /** A clock the model advances: links of `slow` routes cost 100 ms each to build, others 1 ms. */
  function clocked(inp: FieldOrderInput, slowVisits: OrderVisit[], defective: boolean) {
    const clock = { t: 0 };
    const slow = new Set<number>();
    for (let k = 1; k < slowVisits.length; k++) {
      const a = 2 * slowVisits[k - 1].trackIndex + (slowVisits[k - 1].forward ? 1 : 0);
      const b = 2 * slowVisits[k].trackIndex + (slowVisits[k].forward ? 0 : 1);
      slow.add(a * 1000 + b);
    }
    const base = model(inp, { n: 0 });
    const m: RealCostModel = {
      link: (a, b) => {
        const isSlow = slow.has(a * 1000 + b);
        clock.t += isSlow ? 100 : 1;
        const c = base.link(a, b);
        return isSlow && defective ? { cost: c.cost, defects: 1 } : c;
      },
      head: base.head,
      tail: base.tail,
    };
    const options = {
      now: () => clock.t,
      remainingMilliseconds: () => 1000 - clock.t,
      outOfTime: () => clock.t >= 1000,
    };
    return { m, options };
  }

  it(
    'a route that cannot be costed in its share of the time gives way to one costed in full only if that is ' +
      'better than its part costed',
    () => {
      const inp = input(24);
      const ordered = orderFieldTracks(inp);
      const own = ordered.alternatives[0].visits;
      // the optimizer's own links are slow: it gets half the time (500 ms, about 5 links), then the fixed orders are
      // costed
      const fine = clocked(inp, own, false);
      const keep = refineOrderOnConnectors(inp, ordered, fine.m, fine.options);
      expect(keep.evaluated[0].complete).toBe(false);
      expect(keep.evaluated.some((e) => e.complete)).toBe(true);
      // a fixed order costed in full is dearer than the 5 links costed of the optimizer's: the optimizer's is kept, to
      // be connected in full
      expect(keep.visits).toEqual(own);
      expect(Number.isNaN(keep.nonWorkingCost)).toBe(true);
      // the same with the optimizer's links defective: a fixed order costed in full without defects wins
      const bad = clocked(inp, own, true);
      const swap = refineOrderOnConnectors(inp, ordered, bad.m, bad.options);
      expect(swap.visits).not.toEqual(own);
      expect(swap.defects).toBe(0);
      expect(Number.isFinite(swap.nonWorkingCost)).toBe(true);
    },
  );
  /** Link k of `visits`, as the end it leaves and the end it enters (key a * 1000 + b). */
  const linkKey = (visits: OrderVisit[], k: number): number =>
    (2 * visits[k - 1].trackIndex + (visits[k - 1].forward ? 1 : 0)) * 1000 +
    2 * visits[k].trackIndex +
    (visits[k].forward ? 0 : 1);

  it(
    'a connector still searching at the deadline gives up there: the limit holds, and the connector cut short is ' +
      'not kept',
    () => {
      const inp = input(24);
      const ordered = orderFieldTracks(inp);
      const own = ordered.alternatives[0].visits;
      const stuck = linkKey(own, 3);
      const clock = { t: 0 };
      const base = model(inp, { n: 0 });
      let stuckCalls = 0;
      const m: RealCostModel = {
        // one link of the optimizer's route takes 5 s to find unfittable (searching 1 ms a step, polling `abort`), the
        // others 1 ms
        link: (a, b, abort) => {
          if (a * 1000 + b !== stuck) {
            clock.t += 1;
            return base.link(a, b);
          }
          stuckCalls++;
          for (let step = 0; step < 5000; step++) {
            clock.t += 1;
            if (abort?.()) return { cost: 1, defects: 1, aborted: true };
          }
          return { cost: 500, defects: 1 };
        },
        head: base.head,
        tail: base.tail,
      };
      const r = refineOrderOnConnectors(inp, ordered, m, {
        now: () => clock.t,
        remainingMilliseconds: () => 1000 - clock.t,
        outOfTime: () => clock.t >= 1000,
      });
      // the optimizer's route had half the time (500 ms): the stuck link gave up then, and the fixed orders were costed
      // after it
      expect(clock.t).toBeLessThanOrEqual(1000);
      expect(r.evaluated[0].complete).toBe(false);
      expect(r.evaluated.slice(1).some((e) => e.complete)).toBe(true);
      // cut short, its cost (a defect) was not counted
      expect(stuckCalls).toBeGreaterThan(0);
      expect(r.evaluated[0].defects).toBe(0);
    },
  );

  it('out of time before any route is costed in full: the route with the fewest defects found so far is kept', () => {
    const inp = input(24);
    const ordered = orderFieldTracks(inp);
    const own = ordered.alternatives[0].visits;
    const bad = linkKey(own, 1);
    const clock = { t: 0 };
    const base = model(inp, { n: 0 });
    // every link takes 100 ms: no route of 23 links is costed in full in 1 s; the optimizer's first link is unfittable
    const m: RealCostModel = {
      link: (a, b) => {
        clock.t += 100;
        const c = base.link(a, b);
        return a * 1000 + b === bad ? { cost: c.cost, defects: 1 } : c;
      },
      head: base.head,
      tail: base.tail,
    };
    const r = refineOrderOnConnectors(inp, ordered, m, {
      now: () => clock.t,
      remainingMilliseconds: () => 1000 - clock.t,
      outOfTime: () => clock.t >= 1000,
    });
    expect(r.evaluated.every((e) => !e.complete)).toBe(true);
    expect(r.evaluated[0].defects).toBe(1);
    expect(r.stoppedBy).toBe('time-limit');
    // a fixed order with no defect found is kept over the optimizer's (to be connected in full by the caller)
    expect(r.visits).not.toEqual(own);
    const kept = ordered.alternatives.find((a) => a.algorithm === r.algorithm);
    expect(kept?.visits).toEqual(r.visits);
    expect(r.evaluated.find((e) => e.algorithm === r.algorithm)?.defects).toBe(0);
    expect(Number.isNaN(r.nonWorkingCost)).toBe(true);
    // the same without the defect: the optimizer's own order is kept
    const m2: RealCostModel = { ...m, link: (a, b) => ((clock.t += 100), base.link(a, b)) };
    clock.t = 0;
    const r2 = refineOrderOnConnectors(inp, ordered, m2, {
      now: () => clock.t,
      remainingMilliseconds: () => 1000 - clock.t,
      outOfTime: () => clock.t >= 1000,
    });
    expect(r2.visits).toEqual(own);
  });
  it('a route costed in full with defects gives way to one the clock cut short with fewer defects found', () => {
    const inp = input(24);
    const ordered = orderFieldTracks(inp);
    const own = ordered.alternatives[0].visits;
    const ownLinks = new Set(own.slice(1).map((_, k) => linkKey(own, k + 1)));
    const bad = linkKey(own, 1);
    const clock = { t: 0 };
    const base = model(inp, { n: 0 });
    // the optimizer's own links are quick to build (one of them unfittable), every other link takes 100 ms
    const m: RealCostModel = {
      link: (a, b) => {
        const k = a * 1000 + b;
        clock.t += ownLinks.has(k) ? 1 : 100;
        const c = base.link(a, b);
        return k === bad ? { cost: c.cost, defects: 1 } : c;
      },
      head: base.head,
      tail: base.tail,
    };
    const r = refineOrderOnConnectors(inp, ordered, m, {
      now: () => clock.t,
      remainingMilliseconds: () => 1000 - clock.t,
      outOfTime: () => clock.t >= 1000,
    });
    expect(r.evaluated[0].complete).toBe(true);
    expect(r.evaluated[0].defects).toBe(1);
    expect(r.visits).not.toEqual(own);
    expect(realCost(base, r.visits).defects).toBe(0);
    expect(r.evaluated.some((e) => !e.complete && e.defects === 0)).toBe(true);
  });
  it("the optimizer's route cut short before its tail was costed gives way to a route costed in full", () => {
    const inp = input(24);
    const ordered = orderFieldTracks(inp);
    const own = ordered.alternatives[0].visits;
    const last = own[own.length - 1];
    const ownExit = 2 * last.trackIndex + (last.forward ? 1 : 0);
    const clock = { t: 0 };
    const base = model(inp, { n: 0 });
    // the tail after the optimizer's last track (all headland passes, say) takes 5 s to build; everything else 1 ms
    const m: RealCostModel = {
      link: (a, b) => ((clock.t += 1), base.link(a, b)),
      head: base.head,
      tail: (e, abort) => {
        if (e !== ownExit) return base.tail(e);
        for (let step = 0; step < 5000; step++) {
          clock.t += 1;
          if (abort?.()) return { cost: 0, defects: 0, aborted: true };
        }
        return { cost: 0, defects: 0 };
      },
    };
    const r = refineOrderOnConnectors(inp, ordered, m, {
      now: () => clock.t,
      remainingMilliseconds: () => 1000 - clock.t,
      outOfTime: () => clock.t >= 1000,
    });
    expect(clock.t).toBeLessThanOrEqual(1000);
    expect(r.evaluated[0].complete).toBe(false);
    // nothing of the optimizer's route was costed: a route costed in full is kept
    expect(Number.isFinite(r.nonWorkingCost)).toBe(true);
    expect(r.visits[r.visits.length - 1]).not.toEqual(last);
  });
});
