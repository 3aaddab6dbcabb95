/**
 * Fleets of two widths (the wider m times the narrower), the full-rate candidate `pair-route`: the wide machines
 * work groups of m neighbouring tracks of the narrow plan at once (one pass along the group's middle, the whole
 * boom on), the narrow machines the rest of the tracks and every headland pass. Both plannings are of the whole
 * field (so of its headland, where the machines turn), on the narrow plan's lane grid (`tracks.referenceLine`, as
 * traffic/ puts operations on one grid), the wide one with 1/m as many headland passes (the same depth, so its
 * tracks end where the narrow ones do, pushed out to the headland's edge: `extendTracks`); each routes only its
 * own tracks (choice/trackSubset.ts). The wide machines take a band of groups from one side of the field, as many
 * as balance the two classes' estimated times.
 */
import type { LocalFrame } from '../geometry/projection.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { PathPlanRequest, Plan, Position } from '../types.js';
import type { TrackSubset } from '../choice/trackSubset.js';
import type { FleetMachineInput, FleetRequest } from './types.js';
import { machineRequest } from './validateFleet.js';

/** Track centres off the grid (or a track off its line) by more than this are not on one lane grid, m. */
const GRID_TOLERANCE_METERS = 0.05;

/** The narrow plan's tracks on their lane grid: across-track coordinate s = x cos b − y sin b (right of heading). */
export interface LaneLines {
  headingDegrees: number;
  /** s of line 0 (the lowest), m. */
  s0: number;
  widthMeters: number;
  /** Working length on each line, m (index: line number from s0). */
  lengthMeters: number[];
  /** The plan's headland passes' length, m. */
  headlandMeters: number;
  /** Its tracks' length off the grid, m (the narrow machines'). */
  offGridMeters: number;
  /** The plan's exterior headland passes (its kept variant's). */
  headlandPasses: number;
}

/** s of a local point across heading `b` (radians, clockwise from north). */
function acrossOf(b: number, x: number, y: number): number {
  return x * Math.cos(b) - y * Math.sin(b);
}

/** Track length off the lane grid (centre-line and strip passes, bends) the pair route leaves at most: a share. */
const MAX_OFF_GRID_SHARE = 0.2;

/**
 * The lane lines of `plan` (planned for width `w`): its straight tracks along its heading on the grid of pitch `w`
 * through its longest one. Undefined where more than MAX_OFF_GRID_SHARE of its track length is off that grid
 * (curved tracks, cells with headings of their own, centre-line or strip passes); those the narrow planning keeps
 * (or the wide one, in its band, by its own passes).
 */
export function laneLines(plan: Plan, frame: LocalFrame, w: number): LaneLines | undefined {
  const b = (plan.heading.degrees * Math.PI) / 180;
  const straight: { s: number; lengthMeters: number }[] = [];
  let headlandMeters = 0,
    trackMeters = 0;
  for (const seg of plan.route) {
    if (seg.type === 'ExteriorHeadland' || seg.type === 'InteriorHeadland') headlandMeters += seg.lengthMeters ?? 0;
    if (seg.type !== 'Track') continue;
    trackMeters += seg.lengthMeters ?? 0;
    if (seg.activeWidthsMeters) continue;
    let lo = Infinity,
      hi = -Infinity;
    for (const [lon, lat] of seg.coordinates) {
      const [x, y] = frame.toLocal(lon, lat);
      const s = acrossOf(b, x, y);
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
    }
    if (hi - lo <= GRID_TOLERANCE_METERS) straight.push({ s: (lo + hi) / 2, lengthMeters: seg.lengthMeters ?? 0 });
  }
  const passes = plan.choice?.variants.find((v) => v.status === 'kept')?.headlandPasses;
  if (straight.length === 0 || passes === undefined) return undefined;
  const ref = straight.reduce((a, t) => (t.lengthMeters > a.lengthMeters ? t : a)).s;
  const onGrid = straight
    .map((t) => ({ ...t, k: Math.round((t.s - ref) / w) }))
    .filter((t) => Math.abs(t.s - ref - t.k * w) <= GRID_TOLERANCE_METERS);
  const gridMeters = onGrid.reduce((a, t) => a + t.lengthMeters, 0);
  if (gridMeters < (1 - MAX_OFF_GRID_SHARE) * trackMeters) return undefined;
  const kMin = Math.min(...onGrid.map((t) => t.k)),
    kMax = Math.max(...onGrid.map((t) => t.k));
  const lengthMeters = new Array<number>(kMax - kMin + 1).fill(0);
  for (const t of onGrid) lengthMeters[t.k - kMin] += t.lengthMeters;
  return {
    headingDegrees: plan.heading.degrees,
    s0: ref + kMin * w,
    widthMeters: w,
    lengthMeters,
    headlandMeters,
    offGridMeters: trackMeters - gridMeters,
    headlandPasses: passes,
  };
}

/** The wide machines' band: lines `from`..`to` (inclusive) of the narrow grid, groups of m from one side. */
export interface PairBand {
  from: number;
  to: number;
  /** From the low side (line 0) or the high one. */
  low: boolean;
  /** The wide machines work the headland (m narrow passes as one), else the narrow ones. */
  wideHeadland: boolean;
  /** The classes' estimated times (each shared among its machines), s. */
  wideSeconds: number;
  narrowSeconds: number;
}

/** The classes' speeds and counts the band is balanced by. */
export interface PairRates {
  narrow: ResolvedMachine[];
  wide: ResolvedMachine[];
  /** Seconds per track end beyond the work (the narrow plan's turns and connectors, per track), s. */
  turnSecondsPerTrack: number;
}

/**
 * The band of groups of `m` lines, from the low or the high side, and the class that works the headland, that
 * balance the classes' estimated times (the wide machines: the groups' longest lines at their speed plus a turn per
 * group; the narrow ones: the other lines plus a turn per line, and those off the grid; the headland, m narrow
 * passes as one wide one, with either), each class's time shared among its machines. `scale`: factors on the two
 * estimates (what a planning showed of them), and the side and headland to keep.
 */
export function balancedBand(
  lines: LaneLines,
  m: number,
  rates: PairRates,
  scale: { wide: number; narrow: number; keep?: PairBand } = { wide: 1, narrow: 1 },
): PairBand | undefined {
  const len = lines.lengthMeters;
  const n = len.length;
  const speed = (ms: ResolvedMachine[]): number => ms.reduce((s, x) => s + x.workingSpeedMetersPerSecond, 0);
  const vn = speed(rates.narrow),
    vw = speed(rates.wide);
  const turn = rates.turnSecondsPerTrack;
  const lineMeters = len.reduce((a, c) => a + c, 0);
  const allTurns = len.filter((l) => l > 0).length;
  const ways = scale.keep
    ? [scale.keep]
    : [true, false].flatMap((low) => [false, true].map((wideHeadland) => ({ low, wideHeadland })));
  let best: { band: PairBand; seconds: number } | undefined;
  for (const { low, wideHeadland } of ways) {
    let wideMeters = wideHeadland ? lines.headlandMeters / m : 0,
      narrowMeters = lineMeters + lines.offGridMeters + (wideHeadland ? 0 : lines.headlandMeters),
      narrowTurns = allTurns;
    for (let g = 1; g * m <= n; g++) {
      const ks = Array.from({ length: m }, (_, i) => (low ? (g - 1) * m + i : n - g * m + i));
      wideMeters += Math.max(...ks.map((k) => len[k]));
      for (const k of ks) {
        narrowMeters -= len[k];
        if (len[k] > 0) narrowTurns--;
      }
      const wideSeconds = scale.wide * (wideMeters / vw + (turn * g) / rates.wide.length);
      const narrowSeconds = scale.narrow * (narrowMeters / vn + (turn * narrowTurns) / rates.narrow.length);
      const seconds = Math.max(wideSeconds, narrowSeconds);
      const ends = low ? { from: 0, to: g * m - 1 } : { from: n - g * m, to: n - 1 };
      if (!best || seconds < best.seconds)
        best = { band: { ...ends, low, wideHeadland, wideSeconds, narrowSeconds }, seconds };
    }
  }
  return best?.band;
}

/** The two requests of the pair route: the narrow class's (all but the band) and the wide class's (the band). */
export function pairRequests(
  request: FleetRequest,
  lines: LaneLines,
  band: PairBand,
  m: number,
  frame: LocalFrame,
  machines: { narrow: FleetMachineInput; wide: FleetMachineInput },
): { narrow: PlanInput; wide: PlanInput } {
  const b = (lines.headingDegrees * Math.PI) / 180;
  const w = lines.widthMeters;
  const point = frame.toLonLat(lines.s0 * Math.cos(b), -lines.s0 * Math.sin(b));
  const lo = lines.s0 + (band.from - 0.5) * w,
    hi = lines.s0 + (band.to + 0.5) * w;
  const inBand = (p: Position): boolean => {
    const [x, y] = frame.toLocal(p[0], p[1]);
    const s = acrossOf(b, x, y);
    return s > lo && s < hi;
  };
  const on = (machine: FleetMachineInput, offsetMeters: number, passes: number, wide: boolean): PathPlanRequest => {
    const r = machineRequest(request, machine);
    delete r.exteriorHeadlandPasses;
    const options = wide ? [...(r.options ?? '').split(',').filter(Boolean), 'extendTracks'] : undefined;
    return {
      ...r,
      ...(options ? { options: [...new Set(options)].join(',') } : {}),
      headland: { ...r.headland, passes, ...(wide ? { fitTurns: false } : {}) },
      tracks: {
        ...r.tracks,
        trackType: 'straight',
        preferredDirectionDegrees: lines.headingDegrees,
        referenceLine: { point, offsetMeters },
      },
    };
  };
  // The wide lines through the middles of the band's groups of m lines.
  const wideOffset = ((band.from + (m - 1) / 2) * w) % (m * w);
  return {
    narrow: {
      request: on(machines.narrow, 0, lines.headlandPasses, false),
      subset: { keep: (p) => !inBand(p), withoutHeadland: band.wideHeadland },
    },
    wide: {
      request: on(machines.wide, wideOffset, lines.headlandPasses / m, true),
      subset: { keep: inBand, withoutHeadland: !band.wideHeadland },
    },
  };
}

/** A planning of part of the field: the request and the tracks it keeps. */
export interface PlanInput {
  request: PathPlanRequest;
  subset: TrackSubset;
}
