/**
 * Drawing a polygon on the map: each click adds a corner, "Finish" (or a click on the first
 * corner) closes the ring, "Undo" takes the last corner back, Escape cancels. Used for a field's
 * boundary, its obstacles (no-go zones) and passable zones; `PointPicker` places a gate or the start
 * point with one click; `ShapeEditor` edits them: a handle per corner (or point) to drag, and one
 * halfway along each side that, dragged, adds a corner there (geo.ts `moveCorner`, `insertCorner`). Pure
 * ring helpers are exported for tests.
 */
import * as L from 'leaflet';
import { insertCorner, moveCorner, type Position } from './geo.js';

/** A closed ring from drawn corners (first corner repeated at the end); undefined under 3 corners. */
export function closeRing(corners: readonly Position[]): Position[] | undefined {
  if (corners.length < 3) return undefined;
  return [...corners.map((p) => [p[0], p[1]] as Position), [corners[0][0], corners[0][1]]];
}

export class PolygonDrawer {
  private corners: Position[] = [];
  private preview?: L.Polyline;
  private markers: L.CircleMarker[] = [];
  private color = '#2f5d1e';
  private done?: (ring: Position[]) => void;
  private readonly onClick = (e: L.LeafletMouseEvent): void => this.add([e.latlng.lng, e.latlng.lat]);
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') this.cancel();
  };

  constructor(private readonly map: L.Map) {}

  get active(): boolean {
    return this.done !== undefined;
  }

  get cornerCount(): number {
    return this.corners.length;
  }

  /** Starts drawing; `done` gets the closed ring. */
  start(color: string, done: (ring: Position[]) => void): void {
    this.cancel();
    this.color = color;
    this.done = done;
    this.map.on('click', this.onClick);
    document.addEventListener('keydown', this.onKey);
    this.map.getContainer().classList.add('drawing');
  }

  /** Adds a corner (as a click on the map does). */
  add(p: Position): void {
    if (!this.done) return;
    const first = this.corners[0];
    if (first && this.corners.length >= 3) {
      const a = this.map.latLngToContainerPoint([first[1], first[0]]);
      const b = this.map.latLngToContainerPoint([p[1], p[0]]);
      if (a.distanceTo(b) < 10) {
        this.finish();
        return;
      }
    }
    this.corners.push(p);
    const m = L.circleMarker([p[1], p[0]], { radius: 5, color: this.color, fillOpacity: 1, interactive: false });
    m.addTo(this.map);
    this.markers.push(m);
    this.redraw();
  }

  undo(): void {
    this.corners.pop();
    this.markers.pop()?.remove();
    this.redraw();
  }

  /** Closes the ring and hands it over (nothing happens under 3 corners). Returns whether it closed. */
  finish(): boolean {
    const ring = closeRing(this.corners);
    if (!ring || !this.done) return false;
    const done = this.done;
    this.cancel();
    done(ring);
    return true;
  }

  cancel(): void {
    this.map.off('click', this.onClick);
    document.removeEventListener('keydown', this.onKey);
    this.map.getContainer().classList.remove('drawing');
    this.preview?.remove();
    this.preview = undefined;
    for (const m of this.markers) m.remove();
    this.markers = [];
    this.corners = [];
    this.done = undefined;
  }

  private redraw(): void {
    const latlngs = this.corners.map((p) => L.latLng(p[1], p[0]));
    if (!this.preview) {
      this.preview = L.polyline(latlngs, { color: this.color, weight: 2, dashArray: '6 4', interactive: false });
      this.preview.addTo(this.map);
    } else this.preview.setLatLngs(latlngs);
  }
}

/** Picking one point on the map (a gate, the start point): the next click hands it over; Escape cancels. */
export class PointPicker {
  private done?: (p: Position) => void;
  private readonly onClick = (e: L.LeafletMouseEvent): void => {
    const done = this.done;
    this.cancel();
    done?.([e.latlng.lng, e.latlng.lat]);
  };
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') this.cancel();
  };

  constructor(private readonly map: L.Map) {}

  get active(): boolean {
    return this.done !== undefined;
  }

  start(done: (p: Position) => void): void {
    this.cancel();
    this.done = done;
    this.map.once('click', this.onClick);
    document.addEventListener('keydown', this.onKey);
    this.map.getContainer().classList.add('drawing');
  }

  cancel(): void {
    this.map.off('click', this.onClick);
    document.removeEventListener('keydown', this.onKey);
    this.map.getContainer().classList.remove('drawing');
    this.done = undefined;
  }
}

/** A shape the editor shows: a closed ring (its corners and sides) or a single point. */
export interface EditableShape {
  /** Names the handles ("Corner 2 of the boundary", "Gate 1"). */
  label: string;
  ring?: Position[];
  point?: Position;
}

/**
 * Edits shapes on the map: each corner and point gets a handle to drag, each side of a ring a handle
 * at its middle that adds a corner where it is dropped. `changed` gets the shape's index and its new
 * ring or point after each drop; the caller redraws and calls `show` again with the shapes as they are.
 */
export class ShapeEditor {
  private handles: L.Marker[] = [];
  private changed?: (index: number, shape: EditableShape) => void;

  constructor(private readonly map: L.Map) {}

  get active(): boolean {
    return this.changed !== undefined;
  }

  /** Shows the handles of `shapes` (replacing any shown). */
  show(shapes: readonly EditableShape[], changed: (index: number, shape: EditableShape) => void): void {
    this.stop();
    this.changed = changed;
    shapes.forEach((shape, k) => {
      if (shape.point) {
        this.handle(shape.point, `${shape.label}: drag to move`, 'corner', (p) => changed(k, { ...shape, point: p }));
      }
      const ring = shape.ring;
      if (!ring || ring.length < 4) return;
      for (let i = 0; i < ring.length - 1; i++) {
        const title = `Corner ${i + 1} of ${shape.label}: drag to move`;
        this.handle(ring[i], title, 'corner', (p) => changed(k, { ...shape, ring: moveCorner(ring, i, p) }));
        const [a, b] = [ring[i], ring[i + 1]];
        const middle: Position = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const side = `Side ${i + 1} of ${shape.label}: drag to add a corner`;
        this.handle(middle, side, 'side', (p) => changed(k, { ...shape, ring: insertCorner(ring, i, p) }));
      }
    });
  }

  stop(): void {
    for (const m of this.handles) m.remove();
    this.handles = [];
    this.changed = undefined;
  }

  private handle(at: Position, title: string, kind: 'corner' | 'side', dropped: (p: Position) => void): void {
    const icon = L.divIcon({ className: `edit-handle ${kind}`, iconSize: kind === 'corner' ? [14, 14] : [10, 10] });
    const m = L.marker([at[1], at[0]], { icon, draggable: true, title, keyboard: true });
    m.on('dragend', () => {
      const p = m.getLatLng();
      // After Leaflet has finished the drag: the caller redraws, which replaces this handle.
      setTimeout(() => dropped([p.lng, p.lat]), 0);
    });
    m.addTo(this.map);
    this.handles.push(m);
  }
}
