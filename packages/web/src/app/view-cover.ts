/**
 * Whether a canvas drawn over one area of the map must be drawn again for a new view (same zoom): only if the view
 * shows some of what the canvas draws (its content's bounds) outside the drawn area. Boxes in the map's layer pixels.
 */
export interface PixelBox {
  min: { x: number; y: number };
  max: { x: number; y: number };
}

/** True when `view ∩ content` is not inside `drawn` (no content, or none in view: false). */
export function viewNeedsRedraw(drawn: PixelBox, view: PixelBox, content: PixelBox | undefined): boolean {
  if (!content) return false;
  const minX = Math.max(view.min.x, content.min.x);
  const minY = Math.max(view.min.y, content.min.y);
  const maxX = Math.min(view.max.x, content.max.x);
  const maxY = Math.min(view.max.y, content.max.y);
  if (minX > maxX || minY > maxY) return false;
  return minX < drawn.min.x || minY < drawn.min.y || maxX > drawn.max.x || maxY > drawn.max.y;
}
