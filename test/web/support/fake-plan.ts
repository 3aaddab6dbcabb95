/**
 * A stand-in planner for the web app's browser suite against the contract fake: parallel tracks
 * at the requested heading and spacing clipped to the field by a scanline, joined by turns, with
 * headland passes along the boundary. Its output follows "Plan GeoJSON" (docs/formats.md); its numbers
 * follow from its geometry (not from the app), so the suite can check what the app shows.
 */
type Pos = [number, number];

interface Frame {
  toLocal(p: Pos): Pos;
  toLonLat(p: Pos): Pos;
}

function frameAt(lon0: number, lat0: number, headingDegrees: number): Frame {
  const R = 6_371_008.8;
  const kx = (R * Math.PI * Math.cos((lat0 * Math.PI) / 180)) / 180;
  const ky = (R * Math.PI) / 180;
  // Rotate so tracks (bearing = heading, clockwise from north) run along local +y.
  const a = (headingDegrees * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return {
    toLocal: ([lon, lat]) => {
      const x = (lon - lon0) * kx;
      const y = (lat - lat0) * ky;
      return [x * c - y * s, x * s + y * c];
    },
    toLonLat: ([u, v]) => {
      const x = u * c + v * s;
      const y = -u * s + v * c;
      return [lon0 + x / kx, lat0 + y / ky];
    },
  };
}

function length(pts: Pos[]): number {
  let d = 0;
  for (let i = 1; i < pts.length; i++) d += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  return d;
}

function arc(from: Pos, to: Pos, bulgeSign: number): Pos[] {
  const cx = (from[0] + to[0]) / 2;
  const cy = (from[1] + to[1]) / 2;
  const r = Math.hypot(to[0] - from[0], to[1] - from[1]) / 2;
  const a0 = Math.atan2(from[1] - cy, from[0] - cx);
  const n = Math.max(8, Math.ceil((Math.PI * r) / 0.5));
  const out: Pos[] = [];
  for (let i = 0; i <= n; i++) {
    const a = a0 + (bulgeSign * Math.PI * i) / n;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  out[0] = from;
  out[n] = to;
  return out;
}

export interface FakePlanRequest {
  field?: { type: string; coordinates: Pos[][] };
  machine?: { widthMeters?: number; turnRadiusMeters?: number };
  headland?: { passes?: number };
  tracks?: { preferredDirectionDegrees?: number };
  routeOptions?: { calculateRefillPoints?: boolean };
}

export function fakePlan(req: FakePlanRequest): Record<string, unknown> {
  if (!req.field || req.field.type !== 'Polygon') throw new Error('fake planner: Polygon field required');
  const rings = req.field.coordinates;
  const width = req.machine?.widthMeters ?? 6;
  const passes = req.headland?.passes ?? 2;
  const heading = req.tracks?.preferredDirectionDegrees ?? 0;
  let minLon = Infinity,
    maxLon = -Infinity,
    minLat = Infinity,
    maxLat = -Infinity;
  for (const [lon, lat] of rings[0]) {
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
  }
  const f = frameAt((minLon + maxLon) / 2, (minLat + maxLat) / 2, heading);
  const local = rings.map((r) => r.map(f.toLocal));
  let minU = Infinity,
    maxU = -Infinity;
  for (const [u] of local[0]) {
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
  }
  const inset = passes * width;
  const segments: [Pos, Pos][] = [];
  for (let u = minU + inset + width / 2; u < maxU - inset; u += width) {
    const vs: number[] = [];
    for (const ring of local) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [u1, v1] = ring[i];
        const [u2, v2] = ring[i + 1];
        if ((u1 <= u && u2 > u) || (u2 <= u && u1 > u)) vs.push(v1 + ((u - u1) / (u2 - u1)) * (v2 - v1));
      }
    }
    vs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < vs.length; k += 2) {
      const a = vs[k] + inset;
      const b = vs[k + 1] - inset;
      if (b - a > width)
        segments.push([
          [u, a],
          [u, b],
        ]);
    }
  }
  const features: Record<string, unknown>[] = [];
  const ll = (pts: Pos[]) => pts.map(f.toLonLat);
  features.push({ type: 'Feature', geometry: req.field, properties: { type: 'Boundary' } });
  let seq = 0;
  let working = 0;
  let nonWorking = 0;
  let turns = 0;
  // Headland passes: the outer ring, walked once per pass (a stand-in for true offsets).
  let pos: Pos | undefined;
  for (let p = 0; p < passes; p++) {
    const ring = local[0];
    const len = length(ring);
    working += len;
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates: ll(ring) },
      properties: { type: 'ExteriorHeadland', sequence: seq++, widthMeters: width, lengthMeters: len },
    });
    pos = ring[ring.length - 1];
  }
  segments.forEach((seg, i) => {
    const [a, b] = i % 2 === 0 ? seg : [seg[1], seg[0]];
    if (pos) {
      const joint = i === 0 ? [pos, a] : arc(pos, a, i % 2 === 1 ? 1 : -1);
      const len = length(joint);
      nonWorking += len;
      features.push({
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: ll(joint) },
        properties:
          i === 0
            ? { type: 'Connector', sequence: seq++, lengthMeters: len }
            : { type: 'Turn', turnType: 'PerfectU', sequence: seq++, lengthMeters: len },
      });
      if (i > 0) turns++;
    }
    const len = length([a, b]);
    working += len;
    features.push({
      type: 'Feature',
      geometry: { type: 'LineString', coordinates: ll([a, b]) },
      properties: { type: 'Track', sequence: seq++, widthMeters: width, lengthMeters: len },
    });
    pos = b;
  });
  if (req.routeOptions?.calculateRefillPoints && segments.length > 2) {
    const mid = segments[Math.floor(segments.length / 2)][0];
    features.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: f.toLonLat(mid) },
      properties: { type: 'RefillPoint' },
    });
  }
  if (width > 10 && segments.length > 0) {
    features.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: f.toLonLat(segments[0][0]) },
      properties: {
        type: 'Warning',
        code: 'wide-implement',
        message: 'The implement is wider than 10 m: check the field edges.',
      },
    });
  }
  const area = Math.abs(
    local[0].reduce((acc, p, i, r) => (i + 1 < r.length ? acc + p[0] * r[i + 1][1] - r[i + 1][0] * p[1] : acc), 0) / 2,
  );
  const covered = segments.reduce((acc, [a, b]) => acc + (b[1] - a[1]) * width, 0) + passes * length(local[0]) * width;
  const uncovered = Math.max(0, area - covered);
  return {
    type: 'FeatureCollection',
    version: '1.5.0-fake',
    heading: { degrees: heading, source: req.tracks?.preferredDirectionDegrees === undefined ? 'search' : 'preferred' },
    metrics: {
      fieldAreaSquareMeters: area,
      workableAreaSquareMeters: area,
      distanceMeters: working + nonWorking,
      workingDistanceMeters: working,
      nonWorkingDistanceMeters: nonWorking,
      timeSeconds: working / 2.5 + nonWorking / 1.5,
      overlapSquareMeters: Math.max(0, covered - area),
      overlapRatio: Math.max(0, covered - area) / area,
      uncoveredSquareMeters: uncovered,
      uncoveredRatio: uncovered / area,
      turns,
    },
    features,
  };
}

/**
 * The same stand-in as a Plan JSON (core's `Plan`: route segments in driving order),
 * for the real API server while `@furrow/core` has no `planRoute` yet.
 */
export function fakePlanJson(request: Record<string, unknown>): Record<string, unknown> {
  const r = request as FakePlanRequest & {
    boundary?: FakePlanRequest['field'];
    equipment?: FakePlanRequest['machine'];
    exteriorHeadlandPasses?: number;
  };
  const fc = fakePlan({
    ...r,
    field: r.field ?? r.boundary,
    machine: r.machine ?? r.equipment,
    headland: r.headland ?? (r.exteriorHeadlandPasses !== undefined ? { passes: r.exteriorHeadlandPasses } : undefined),
  }) as {
    features: { geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }[];
    metrics: unknown;
    heading: unknown;
    version: string;
  };
  const route = fc.features
    .filter((f) => typeof f.properties['sequence'] === 'number')
    .map((f) => ({ ...f.properties, coordinates: f.geometry.coordinates }));
  return {
    version: fc.version,
    metrics: fc.metrics,
    heading: fc.heading,
    route,
    boundary: r.field ?? r.boundary,
    warnings: [],
  };
}
