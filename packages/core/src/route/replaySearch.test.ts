/**
 * A search replayed from the trace of a failed one (route/connectSearch.ts `replaySearch`): the same answer,
 * and the same counted work, as the search itself with shots at more expansions — where it fails, where a
 * shot the traced search never tried succeeds, and where the caller's deadline (read off the work) stops it.
 */
import { describe, expect, it } from 'vitest';
import { Region } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import type { Pose } from '../turns/types.js';
import { replaySearch, searchConnector } from './connectSearch.js';
import type { SearchLimits, SearchTrace, Shot } from './connectSearch.js';

const R = 6;

/** A 200 m square with a 4 m wide bay into its east side: the goal sits at the bay's end, facing out of it. */
function bayField(): PathsD {
  const p = (x: number, y: number): { x: number; y: number } => ({ x, y });
  return [[p(0, 0), p(200, 0), p(200, 98), p(220, 98), p(220, 102), p(200, 102), p(200, 200), p(0, 200)]];
}

const from: Pose = { x: 10, y: 10, headingRadians: 0 };
const to: Pose = { x: 218, y: 100, headingRadians: Math.PI };

/** A straight line from a pose to the goal, as a shot's points. */
const line = (p: Pose): Float64Array => Float64Array.from([p.x, p.y, to.x, to.y]);

/** A shot that tests its line against the field (counting the work) and fits nowhere. */
const none =
  (region: Region): Shot =>
  (p) => {
    region.containsPolyline(line(p));
    return undefined;
  };

/** The traced failed search (shots every 16 expansions, none of which fits). */
function traced(limits: SearchLimits): SearchTrace {
  let trace: SearchTrace | undefined;
  const region = new Region(bayField());
  expect(searchConnector(from, to, region, none(region), limits, (t) => (trace = t))).toBeUndefined();
  return trace!;
}

/** The work the search, or the replay, counts in a region of its own. */
function run(f: (region: Region) => ArrayLike<number> | undefined): { xy?: number[]; work: number } {
  const region = new Region(bayField());
  const xy = f(region);
  return { ...(xy ? { xy: Array.from(xy) } : {}), work: region.work };
}

describe('replaySearch', () => {
  const limits: SearchLimits = { turnRadiusMeters: R, maxExpansions: 400 };

  it('fails as the thorough search fails, with the same work', () => {
    const trace = traced(limits);
    const thorough = { ...limits, shotEveryExpansions: 1 };
    const searched = run((r) => searchConnector(from, to, r, none(r), thorough));
    const replayed = run((r) => replaySearch(trace, from, to, r, none(r), thorough));
    expect(replayed).toEqual(searched);
    expect(searched.work).toBeGreaterThan(0);
  });

  for (const every of [1, 4])
    it(`finds the path a shot the traced search never tried finds, shots every ${every}, with the same work`, () => {
      const trace = traced(limits);
      // the shot succeeds from one expansion only, one the traced search did not shoot from
      const e = trace.shotWork.findIndex((w, i) => Number.isNaN(w) && i > 100 && (i + 1) % every === 1 % every);
      expect(e).toBeGreaterThan(0);
      const at = (p: Pose): boolean => p.x === trace.x[e] && p.y === trace.y[e] && p.headingRadians === trace.h[e];
      const shot =
        (r: Region): Shot =>
        (p, q) =>
          q === to && at(p) ? line(p) : none(r)(p, q);
      const thorough = { ...limits, shotEveryExpansions: every };
      const searched = run((r) => searchConnector(from, to, r, shot(r), thorough));
      const replayed = run((r) => replaySearch(trace, from, to, r, shot(r), thorough));
      expect(searched.xy).toBeDefined();
      expect(replayed).toEqual(searched);
    });

  it('stops where the deadline stops the search, with the same work', () => {
    const trace = traced(limits);
    const full = run((r) => searchConnector(from, to, r, none(r), { ...limits, shotEveryExpansions: 1 }));
    for (const share of [0.3, 0.7]) {
      const deadline = (r: Region) => () => r.work >= share * full.work;
      const cut = (r: Region): SearchLimits => ({ ...limits, shotEveryExpansions: 1, abort: deadline(r) });
      const searched = run((r) => searchConnector(from, to, r, none(r), cut(r)));
      const replayed = run((r) => replaySearch(trace, from, to, r, none(r), cut(r)));
      expect(searched.work).toBeLessThan(full.work);
      expect(replayed).toEqual(searched);
    }
  });
});
