/**
 * Draws a track pattern as a small SVG (for docs/route-orders.md): tracks as vertical lines
 * numbered by visiting order, turns as arcs above and below, the driving direction as arrows.
 */
export function patternSvg(sequence: number[], title: string): string {
  const m = sequence.length;
  const dx = 40;
  const top = 70;
  const bottom = 330;
  const left = 40;
  const width = left * 2 + (m - 1) * dx;
  const height = 420;
  const x = (i: number): number => left + i * dx;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="sans-serif" font-size="12">`,
  );
  parts.push(
    '<defs><marker id="a" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="6" markerHeight="6" ' +
      'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#2a6f2a"/></marker></defs>',
  );
  parts.push(`<rect width="${width}" height="${height}" fill="#fff"/>`);
  parts.push(`<text x="${width / 2}" y="18" text-anchor="middle" font-size="14">${title}</text>`);
  for (let i = 0; i < m; i++)
    parts.push(`<text x="${x(i)}" y="${height - 10}" text-anchor="middle" fill="#666">${i}</text>`);
  let up = true;
  for (let k = 0; k < m; k++) {
    const i = sequence[k];
    const [y0, y1] = up ? [bottom, top] : [top, bottom];
    parts.push(
      `<line x1="${x(i)}" y1="${y0}" x2="${x(i)}" y2="${y1}" stroke="#2a6f2a" stroke-width="3" marker-end="url(#a)"/>`,
    );
    parts.push(`<circle cx="${x(i)}" cy="${(top + bottom) / 2}" r="10" fill="#fff" stroke="#2a6f2a"/>`);
    parts.push(`<text x="${x(i)}" y="${(top + bottom) / 2 + 4}" text-anchor="middle">${k + 1}</text>`);
    if (k + 1 < m) {
      const j = sequence[k + 1];
      const span = Math.abs(j - i) * dx;
      const bulge = Math.min(45, 10 + span / 6);
      const y = up ? top : bottom;
      const cy = up ? y - bulge : y + bulge;
      parts.push(
        `<path d="M${x(i)},${y} C${x(i)},${cy} ${x(j)},${cy} ${x(j)},${y}" fill="none" stroke="#b5651d" ` +
          `stroke-width="2" stroke-dasharray="5,3"/>`,
      );
    }
    up = !up;
  }
  parts.push(
    `<text x="${left}" y="${height - 30}" fill="#666">track number across the field (circled: visiting order; ` +
      `dashed: turns)</text>`,
  );
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
