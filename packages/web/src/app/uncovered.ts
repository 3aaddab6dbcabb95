/**
 * Uncovered ground as patches: a canvas layer that fills the field (less its no-go obstacles)
 * and then erases every working pass's swath (the pass stroked at its working width, flat ends),
 * so what stays coloured is ground no pass works, at the screen's resolution. The canvas spans the view (padding it
 * made zoomed-in redraws slower: 0.70–0.88 s for a 10,000-piece plan, against 0.48 s); a pan draws it again only
 * when the view shows part of the field outside it
 * (`viewNeedsRedraw`: a field fitted in the view is never drawn again at that zoom), a zoom or a resize always.
 * The pixels left in view are counted (`data-uncovered-pixels` on the canvas) once the browser has painted and is
 * idle: reading a canvas back is slow, and nothing on the page waits for the count.
 */
import * as L from 'leaflet';
import { isEmptyBounds, lonLatBounds, type Bounds, type Geometry, type Position } from './geo.js';
import { featureType, WORKING_TYPES, type MapData } from './layers.js';
import { linesOf } from './route.js';
import { viewNeedsRedraw, type PixelBox } from './view-cover.js';

/** Fill of uncovered ground (the 'uncovered' layer's colour, see layers.ts). */
export const UNCOVERED_RGBA = 'rgba(216, 27, 96, 0.6)';
const EARTH_CIRCUMFERENCE_METERS = 40_075_016.686;
function polygonsOf(g: Geometry | null | undefined): Position[][][] {
  if (!g) return [];
  if (g.type === 'Polygon') return [g.coordinates as Position[][]];
  if (g.type === 'MultiPolygon') return g.coordinates as Position[][][];
  return [];
}

export class UncoveredLayer extends L.Layer {
  private canvas?: HTMLCanvasElement;
  private data?: MapData;
  /** The field's lon/lat bounds (the data's boundary). */
  private fieldBounds?: Bounds;
  /** A count of the pixels is due (one at a time: it reads the canvas as it is then). */
  private countDue = false;
  /** What the canvas was drawn for: the map's zoom and size, and its area in layer pixels. */
  private drawnFor?: { zoom: number; size: L.Point; area: L.Bounds };

  constructor(options: L.LayerOptions) {
    super(options);
  }

  override onAdd(map: L.Map): this {
    this.canvas = L.DomUtil.create('canvas', 'uncovered-canvas') as HTMLCanvasElement;
    this.canvas.style.position = 'absolute';
    this.canvas.style.pointerEvents = 'none';
    this.getPane()!.appendChild(this.canvas);
    map.on('moveend', this.redrawIfOutside, this);
    map.on('zoomend resize viewreset', this.redraw, this);
    map.on('zoomstart', this.hideWhileZooming, this);
    this.redraw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend', this.redrawIfOutside, this);
    map.off('zoomend resize viewreset', this.redraw, this);
    map.off('zoomstart', this.hideWhileZooming, this);
    this.canvas?.remove();
    this.canvas = undefined;
    return this;
  }

  setData(data: MapData): void {
    this.data = data;
    this.fieldBounds = lonLatBounds([data.boundary]);
    this.redraw();
  }

  private hideWhileZooming(): void {
    if (this.canvas) this.canvas.style.visibility = 'hidden';
  }

  /** After a pan: draws again only if the view shows part of the field the canvas has not drawn. */
  private redrawIfOutside(): void {
    const map = (this as unknown as { _map?: L.Map })._map;
    const at = this.drawnFor;
    if (map && at && at.zoom === map.getZoom() && at.size.equals(map.getSize())) {
      const topLeft = map.containerPointToLayerPoint([0, 0]);
      const view = L.bounds(topLeft, topLeft.add(at.size));
      if (!viewNeedsRedraw(at.area as PixelBox, view as PixelBox, this.fieldPixels(map))) {
        this.countAfterPaint();
        return;
      }
    }
    this.redraw();
  }

  /** The field's bounds in layer pixels (1 px more each side), or undefined without a plan. */
  private fieldPixels(map: L.Map): PixelBox | undefined {
    const b = this.fieldBounds;
    if (!this.data?.plan || !b || isEmptyBounds(b)) return undefined;
    const px = L.bounds(map.latLngToLayerPoint([b.minY, b.minX]), map.latLngToLayerPoint([b.maxY, b.maxX]));
    return { min: px.min!.subtract([1, 1]), max: px.max!.add([1, 1]) };
  }

  private redraw(): void {
    const map = (this as unknown as { _map?: L.Map })._map;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    canvas.style.visibility = '';
    const view = map.getSize();
    const origin = map.containerPointToLayerPoint([0, 0]).round();
    const size = view.round();
    this.drawnFor = { zoom: map.getZoom(), size: view, area: L.bounds(origin, origin.add(size)) };
    L.DomUtil.setPosition(canvas, origin);
    canvas.width = size.x;
    canvas.height = size.y;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    const data = this.data;
    if (!ctx || !data?.plan || size.x === 0 || size.y === 0) {
      canvas.dataset.uncoveredPixels = '0';
      return;
    }
    delete canvas.dataset.uncoveredPixels;
    const toPx = (p: Position): L.Point => map.latLngToLayerPoint([p[1], p[0]]).subtract(origin);
    const trace = (ring: readonly Position[]): void => {
      ring.forEach((p, i) => {
        const q = toPx(p);
        if (i === 0) ctx.moveTo(q.x, q.y);
        else ctx.lineTo(q.x, q.y);
      });
      ctx.closePath();
    };
    ctx.fillStyle = UNCOVERED_RGBA;
    ctx.beginPath();
    for (const poly of polygonsOf(data.boundary)) for (const ring of poly) trace(ring);
    ctx.fill('evenodd');
    ctx.globalCompositeOperation = 'destination-out';
    ctx.fillStyle = '#000';
    ctx.beginPath();
    const obstacles = data.plan.layers.obstacles.length > 0 ? data.plan.layers.obstacles.map((f) => f.geometry) : [];
    if (obstacles.length === 0) obstacles.push(...data.obstacles);
    for (const g of obstacles) for (const poly of polygonsOf(g)) trace(poly[0] ?? []);
    ctx.fill();
    this.eraseSwaths(ctx, map, data, toPx);
    ctx.globalCompositeOperation = 'source-over';
    this.countAfterPaint();
  }

  /**
   * Sets `data-uncovered-pixels` once the page is idle after the next frame (the work just after a plan's first
   * paint goes first), at the latest after a second.
   */
  private countAfterPaint(): void {
    if (this.countDue) return;
    this.countDue = true;
    const count = (): void => {
      if (!this.countDue) return;
      this.countDue = false;
      const canvas = this.canvas;
      const ctx = canvas?.getContext('2d', { willReadFrequently: true });
      const map = (this as unknown as { _map?: L.Map })._map;
      const at = this.drawnFor;
      if (!canvas || !ctx || !map || !at) return;
      // The part of the canvas in view.
      const topLeft = map
        .containerPointToLayerPoint([0, 0])
        .subtract(at.area.min ?? [0, 0])
        .round();
      canvas.dataset.uncoveredPixels = String(countOpaque(ctx, topLeft.x, topLeft.y, at.size.x, at.size.y));
    };
    const idle = (fn: () => void): void => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 1000 });
      else setTimeout(fn, 0);
    };
    requestAnimationFrame(() => idle(count));
    setTimeout(count, 1000);
  }

  /** Erases each working pass stroked at its width (1 px more, so abutting swaths leave no seam). */
  private eraseSwaths(ctx: CanvasRenderingContext2D, map: L.Map, data: MapData, toPx: (p: Position) => L.Point): void {
    const lat = map.getCenter().lat;
    const metersPerPixel =
      (EARTH_CIRCUMFERENCE_METERS * Math.cos((lat * Math.PI) / 180)) / Math.pow(2, map.getZoom() + 8);
    ctx.lineCap = 'butt';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#000';
    const [width, height] = [ctx.canvas.width, ctx.canvas.height];
    // Passes of one width are one path, stroked once: one erase over the ground, not one per pass (10,000 erases
    // of overlapping swaths took most of a second when a 10,000-piece plan was drawn again).
    let openWidth = 0;
    for (const f of data.plan?.route ?? []) {
      if (!WORKING_TYPES.has(featureType(f))) continue;
      const w = f.properties?.['widthMeters'];
      const widthMeters = typeof w === 'number' && w > 0 ? w : data.widthMeters;
      if (!widthMeters) continue;
      if (widthMeters !== openWidth) {
        if (openWidth) ctx.stroke();
        openWidth = widthMeters;
        ctx.lineWidth = widthMeters / metersPerPixel + 1;
        ctx.beginPath();
      }
      const reach = ctx.lineWidth;
      for (const line of linesOf(f.geometry)) {
        const px = line.map(toPx);
        // A pass wholly off the canvas is left out (zoomed in, most are).
        if (!px.some((q) => q.x > -reach && q.y > -reach && q.x < width + reach && q.y < height + reach)) continue;
        px.forEach((q, i) => {
          if (i === 0) ctx.moveTo(q.x, q.y);
          else ctx.lineTo(q.x, q.y);
        });
      }
    }
    if (openWidth) ctx.stroke();
  }
}

/** Pixels more than half opaque. */
function countOpaque(ctx: CanvasRenderingContext2D, x: number, y: number, width: number, height: number): number {
  const px = ctx.getImageData(x, y, width, height).data;
  let n = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i] > 64) n++;
  return n;
}
