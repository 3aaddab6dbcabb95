import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyEmbeddedModeMessage,
  embeddingFromUrl,
  embeddingQuery,
  isOriginAllowed,
  parseEmbeddedModeMessage,
  resolveVisibility,
  sanitizeTheme,
} from './embedding.js';

describe('embeddingQuery', () => {
  it("keeps only the embedding flags for the app's own links", () => {
    expect(embeddingQuery('?embedded=true&chrome=false&code=secret&userId=u')).toBe('?embedded=true&chrome=false');
    expect(embeddingQuery('?hideSideNav=1&chrome=maybe')).toBe('?hideSideNav=1');
    expect(embeddingQuery('')).toBe('');
  });
  it('reads back to the same embedding state', () => {
    const search = '?embedded=true&chrome=false&hideOrgSelector=false&returnUrl=x';
    expect(embeddingFromUrl(embeddingQuery(search))).toEqual(embeddingFromUrl(search));
  });
});

describe('URL flags', () => {
  it('shows everything by default', () => {
    expect(resolveVisibility(embeddingFromUrl(''))).toEqual({
      sideNav: true,
      orgSelector: true,
      fieldSelector: true,
      partnerTheme: false,
    });
  });
  it('embedded=true&chrome=false hides the navigation and both selectors and applies the partner theme', () => {
    expect(resolveVisibility(embeddingFromUrl('?embedded=true&chrome=false'))).toEqual({
      sideNav: false,
      orgSelector: false,
      fieldSelector: false,
      partnerTheme: true,
    });
  });
  it('individual flags override chrome', () => {
    const v = resolveVisibility(embeddingFromUrl('?embedded=true&chrome=false&hideFieldSelector=false'));
    expect(v.fieldSelector).toBe(true);
    expect(v.sideNav).toBe(false);
  });
});

describe('embedded-mode messages', () => {
  it('accepts the documented shape and applies only the flags it carries', () => {
    const msg = parseEmbeddedModeMessage({ type: 'embedded-mode', embedded: true, chrome: true, hideSideNav: true });
    expect(msg).toBeDefined();
    const state = applyEmbeddedModeMessage(embeddingFromUrl('?embedded=true&chrome=false'), msg!);
    expect(resolveVisibility(state)).toEqual({
      sideNav: false,
      orgSelector: true,
      fieldSelector: true,
      partnerTheme: true,
    });
  });
  it('rejects other types and non-boolean flags', () => {
    expect(parseEmbeddedModeMessage({ type: 'other', embedded: true })).toBeUndefined();
    expect(parseEmbeddedModeMessage({ type: 'embedded-mode', chrome: 'false' })).toBeUndefined();
    expect(parseEmbeddedModeMessage('embedded-mode')).toBeUndefined();
    expect(parseEmbeddedModeMessage(null)).toBeUndefined();
  });
  it('never throws on arbitrary data', () => {
    fc.assert(
      fc.property(fc.anything(), (d) => {
        const m = parseEmbeddedModeMessage(d);
        if (m) expect(m.type).toBe('embedded-mode');
      }),
      { seed: 1, numRuns: 300 },
    );
  });
});

describe('origins', () => {
  const app = 'https://app.furrow.test';
  it('allows exactly the listed origins and the app itself', () => {
    expect(isOriginAllowed('https://partner.example', ['https://partner.example'], app)).toBe(true);
    expect(isOriginAllowed('https://partner.example:443', ['https://partner.example'], app)).toBe(true);
    expect(isOriginAllowed(app, [], app)).toBe(true);
  });
  it('refuses look-alikes, other schemes and ports, null origins', () => {
    const allowed = ['https://partner.example'];
    for (const o of [
      'http://partner.example',
      'https://partner.example.evil.test',
      'https://evil-partner.example',
      'https://partner.example:8443',
      'null',
      '',
      'file://x',
    ]) {
      expect(isOriginAllowed(o, allowed, app), o).toBe(false);
    }
  });
});

describe('partner theme', () => {
  it('keeps colours and drops anything that could inject CSS', () => {
    expect(
      sanitizeTheme({
        primaryColor: '#0a4d8c',
        accentColor: 'url(javascript:x)',
        textColor: 'red;}body{display:none',
        name: ' Acme ',
      }),
    ).toEqual({
      primaryColor: '#0a4d8c',
      name: 'Acme',
    });
    expect(sanitizeTheme({ primaryColor: 'expression(alert(1))' })).toBeUndefined();
  });
});
