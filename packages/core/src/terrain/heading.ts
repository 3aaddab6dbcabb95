/**
 * Heading objectives on terrain. For a track direction d (unit vector of the heading) and the
 * ground gradient g at a point:
 * - along-track grade = |g · d| (rise over run driven up or down a track);
 * - cross slope = atan(|g · n|) with n ⟂ d (the side tilt of the machine on the track).
 * Tracks along the contour have zero along-track grade (erosion control: water does not run
 * down the wheelings); tracks straight up and down the slope have zero cross slope.
 */
import { PlanError } from '../errors.js';
import { sampleGradient, type TerrainModel } from './grid.js';
import { ringsBox } from './frame.js';
import { hypot } from '../geometry/vec.js';
import { pointInFlatRings } from '../geometry/pointInRing.js';

/** Rings in the local frame as flat x0,y0,x1,y1,… arrays; the area inside is taken even-odd. */
export type LocalRings = ArrayLike<number>[];

/**
 * `contour`: minimise the mean along-track grade (tracks follow the contour lines).
 * `minimizeCrossSlope`: minimise the mean cross slope (drive up and down the slope).
 */
export type TerrainHeadingObjective = 'contour' | 'minimizeCrossSlope';

export interface TerrainSamples {
  /** Gradient components at points spread evenly over the area. */
  gradientX: Float64Array;
  gradientY: Float64Array;
  count: number;
}

export interface HeadingSlopeCost {
  headingDegrees: number;
  meanAlongGradePercent: number;
  maxAlongGradePercent: number;
  meanCrossSlopeDegrees: number;
  maxCrossSlopeDegrees: number;
}

/**
 * Gradient samples on a regular lattice inside the rings (spacing: the DEM cell size, coarsened
 * to keep at most `maxSamples`). Points without elevation data are left out.
 */
export function sampleTerrain(model: TerrainModel, rings: LocalRings, maxSamples = 20_000): TerrainSamples {
  const { minX, minY, maxX, maxY } = ringsBox(rings);
  if (!(maxX > minX && maxY > minY))
    throw new PlanError('invalid-boundary', 'the area to sample terrain over is empty');
  let step = Math.min(model.cellSizeX, model.cellSizeY) / 2;
  const area = (maxX - minX) * (maxY - minY);
  if (area / (step * step) > maxSamples) step = Math.sqrt(area / maxSamples);
  const gx: number[] = [],
    gy: number[] = [];
  for (let y = minY + step / 2; y < maxY; y += step) {
    for (let x = minX + step / 2; x < maxX; x += step) {
      if (!pointInFlatRings(x, y, rings)) continue;
      const g = sampleGradient(model, x, y);
      if (Number.isNaN(g[0]) || Number.isNaN(g[1])) continue;
      gx.push(g[0]);
      gy.push(g[1]);
    }
  }
  if (gx.length === 0) {
    throw new PlanError('invalid-request', 'the elevation model has no data inside the field', [
      { path: 'terrain.grid', message: 'does not cover the field' },
    ]);
  }
  return { gradientX: Float64Array.from(gx), gradientY: Float64Array.from(gy), count: gx.length };
}

const DEG = Math.PI / 180;

/** Slope statistics of driving every track at one heading (degrees clockwise from north). */
export function headingSlopeCost(samples: TerrainSamples, headingDegrees: number): HeadingSlopeCost {
  const t = headingDegrees * DEG;
  const dx = Math.sin(t),
    dy = Math.cos(t); // east, north components of the track direction
  const { gradientX, gradientY, count } = samples;
  let sumAlong = 0,
    maxAlong = 0,
    sumCross = 0,
    maxCross = 0;
  for (let i = 0; i < count; i++) {
    const gx = gradientX[i],
      gy = gradientY[i];
    const along = Math.abs(gx * dx + gy * dy);
    const cross = Math.atan(Math.abs(gy * dx - gx * dy));
    sumAlong += along;
    sumCross += cross;
    if (along > maxAlong) maxAlong = along;
    if (cross > maxCross) maxCross = cross;
  }
  return {
    headingDegrees: normalizeHeading(headingDegrees),
    meanAlongGradePercent: (100 * sumAlong) / count,
    maxAlongGradePercent: 100 * maxAlong,
    meanCrossSlopeDegrees: sumCross / count / DEG,
    maxCrossSlopeDegrees: maxCross / DEG,
  };
}

/** Headings of tracks are undirected: folded into [0, 180). */
export function normalizeHeading(deg: number): number {
  let h = deg % 180;
  if (h < 0) h += 180;
  return h === 180 ? 0 : h;
}

export interface BestHeadingOptions {
  objective?: TerrainHeadingObjective;
  /** With `contour`: headings whose max cross slope exceeds this are avoided when any heading can keep it. */
  maxCrossSlopeDegrees?: number;
  /** Coarse search step, degrees (default 1); the best step is then refined to 0.01°. */
  stepDegrees?: number;
}

export interface BestHeading extends HeadingSlopeCost {
  objective: TerrainHeadingObjective;
  /** False when `maxCrossSlopeDegrees` could not be kept at any heading. */
  crossSlopeLimitMet: boolean;
  /**
   * Mean slope of the sampled area (degrees) and its dominant downhill direction (aspect, degrees; null on flat
   * ground).
   */
  meanSlopeDegrees: number;
  dominantAspectDegrees: number | null;
  samples: number;
}

function costKey(c: HeadingSlopeCost, objective: TerrainHeadingObjective, limit: number | undefined): [number, number] {
  const violation = limit === undefined ? 0 : Math.max(0, c.maxCrossSlopeDegrees - limit);
  const primary = objective === 'contour' ? c.meanAlongGradePercent : c.meanCrossSlopeDegrees;
  return [violation, primary];
}

function better(a: [number, number], b: [number, number]): boolean {
  if (a[0] < b[0] - 1e-12) return true;
  if (a[0] > b[0] + 1e-12) return false;
  return a[1] < b[1] - 1e-12;
}

/** The heading (degrees clockwise from north, in [0, 180)) that best serves the objective. */
export function bestTerrainHeading(samples: TerrainSamples, options: BestHeadingOptions = {}): BestHeading {
  const objective = options.objective ?? 'contour';
  if (objective !== 'contour' && objective !== 'minimizeCrossSlope') {
    throw new PlanError(
      'invalid-option',
      `terrain objective "${String(objective)}" is not one of contour, minimizeCrossSlope`,
      [{ path: 'terrain.objective', message: 'unknown objective' }],
    );
  }
  const limit = options.maxCrossSlopeDegrees;
  const step = options.stepDegrees ?? 1;
  if (!(step > 0 && step <= 45)) throw new PlanError('invalid-option', 'stepDegrees must be in (0, 45]');
  let best = headingSlopeCost(samples, 0);
  let bestKey = costKey(best, objective, limit);
  for (let h = step; h < 180; h += step) {
    const c = headingSlopeCost(samples, h);
    const k = costKey(c, objective, limit);
    if (better(k, bestKey)) {
      best = c;
      bestKey = k;
    }
  }
  const fine = Math.min(0.01, step / 10);
  const centre = best.headingDegrees;
  for (let h = centre - step; h <= centre + step; h += fine) {
    const c = headingSlopeCost(samples, h);
    const k = costKey(c, objective, limit);
    if (better(k, bestKey)) {
      best = c;
      bestKey = k;
    }
  }
  let sumSlope = 0,
    sumGx = 0,
    sumGy = 0;
  for (let i = 0; i < samples.count; i++) {
    const gx = samples.gradientX[i],
      gy = samples.gradientY[i];
    sumSlope += Math.atan(hypot(gx, gy));
    sumGx += gx;
    sumGy += gy;
  }
  let aspect = Math.atan2(-sumGx, -sumGy) / DEG;
  if (aspect < 0) aspect += 360;
  return {
    ...best,
    objective,
    crossSlopeLimitMet: bestKey[0] === 0,
    meanSlopeDegrees: sumSlope / samples.count / DEG,
    dominantAspectDegrees: sumGx === 0 && sumGy === 0 ? null : aspect,
    samples: samples.count,
  };
}

/** `bestTerrainHeading` over the area inside `rings` (local frame). */
export function bestContourHeading(
  model: TerrainModel,
  rings: LocalRings,
  options: BestHeadingOptions = {},
): BestHeading {
  return bestTerrainHeading(sampleTerrain(model, rings), options);
}
