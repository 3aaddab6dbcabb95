import { describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import { rectangleField } from './commands/bench.js';
import { planToSvg, wrapText } from './svg.js';

describe('SVG warnings', () => {
  it('a long warning is wrapped over several lines, every word of it kept, and the drawing grows to hold them', () => {
    const plan = planRoute({ field: rectangleField(120, 80), machine: { widthMeters: 6, turnRadiusMeters: 6 } });
    const quiet = planToSvg({ ...plan, warnings: [] });
    const words = Array.from({ length: 90 }, (_, i) => `word${i}`);
    const message = `the start ${words.join(' ')} the end`;
    const svg = planToSvg({ ...plan, warnings: [{ code: 'long-one', message, feature: 'field' }] });
    const block = /<text class="warnings"[^>]*>(.*?)<\/text>/.exec(svg)?.[1] ?? '';
    const lines = [...block.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
    expect(lines.length).toBeGreaterThan(3);
    const text = lines.join(' ');
    for (const w of [...words, 'the end', '[long-one]']) expect(text).toContain(w);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(151 + 3);
    const height = (s: string): number => Number(/height="(\d+)"/.exec(s)?.[1]);
    expect(height(svg)).toBeGreaterThan(height(quiet));
  });

  it('wrapText breaks at spaces within the width', () => {
    expect(wrapText('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
    expect(wrapText('averyveryverylongword x', 5)).toEqual(['averyveryverylongword', 'x']);
  });
});
