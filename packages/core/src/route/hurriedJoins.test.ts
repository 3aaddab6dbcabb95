/**
 * Past the call's wall-clock cap (clock.ts `SafetyCap.hurry`) the connector rings are not built
 * for a join: offsetting a large field for them cost more than all its cheap joins together (the
 * 1,000 ha scale field: about 1.5 s of CPU after the cap had fired). Rings built before the cap
 * are still used.
 */
import { describe, expect, it } from 'vitest';
import { Region } from '../geometry/region.js';
import { buildConnectorRings } from '../turns/connectorRings.js';
import type { LoopPath } from '../turns/connectorRings.js';
import { tryTraversal } from './connectTracks.js';
import type { RouteContext } from './connectTracks.js';
import { CUT_SEARCHES } from './connectContext.js';

const field = [
  [
    { x: 0, y: 0 },
    { x: 200, y: 0 },
    { x: 200, y: 100 },
    { x: 0, y: 100 },
  ],
];

/** A context whose rings are built on first use, counting the builds; `hurried` says whether the cap has passed. */
function context(hurried: boolean, rings: { built?: LoopPath[]; builds: number }, cut: string[]): RouteContext {
  return {
    region: new Region(field),
    loops: () => (rings.built ??= (rings.builds++, buildConnectorRings(field, 6.9, 6.9))),
    loopsBuilt: () => rings.built !== undefined,
    maxRingReachMeters: 20,
    turnOptions: { turnRadiusMeters: 6 },
    widthMeters: 6,
    warnings: [],
    hurry: (what) => {
      if (hurried && !cut.includes(what)) cut.push(what);
      return hurried;
    },
  };
}

// from near the east edge heading east to near the west edge heading west: along the ring round the field
const from = { x: 185, y: 50, headingRadians: 0 },
  to = { x: 15, y: 50, headingRadians: Math.PI };

describe('joins past the wall-clock cap', () => {
  it('builds no connector rings for a traversal once the cap has passed, and says so', () => {
    const rings = { builds: 0 },
      cut: string[] = [];
    expect(tryTraversal(from, to, context(true, rings, cut))).toBeUndefined();
    expect(rings.builds).toBe(0);
    expect(cut).toEqual([CUT_SEARCHES]);
  });

  it('still traverses rings built before the cap passed', () => {
    const rings = { builds: 0 },
      cut: string[] = [];
    const before = tryTraversal(from, to, context(false, rings, cut));
    expect(before?.kind).toBe('headlandTraversal');
    const after = tryTraversal(from, to, context(true, rings, cut));
    expect(after?.kind).toBe('headlandTraversal');
    expect(Array.from(after!.xy)).toEqual(Array.from(before!.xy));
    expect(rings.builds).toBe(1);
  });
});
