/**
 * The canvas renderer of a big route's layers (docs/web.md "Layers"): Leaflet's canvas renderer with two changes.
 * - A pan draws nothing unless it shows part of the route the canvas has not drawn: Leaflet clears and redraws
 *   every path of its canvas on each `moveend`, however short the pan. Here the canvas (the view plus `padding` on
 *   each side, as in Leaflet) moves with the map and is drawn again only when the view shows paths outside it
 *   (`viewNeedsRedraw`), the zoom changes or the map is resized. A route fitted in the view is wholly drawn: at
 *   that zoom no pan draws it again.
 * - Paths of one style are stroked as one path: Leaflet strokes each path on its own (its own TODO), 10,000 strokes
 *   for 10,000 route pieces; here one stroke per run of equal style, so the browser rasterizes one path, not 10,000.
 */
import * as L from 'leaflet';
import { viewNeedsRedraw, type PixelBox } from './view-cover.js';

/** The parts of Leaflet's canvas renderer used here (private in its typings). */
interface CanvasInternals {
  _map?: L.Map;
  _bounds?: L.Bounds;
  _zoom?: number;
  _ctx: CanvasRenderingContext2D;
  _drawing: boolean;
  _drawFirst?: { layer: PathInternals; next?: CanvasInternals['_drawFirst'] } | null;
  _redrawBounds?: L.Bounds | null;
  _update(): void;
  _fillStroke(ctx: CanvasRenderingContext2D, layer: PathInternals): void;
}

interface PathInternals {
  options: L.PathOptions & { _dashArray?: number[] };
  _parts: L.Point[][];
  _pxBounds?: L.Bounds;
  _updatePath(): void;
}

const styleKey = (o: PathInternals['options']): string =>
  o.fill ? '' : [o.stroke, o.color, o.weight, o.opacity, o.lineCap, o.lineJoin, String(o._dashArray)].join('|');

/** The union of the renderer's paths' pixel bounds (each already padded by half its stroke). */
function pathsBounds(r: CanvasInternals): PixelBox | undefined {
  let b: L.Bounds | undefined;
  for (let order = r._drawFirst; order; order = order.next) {
    const px = order.layer._pxBounds;
    if (!px?.min || !px.max) continue;
    if (!b) b = L.bounds(px.min, px.max);
    else b.extend(px.min).extend(px.max);
  }
  return b as PixelBox | undefined;
}

const LeafletCanvas = L.Canvas as unknown as {
  prototype: CanvasInternals & {
    _redraw(): void;
    getEvents(): L.LeafletEventHandlerFnMap;
    _draw(): void;
  };
};

const RouteCanvasClass = L.Canvas.extend({
  /** The map's size when the canvas was last sized (a resize redraws). */
  _sizeAtUpdate: undefined as L.Point | undefined,
  /** Set while `_draw` batches: `_updatePoly` adds to the open path and strokes nothing. */
  _batching: false,

  getEvents(this: CanvasInternals): L.LeafletEventHandlerFnMap {
    const events = LeafletCanvas.prototype.getEvents.call(this);
    return { ...events, moveend: (this as unknown as { _onMoveEnd: () => void })._onMoveEnd };
  },

  _onMoveEnd(this: CanvasInternals & { _sizeAtUpdate?: L.Point }): void {
    const map = this._map;
    if (map && this._bounds && this._zoom === map.getZoom() && this._sizeAtUpdate?.equals(map.getSize())) {
      const topLeft = map.containerPointToLayerPoint([0, 0]);
      const view = L.bounds(topLeft, topLeft.add(map.getSize()));
      if (!viewNeedsRedraw(this._bounds as PixelBox, view as PixelBox, pathsBounds(this))) return;
    }
    this._update();
  },

  _update(this: CanvasInternals & { _sizeAtUpdate?: L.Point }): void {
    LeafletCanvas.prototype._update.call(this);
    if (this._map) this._sizeAtUpdate = this._map.getSize();
  },

  /**
   * Paths added or removed (a new plan) after pans that drew nothing: the canvas may no longer cover the view, and
   * the new paths may be where it does not reach. Then it is placed over the view again and everything drawn.
   */
  _redraw(this: CanvasInternals & { _redrawRequest: number | null; _redraw(): void }): void {
    const map = this._map;
    const drawn = this._bounds;
    if (map && drawn) {
      const topLeft = map.containerPointToLayerPoint([0, 0]);
      if (!drawn.contains(topLeft) || !drawn.contains(topLeft.add(map.getSize()))) {
        this._redrawRequest = null;
        this._redrawBounds = null;
        this._update(); // (draws everything: its 'update' redraws with the view covered)
        return;
      }
    }
    LeafletCanvas.prototype._redraw.call(this);
  },

  _draw(this: CanvasInternals & { _batching: boolean }): void {
    const bounds = this._redrawBounds;
    const ctx = this._ctx;
    ctx.save();
    if (bounds?.min) {
      const size = bounds.getSize();
      ctx.beginPath();
      ctx.rect(bounds.min.x, bounds.min.y, size.x, size.y);
      ctx.clip();
    }
    this._drawing = true;
    let open: PathInternals | undefined;
    let openKey = '';
    const flush = (): void => {
      if (open) this._fillStroke(ctx, open);
      open = undefined;
    };
    for (let order = this._drawFirst; order; order = order.next) {
      const layer = order.layer;
      if (bounds && !(layer._pxBounds && layer._pxBounds.intersects(bounds))) continue;
      const key = styleKey(layer.options);
      if (key === '' || !layer._parts) {
        // A filled path, a circle: drawn on its own, as Leaflet does.
        flush();
        this._batching = false;
        layer._updatePath();
        continue;
      }
      if (!open || key !== openKey) {
        flush();
        ctx.beginPath();
        open = layer;
        openKey = key;
      }
      this._batching = true;
      layer._updatePath();
    }
    flush();
    this._batching = false;
    this._drawing = false;
    ctx.restore();
  },

  _updatePoly(this: CanvasInternals & { _batching: boolean }, layer: PathInternals, closed: boolean): void {
    if (!this._drawing) return;
    if (!this._batching) {
      (L.Canvas.prototype as unknown as { _updatePoly: (l: PathInternals, c: boolean) => void })._updatePoly.call(
        this,
        layer,
        closed,
      );
      return;
    }
    const ctx = this._ctx;
    for (const part of layer._parts) {
      for (let j = 0; j < part.length; j++) {
        const p = part[j];
        if (j === 0) ctx.moveTo(p.x, p.y);
        else ctx.lineTo(p.x, p.y);
      }
      if (closed) ctx.closePath();
    }
  },
});

/** A route layer's canvas renderer on `pane`, drawn `padding` × the view beyond each side of it. */
export function routeCanvas(options: L.RendererOptions): L.Renderer {
  return new (RouteCanvasClass as unknown as new (o: L.RendererOptions) => L.Renderer)(options);
}
