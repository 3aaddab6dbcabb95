import { describe, expect, it } from 'vitest';
import { viewNeedsRedraw, type PixelBox } from './view-cover.js';

const box = (x0: number, y0: number, x1: number, y1: number): PixelBox => ({
  min: { x: x0, y: y0 },
  max: { x: x1, y: y1 },
});

describe('viewNeedsRedraw', () => {
  const drawn = box(-300, -200, 1300, 1000); // a 1000 × 800 view padded 0.3
  const route = box(24, 24, 976, 776); // the route, fitted in the view

  it('draws nothing again for a pan that keeps the route inside the drawn area, however far', () => {
    expect(viewNeedsRedraw(drawn, box(320, 160, 1320, 960), route)).toBe(false);
    expect(viewNeedsRedraw(drawn, box(-2000, 0, -1000, 800), route)).toBe(false); // route out of view
  });

  it('draws again when the view shows content outside the drawn area', () => {
    const bigRoute = box(-2000, -2000, 3000, 3000); // zoomed in: the route beyond the padding
    expect(viewNeedsRedraw(drawn, box(0, 0, 1000, 800), bigRoute)).toBe(false);
    expect(viewNeedsRedraw(drawn, box(400, 0, 1400, 800), bigRoute)).toBe(true);
    expect(viewNeedsRedraw(drawn, box(0, -250, 1000, 550), bigRoute)).toBe(true);
  });

  it('draws nothing for no content', () => {
    expect(viewNeedsRedraw(drawn, box(5000, 0, 6000, 800), undefined)).toBe(false);
  });
});
