/**
 * An independent judge of a fleet's timetable, written apart from core's scheduler (fleet/schedule.ts):
 * it reads only the output — each machine's timed route (lon/lat, start and end seconds) and its listed
 * waits — and replays it. Rules:
 *
 * - `pass-twice`: a working pass (its `passId`, else type and index) in two machines' routes, or twice in one;
 * - `shared-track`: two machines on one track (same `Track` index) during overlapping times;
 * - `unlisted-wait`: a machine standing still (a gap between one segment's end and the next one's start, or a
 *   late start) that no listed wait accounts for, or a listed wait with no such gap (`wait-mismatch`);
 * - `time-order`: a segment ending before it starts, or starting before the previous one ends;
 * - `too-close`: two machines closer than the safety distance at one moment. Each machine moves along its
 *   segments at an even pace between their times and stands at the last point through a wait; it is on the
 *   field from its first segment's start to its last segment's end. Between the merged breakpoints of two
 *   machines both move linearly, so the closest approach on each interval is found exactly (a quadratic), not
 *   sampled. Positions are in meters on a local tangent plane (meridian and prime-vertical radii of WGS84 at the
 *   field's latitude: off by less than a millimetre per 10 m at these distances).
 */
import type { Position } from '@furrow/core';

export interface CheckedSegment {
  sequence: number;
  type: string;
  coordinates: Position[];
  startSeconds: number;
  endSeconds: number;
  trackIndex?: number;
  headlandIndex?: number;
  passId?: string;
}

export interface CheckedWait {
  machineId: string;
  beforeSequence: number;
  startSeconds: number;
  durationSeconds: number;
}

export interface CheckedMachine {
  machineId: string;
  route: CheckedSegment[];
  waits: CheckedWait[];
  /** Coming from its start point until then: not on the field, not standing (the route starts no earlier). */
  approachSeconds?: number;
}

export interface FleetFault {
  rule: 'pass-twice' | 'shared-track' | 'unlisted-wait' | 'wait-mismatch' | 'time-order' | 'too-close';
  message: string;
  machines: string[];
  atSeconds?: number;
  distanceMeters?: number;
}

export interface FleetCheck {
  ok: boolean;
  faults: FleetFault[];
  /** too-close episodes (a stretch of time two machines are closer than the distance counts once). */
  conflicts: number;
}

const WORK = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);
/** Times closer than this are the same moment (the output rounds to 0.01 s). */
const TIME_EPS = 0.011;
/** Distances are judged to this, meters. */
const DISTANCE_EPS = 0.01;

function passKey(s: CheckedSegment): string {
  return s.passId ?? `${s.type}:${s.trackIndex ?? s.headlandIndex ?? s.sequence}`;
}

/** The track a segment works (`base:Track:index`), or undefined. */
function trackKey(s: CheckedSegment): string | undefined {
  if (s.type !== 'Track') return undefined;
  if (s.passId) return s.passId.split(':').slice(0, 3).join(':');
  return `Track:${s.trackIndex ?? s.sequence}`;
}

export function checkFleet(machines: readonly CheckedMachine[], safetyMeters: number): FleetCheck {
  const faults: FleetFault[] = [
    ...passesOnce(machines),
    ...tracksAlone(machines),
    ...machines.flatMap((m) => waitsListed(m)),
  ];
  const paths = toPaths(machines);
  let conflicts = 0;
  for (let a = 0; a < paths.length; a++)
    for (let b = a + 1; b < paths.length; b++)
      for (const c of closeEpisodes(paths[a], paths[b], safetyMeters - DISTANCE_EPS)) {
        conflicts++;
        faults.push({
          rule: 'too-close',
          machines: [machines[a].machineId, machines[b].machineId],
          atSeconds: c.t,
          distanceMeters: c.d,
          message:
            `${machines[a].machineId} and ${machines[b].machineId} are ${c.d.toFixed(2)} m apart ` +
            `at ${c.t.toFixed(1)} s (safety distance ${safetyMeters} m)`,
        });
      }
  return { ok: faults.length === 0, faults, conflicts };
}

function passesOnce(machines: readonly CheckedMachine[]): FleetFault[] {
  const owner = new Map<string, string>();
  const out: FleetFault[] = [];
  for (const m of machines)
    for (const s of m.route) {
      if (!WORK.has(s.type)) continue;
      const k = passKey(s);
      const prev = owner.get(k);
      if (prev !== undefined)
        out.push({
          rule: 'pass-twice',
          machines: [prev, m.machineId],
          message: `pass ${k} is worked by ${prev} and again by ${m.machineId}`,
        });
      else owner.set(k, m.machineId);
    }
  return out;
}

function tracksAlone(machines: readonly CheckedMachine[]): FleetFault[] {
  const on = new Map<string, { id: string; from: number; to: number }[]>();
  for (const m of machines)
    for (const s of m.route) {
      const k = trackKey(s);
      if (k) on.set(k, [...(on.get(k) ?? []), { id: m.machineId, from: s.startSeconds, to: s.endSeconds }]);
    }
  const out: FleetFault[] = [];
  for (const [k, ivs] of on)
    for (let i = 0; i < ivs.length; i++)
      for (let j = i + 1; j < ivs.length; j++) {
        const a = ivs[i],
          b = ivs[j];
        if (a.id !== b.id && a.from < b.to - TIME_EPS && b.from < a.to - TIME_EPS)
          out.push({
            rule: 'shared-track',
            machines: [a.id, b.id],
            atSeconds: Math.max(a.from, b.from),
            message: `${a.id} and ${b.id} are both on track ${k} at ${Math.max(a.from, b.from).toFixed(1)} s`,
          });
      }
  return out;
}

function waitsListed(m: CheckedMachine): FleetFault[] {
  const out: FleetFault[] = [];
  const listed = new Map<number, CheckedWait>();
  for (const w of m.waits) listed.set(w.beforeSequence, w);
  const route = [...m.route].sort((a, b) => a.sequence - b.sequence);
  // A machine coming from its start point is not standing before it arrives.
  let prevEnd = m.approachSeconds ?? 0;
  const used = new Set<number>();
  for (const s of route) {
    if (s.endSeconds < s.startSeconds - TIME_EPS || s.startSeconds < prevEnd - TIME_EPS)
      out.push({
        rule: 'time-order',
        machines: [m.machineId],
        atSeconds: s.startSeconds,
        message: `${m.machineId}: segment ${s.sequence} runs back in time`,
      });
    const gap = s.startSeconds - prevEnd;
    const w = listed.get(s.sequence);
    if (gap > TIME_EPS) {
      const matches =
        w !== undefined &&
        Math.abs(w.startSeconds - prevEnd) <= TIME_EPS &&
        Math.abs(w.durationSeconds - gap) <= 2 * TIME_EPS;
      if (!matches)
        out.push({
          rule: 'unlisted-wait',
          machines: [m.machineId],
          atSeconds: prevEnd,
          message:
            `${m.machineId} stands ${gap.toFixed(2)} s before segment ${s.sequence} ` +
            `(at ${prevEnd.toFixed(1)} s) with no wait listed for it`,
        });
      else used.add(s.sequence);
    }
    prevEnd = s.endSeconds;
  }
  for (const w of m.waits)
    if (!used.has(w.beforeSequence))
      out.push({
        rule: 'wait-mismatch',
        machines: [m.machineId],
        atSeconds: w.startSeconds,
        message: `${m.machineId}: the wait listed before segment ${w.beforeSequence} is not in its times`,
      });
  return out;
}

/** A machine's motion: knots (t, x, y) in increasing t; linear between knots; absent outside [t0, tn]. */
interface Path {
  t: Float64Array;
  x: Float64Array;
  y: Float64Array;
}

function toPaths(machines: readonly CheckedMachine[]): Path[] {
  let lat0 = 0,
    lon0 = 0,
    n = 0;
  for (const m of machines)
    for (const s of m.route)
      if (s.coordinates.length > 0) {
        lon0 += s.coordinates[0][0];
        lat0 += s.coordinates[0][1];
        n++;
      }
  lon0 /= Math.max(1, n);
  lat0 /= Math.max(1, n);
  const a = 6378137,
    e2 = 0.00669437999014;
  const phi = (lat0 * Math.PI) / 180;
  const w = 1 - e2 * Math.sin(phi) ** 2;
  const mPerDegLat = ((a * (1 - e2)) / w ** 1.5) * (Math.PI / 180);
  const mPerDegLon = (a / Math.sqrt(w)) * Math.cos(phi) * (Math.PI / 180);
  return machines.map((m) => {
    const t: number[] = [],
      x: number[] = [],
      y: number[] = [];
    for (const s of [...m.route].sort((p, q) => p.sequence - q.sequence)) {
      const pts = s.coordinates.map((c) => [(c[0] - lon0) * mPerDegLon, (c[1] - lat0) * mPerDegLat]);
      const cum = [0];
      for (let i = 1; i < pts.length; i++)
        cum.push(cum[i - 1] + Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]));
      const total = cum[cum.length - 1];
      pts.forEach((p, i) => {
        const tt = s.startSeconds + (total > 0 ? (cum[i] / total) * (s.endSeconds - s.startSeconds) : 0);
        t.push(Math.max(tt, t.length > 0 ? t[t.length - 1] : -Infinity));
        x.push(p[0]);
        y.push(p[1]);
      });
      if (total === 0 && pts.length > 0) {
        t.push(s.endSeconds);
        x.push(pts[0][0]);
        y.push(pts[0][1]);
      }
    }
    return { t: Float64Array.from(t), x: Float64Array.from(x), y: Float64Array.from(y) };
  });
}

/** Position of a path at time t, knot index hint `k` (t[k] ≤ time): linear between knots. */
function posAt(p: Path, k: number, time: number): [number, number] {
  const n = p.t.length;
  if (k >= n - 1) return [p.x[n - 1], p.y[n - 1]];
  const dt = p.t[k + 1] - p.t[k];
  const u = dt > 0 ? Math.min(1, Math.max(0, (time - p.t[k]) / dt)) : 1;
  return [p.x[k] + (p.x[k + 1] - p.x[k]) * u, p.y[k] + (p.y[k + 1] - p.y[k]) * u];
}

/** Stretches of time two paths are closer than `limit`: the moment and distance of each stretch's closest approach. */
export function closeEpisodes(a: Path, b: Path, limit: number): { t: number; d: number }[] {
  const out: { t: number; d: number }[] = [];
  if (a.t.length === 0 || b.t.length === 0) return out;
  const from = Math.max(a.t[0], b.t[0]),
    to = Math.min(a.t[a.t.length - 1], b.t[b.t.length - 1]);
  if (!(from <= to)) return out;
  let i = 0,
    j = 0;
  while (i + 1 < a.t.length && a.t[i + 1] <= from) i++;
  while (j + 1 < b.t.length && b.t[j + 1] <= from) j++;
  let t = from;
  let episode: { t: number; d: number } | undefined;
  for (;;) {
    const next = Math.min(to, i + 1 < a.t.length ? a.t[i + 1] : to, j + 1 < b.t.length ? b.t[j + 1] : to);
    const [ax0, ay0] = posAt(a, i, t),
      [bx0, by0] = posAt(b, j, t);
    const [ax1, ay1] = posAt(a, i, next),
      [bx1, by1] = posAt(b, j, next);
    // relative position r(u) = r0 + (r1 − r0) u, u in [0, 1]
    const rx = ax0 - bx0,
      ry = ay0 - by0,
      vx = ax1 - bx1 - rx,
      vy = ay1 - by1 - ry;
    const vv = vx * vx + vy * vy;
    const u = vv > 0 ? Math.min(1, Math.max(0, -(rx * vx + ry * vy) / vv)) : 0;
    const d = Math.hypot(rx + vx * u, ry + vy * u);
    if (d < limit) {
      const at = t + (next - t) * u;
      if (!episode || d < episode.d) episode = { t: at, d };
    } else if (episode) {
      // the whole interval is clear: the stretch has ended
      out.push(episode);
      episode = undefined;
    }
    if (next >= to) break;
    t = next;
    if (i + 1 < a.t.length && a.t[i + 1] <= t) while (i + 1 < a.t.length && a.t[i + 1] <= t) i++;
    if (j + 1 < b.t.length && b.t[j + 1] <= t) while (j + 1 < b.t.length && b.t[j + 1] <= t) j++;
  }
  if (episode) out.push(episode);
  return out;
}
