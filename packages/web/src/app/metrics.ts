/**
 * The plan KPIs shown beside the map (the plan's metric names), how they are formatted
 * for a farmer, and how a re-plan changed them.
 */
export interface MetricRow {
  key: string;
  label: string;
  /** 'lower' when a smaller value is the better plan; 'none' for context values. */
  better: 'lower' | 'none';
  format: (value: number, metrics: Record<string, unknown>) => string;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(r).padStart(2, '0')} s`;
  return `${r} s`;
}

export function formatDistance(meters: number): string {
  if (!Number.isFinite(meters)) return '–';
  if (Math.abs(meters) >= 1000) return `${(meters / 1000).toFixed(2)} km`;
  return `${Math.round(meters)} m`;
}

export function formatArea(squareMeters: number): string {
  if (!Number.isFinite(squareMeters)) return '–';
  if (Math.abs(squareMeters) >= 10_000) return `${(squareMeters / 10_000).toFixed(2)} ha`;
  return `${Math.round(squareMeters)} m²`;
}

export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  const p = ratio * 100;
  return `${p < 10 ? p.toFixed(2) : p.toFixed(1)} %`;
}

function num(m: Record<string, unknown>, key: string): number {
  const v = m[key];
  return typeof v === 'number' ? v : NaN;
}

export const METRIC_ROWS: readonly MetricRow[] = [
  { key: 'timeSeconds', label: 'Time', better: 'lower', format: formatDuration },
  { key: 'distanceMeters', label: 'Distance', better: 'lower', format: formatDistance },
  { key: 'workingDistanceMeters', label: 'Working distance', better: 'none', format: formatDistance },
  { key: 'nonWorkingDistanceMeters', label: 'Non-working distance', better: 'lower', format: formatDistance },
  {
    key: 'overlapSquareMeters',
    label: 'Overlap',
    better: 'lower',
    format: (v, m) => `${formatArea(v)} (${formatPercent(num(m, 'overlapRatio'))})`,
  },
  {
    key: 'uncoveredSquareMeters',
    label: 'Uncovered',
    better: 'lower',
    format: (v, m) => `${formatArea(v)} (${formatPercent(num(m, 'uncoveredRatio'))})`,
  },
  { key: 'turns', label: 'Turns', better: 'lower', format: (v) => (Number.isFinite(v) ? String(v) : '–') },
  { key: 'fieldAreaSquareMeters', label: 'Field area', better: 'none', format: formatArea },
];

export interface MetricChange {
  key: string;
  /** Signed difference next − previous, formatted like the metric ('+1.20 km'). */
  text: string;
  /** 'better' / 'worse' / 'same'; 'none' for context values. */
  verdict: 'better' | 'worse' | 'same' | 'none';
}

function formatDelta(row: MetricRow, delta: number): string {
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const abs = Math.abs(delta);
  switch (row.key) {
    case 'timeSeconds':
      return `${sign}${formatDuration(abs)}`;
    case 'turns':
      return `${sign}${abs}`;
    case 'overlapSquareMeters':
    case 'uncoveredSquareMeters':
    case 'fieldAreaSquareMeters':
      return `${sign}${formatArea(abs)}`;
    default:
      return `${sign}${formatDistance(abs)}`;
  }
}

/** How each metric changed from `previous` to `next` (rows where both are numbers). */
export function compareMetrics(previous: Record<string, unknown>, next: Record<string, unknown>): MetricChange[] {
  const out: MetricChange[] = [];
  for (const row of METRIC_ROWS) {
    const a = num(previous, row.key);
    const b = num(next, row.key);
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    const delta = b - a;
    // Below display precision counts as unchanged (1 s, 1 m, 1 m², one turn).
    const same = Math.abs(delta) < (row.key === 'turns' ? 0.5 : 0.5);
    const verdict = row.better === 'none' ? 'none' : same ? 'same' : delta < 0 ? 'better' : 'worse';
    out.push({ key: row.key, text: same ? 'no change' : formatDelta(row, delta), verdict });
  }
  return out;
}
