/**
 * Slope statistics along driven lines (tracks, headland passes, whole routes), and the
 * lon/lat entry points that take a field or a Plan together with an ElevationGrid.
 */
import type { FieldGeometry, Plan, Position, RouteSegmentType } from '../types.js';
import { sampleElevation, sampleGradient, type ElevationGrid, type TerrainModel } from './grid.js';
import {
  boxOf,
  createTerrainModel,
  fieldPositions,
  fieldRingsLocal,
  frameForPositions,
  type LocalModelOptions,
} from './frame.js';
import {
  bestTerrainHeading,
  headingSlopeCost as headingSlopeCost,
  sampleTerrain,
  type BestHeading,
  type BestHeadingOptions,
} from './heading.js';
import { hypot } from '../geometry/vec.js';

export interface SlopeStatistics {
  /** Length of the line, meters, and the part of it where the DEM has data. */
  lengthMeters: number;
  sampledLengthMeters: number;
  /** Length-weighted mean and the maximum of |grade| along the direction of travel, percent. */
  meanAlongGradePercent: number;
  maxAlongGradePercent: number;
  /** Length-weighted mean and the maximum of the side tilt across the direction of travel, degrees. */
  meanCrossSlopeDegrees: number;
  maxCrossSlopeDegrees: number;
  /** Total climb and descent driving the line in its direction, meters. */
  ascentMeters: number;
  descentMeters: number;
  minElevationMeters: number | null;
  maxElevationMeters: number | null;
}

const DEG = Math.PI / 180;

/** An accumulator so that several lines can be summed into one statistic. */
class SlopeAccumulator {
  length = 0;
  sampled = 0;
  sumAlong = 0;
  maxAlong = 0;
  sumCross = 0;
  maxCross = 0;
  ascent = 0;
  descent = 0;
  minZ = Infinity;
  maxZ = -Infinity;

  add(model: TerrainModel, xy: ArrayLike<number>, stepMeters: number): void {
    for (let i = 0; i + 3 < xy.length; i += 2) {
      const x0 = xy[i],
        y0 = xy[i + 1],
        x1 = xy[i + 2],
        y1 = xy[i + 3];
      const len = hypot(x1 - x0, y1 - y0);
      if (len === 0) continue;
      this.length += len;
      const ux = (x1 - x0) / len,
        uy = (y1 - y0) / len;
      const pieces = Math.max(1, Math.ceil(len / stepMeters));
      const piece = len / pieces;
      let zPrev = sampleElevation(model, x0, y0);
      for (let k = 1; k <= pieces; k++) {
        const t = k / pieces;
        const x = x0 + (x1 - x0) * t,
          y = y0 + (y1 - y0) * t;
        const z = sampleElevation(model, x, y);
        const g = sampleGradient(model, x - ux * piece * 0.5, y - uy * piece * 0.5);
        if (!Number.isNaN(z) && !Number.isNaN(zPrev) && !Number.isNaN(g[0])) {
          const dz = z - zPrev;
          const along = Math.abs(dz) / piece;
          const cross = Math.atan(Math.abs(g[1] * ux - g[0] * uy));
          this.sampled += piece;
          this.sumAlong += along * piece;
          this.sumCross += cross * piece;
          if (along > this.maxAlong) this.maxAlong = along;
          if (cross > this.maxCross) this.maxCross = cross;
          if (dz > 0) this.ascent += dz;
          else this.descent -= dz;
          if (z < this.minZ) this.minZ = z;
          if (z > this.maxZ) this.maxZ = z;
          if (zPrev < this.minZ) this.minZ = zPrev;
          if (zPrev > this.maxZ) this.maxZ = zPrev;
        }
        zPrev = z;
      }
    }
  }

  merge(o: SlopeAccumulator): void {
    this.length += o.length;
    this.sampled += o.sampled;
    this.sumAlong += o.sumAlong;
    this.sumCross += o.sumCross;
    this.maxAlong = Math.max(this.maxAlong, o.maxAlong);
    this.maxCross = Math.max(this.maxCross, o.maxCross);
    this.ascent += o.ascent;
    this.descent += o.descent;
    this.minZ = Math.min(this.minZ, o.minZ);
    this.maxZ = Math.max(this.maxZ, o.maxZ);
  }

  result(): SlopeStatistics {
    const s = this.sampled;
    return {
      lengthMeters: this.length,
      sampledLengthMeters: s,
      meanAlongGradePercent: s > 0 ? (100 * this.sumAlong) / s : 0,
      maxAlongGradePercent: 100 * this.maxAlong,
      meanCrossSlopeDegrees: s > 0 ? this.sumCross / s / DEG : 0,
      maxCrossSlopeDegrees: this.maxCross / DEG,
      ascentMeters: this.ascent,
      descentMeters: this.descent,
      minElevationMeters: Number.isFinite(this.minZ) ? this.minZ : null,
      maxElevationMeters: Number.isFinite(this.maxZ) ? this.maxZ : null,
    };
  }
}

function defaultStep(model: TerrainModel): number {
  return Math.max(0.25, Math.min(model.cellSizeX, model.cellSizeY) / 2);
}

/** Slope statistics of one polyline in the local frame (flat x0,y0,x1,y1,…), driven from its first point. */
export function lineSlopeStatistics(
  model: TerrainModel,
  xy: ArrayLike<number>,
  stepMeters = defaultStep(model),
): SlopeStatistics {
  const acc = new SlopeAccumulator();
  acc.add(model, xy, stepMeters);
  return acc.result();
}

export interface FieldTerrainOptions extends BestHeadingOptions {
  model?: LocalModelOptions;
}

export interface FieldTerrain {
  /** Recommended heading by the objective, with the slope figures at that heading. */
  best: BestHeading;
  /** The same figures for every heading from 0 to 175° in 5° steps (for a chart or a trade-off). */
  byHeading: {
    headingDegrees: number;
    meanAlongGradePercent: number;
    meanCrossSlopeDegrees: number;
    maxCrossSlopeDegrees: number;
  }[];
  /** Field elevation range, meters. */
  minElevationMeters: number;
  maxElevationMeters: number;
}

/** Terrain of a lon/lat field: best heading by the objective and the slope per heading. */
export function analyzeFieldTerrain(
  field: FieldGeometry,
  grid: ElevationGrid,
  options: FieldTerrainOptions = {},
): FieldTerrain {
  const frame = frameForPositions(fieldPositions(field));
  const rings = fieldRingsLocal(field, frame);
  const pts: [number, number][] = [];
  for (const r of rings) for (let i = 0; i < r.length; i += 2) pts.push([r[i], r[i + 1]]);
  const model = createTerrainModel(grid, frame, boxOf(pts), options.model);
  const samples = sampleTerrain(model, rings);
  const best = bestTerrainHeading(samples, options);
  const byHeading: FieldTerrain['byHeading'] = [];
  for (let h = 0; h < 180; h += 5) {
    const c = headingCost(samples, h);
    byHeading.push(c);
  }
  let minZ = Infinity,
    maxZ = -Infinity;
  const box = boxOf(pts);
  for (let r = 0; r < model.rows; r++) {
    const y = model.originY - (r + 0.5) * model.cellSizeY;
    if (y < box.minY || y > box.maxY) continue;
    for (let c = 0; c < model.columns; c++) {
      const x = model.originX + (c + 0.5) * model.cellSizeX;
      if (x < box.minX || x > box.maxX) continue;
      const z = model.z[r * model.columns + c];
      if (Number.isNaN(z)) continue;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
  }
  if (!Number.isFinite(minZ)) {
    // A field smaller than one cell: take the surface at its vertices instead.
    for (const [x, y] of pts) {
      const z = sampleElevation(model, x, y);
      if (Number.isNaN(z)) continue;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
  }
  return { best, byHeading, minElevationMeters: minZ, maxElevationMeters: maxZ };
}

function headingCost(samples: ReturnType<typeof sampleTerrain>, h: number): FieldTerrain['byHeading'][number] {
  const c = headingSlopeCost(samples, h);
  return {
    headingDegrees: h,
    meanAlongGradePercent: c.meanAlongGradePercent,
    meanCrossSlopeDegrees: c.meanCrossSlopeDegrees,
    maxCrossSlopeDegrees: c.maxCrossSlopeDegrees,
  };
}

export interface SegmentSlope extends SlopeStatistics {
  sequence: number;
  type: RouteSegmentType;
  trackIndex?: number;
  headlandIndex?: number;
}

export interface RouteSlope {
  /** Per working pass (Track, ExteriorHeadland, InteriorHeadland), in route order. */
  passes: SegmentSlope[];
  /** All working passes together, all non-working pieces together, the whole route. */
  working: SlopeStatistics;
  nonWorking: SlopeStatistics;
  route: SlopeStatistics;
}

const WORKING: ReadonlySet<string> = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);

/** Per-pass and per-route slope statistics of a Plan over an elevation grid. */
export function routeSlopeStatistics(
  plan: Plan,
  grid: ElevationGrid,
  options: { model?: LocalModelOptions } = {},
): RouteSlope {
  const all: Position[] = fieldPositions(plan.boundary);
  const frame = frameForPositions(all);
  const local = plan.route.map((seg) => {
    const xy = new Float64Array(seg.coordinates.length * 2);
    seg.coordinates.forEach((p, i) => {
      const q = frame.toLocal(p[0], p[1]);
      xy[2 * i] = q[0];
      xy[2 * i + 1] = q[1];
    });
    return xy;
  });
  const pts: [number, number][] = [];
  for (const p of all) pts.push(frame.toLocal(p[0], p[1]));
  for (const xy of local) for (let i = 0; i < xy.length; i += 2) pts.push([xy[i], xy[i + 1]]);
  const model = createTerrainModel(grid, frame, boxOf(pts), options.model);
  const step = defaultStep(model);
  const working = new SlopeAccumulator(),
    nonWorking = new SlopeAccumulator();
  const passes: SegmentSlope[] = [];
  plan.route.forEach((seg, i) => {
    const acc = new SlopeAccumulator();
    acc.add(model, local[i], step);
    if (WORKING.has(seg.type)) {
      working.merge(acc);
      const s: SegmentSlope = { sequence: seg.sequence, type: seg.type, ...acc.result() };
      if (seg.trackIndex !== undefined) s.trackIndex = seg.trackIndex;
      if (seg.headlandIndex !== undefined) s.headlandIndex = seg.headlandIndex;
      passes.push(s);
    } else {
      nonWorking.merge(acc);
    }
  });
  const route = new SlopeAccumulator();
  route.merge(working);
  route.merge(nonWorking);
  return { passes, working: working.result(), nonWorking: nonWorking.result(), route: route.result() };
}
