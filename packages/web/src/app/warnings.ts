/**
 * The plan's warnings in plain words: a short title per warning code, the planner's message
 * without code formatting or raw coordinates (the list links to the place on the map instead),
 * and the code kept as a small tag. Pure functions: unit-tested in Node.
 */
import { h } from './dom.js';
import type { FeatureCollection, Geometry } from './geo.js';

export interface PlainWarning {
  code: string;
  title: string;
  text: string;
  /** Where the warning applies, when the plan says (a click zooms there). */
  geometry?: Geometry;
}

/** Titles of the planner's warning codes (packages/core, docs/api.md "Warnings"). */
const TITLES: Record<string, string> = {
  'unworked-area': 'Ground left unworked',
  'track-skipped': 'A track was left out',
  'track-shortened': 'A track was shortened',
  'headland-pass-skipped': 'A headland pass was left out',
  'turn-not-fitted': 'A turn does not fit',
  'time-limit': 'Planning stopped at its time limit',
  'transit-leg': 'The machine drives between field parts',
  'route-leaves-field': 'The route leaves the field',
  'narrow-corridor': 'A narrow passage',
  'coverage-approximate': 'Coverage figures are approximate',
  'crosshatches-empty': 'No room for cross-hatches',
  'sparse-geometry': 'The boundary has few points',
  gap: 'A gap in the route',
  infeasible: 'Part of the plan could not be met',
};

/** A title for a code: the known one, else the code in words ("some-code" → "Some code"). */
export function warningTitle(code: string): string {
  const known = TITLES[code];
  if (known) return known;
  const words = code.replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Warning';
}

/** The message without backticks and raw lon/lat (the place is a link on the map instead). */
export function plainMessage(message: string): string {
  let m = message.replace(/`([^`]*)`/g, '$1');
  // "around 15.0497, 48.2677 (lon, lat)" / "at [15.04, 48.26]" / bare "(lon, lat)" pairs.
  m = m.replace(
    /\s*(?:around|at|near)\s+\[?-?\d+\.\d+,\s*-?\d+\.\d+\]?(?:\s*\(lon,\s*lat\))?/gi,
    ' at the marked place',
  );
  m = m.replace(/\s*\[?-?\d{1,3}\.\d{3,},\s*-?\d{1,2}\.\d{3,}\]?(?:\s*\(lon,\s*lat\))?/g, ' at the marked place');
  m = m.replace(/\s+/g, ' ').trim();
  return m ? m[0].toUpperCase() + m.slice(1) : m;
}

/** Every warning of a plan (Warning features and the plan's `warnings` member), once each. */
export function planWarnings(plan: FeatureCollection): PlainWarning[] {
  const out: PlainWarning[] = [];
  const seen = new Set<string>();
  const add = (code: unknown, message: unknown, geometry: Geometry | null | undefined): void => {
    if (typeof message !== 'string') return;
    const c = typeof code === 'string' && code !== '' ? code : 'warning';
    const key = `${c}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({
      code: c,
      title: warningTitle(c),
      text: plainMessage(message),
      ...(geometry ? { geometry } : {}),
    });
  };
  for (const f of plan.features) {
    if (f.properties?.['type'] === 'Warning') add(f.properties['code'], f.properties['message'], f.geometry);
  }
  const extra = (plan as { warnings?: unknown }).warnings;
  if (Array.isArray(extra)) {
    for (const w of extra as Record<string, unknown>[]) {
      if (typeof w !== 'object' || w === null) continue;
      add(w['code'], w['message'], w['geometry'] as Geometry | undefined);
    }
  }
  return out;
}

/**
 * A warning as the app lists it: title, plain text and the code as a tag; one with a place is a button that calls
 * `show` with it (the plan view and the fleet view zoom there).
 */
export function warningListItem(w: PlainWarning, show: (geometry: Geometry) => void): HTMLLIElement {
  const body = [
    h('strong', { class: 'warning-title' }, w.title),
    ' ',
    h('span', { class: 'warning-text' }, w.text),
    ' ',
    h('code', { class: 'tag', 'data-testid': 'warning-code' }, w.code),
  ];
  const geometry = w.geometry;
  const item = geometry
    ? h('button', { type: 'button', class: 'warning-link', title: 'Show on the map' }, ...body)
    : h('div', { class: 'warning-body' }, ...body);
  if (geometry) item.addEventListener('click', () => show(geometry));
  return h('li', { 'data-code': w.code }, item);
}
