import { describe, expect, it } from 'vitest';
import { PLAN_FORMATS } from '@furrow/format-vendor';
import { ApiError, EXPORT_FORMATS, fileNameFrom } from './api.js';
import { launchFailureMessage, launchTarget } from './launch.js';

describe('launchFailureMessage', () => {
  it('names the cause only when the API says which', () => {
    expect(launchFailureMessage(new ApiError(400, 'LaunchCodeExpired', 'x')).title).toMatch(/expired/);
    expect(launchFailureMessage(new ApiError(400, 'LaunchCodeUsed', 'x')).title).toMatch(/already used/);
    // The real API answers 401 with one message for unknown, expired and replayed codes.
    const generic = launchFailureMessage(
      new ApiError(401, 'Unauthorized', 'the launch code is unknown, expired or already used'),
    );
    expect(generic.title).toMatch(/can no longer be used/);
    expect(launchFailureMessage(new ApiError(0, 'NetworkError', 'offline')).title).toMatch(/reach/);
    expect(launchFailureMessage(new ApiError(503, 'X', 'down')).body).toContain('down');
    expect(launchFailureMessage(new Error('boom')).title).toBe('Sign-in failed');
  });
});

describe('launchTarget', () => {
  const app = 'https://furrow.example';
  it('goes to the home page when no page is named', () => {
    expect(launchTarget(null, null, app)).toBe('/');
    expect(launchTarget('', '  ', app)).toBe('/');
  });
  it('prefers the stored returnUrl and refuses other origins', () => {
    expect(launchTarget(`${app}/path-planning/boundary/b1?embedded=true`, '/profile', app)).toBe(
      '/path-planning/boundary/b1?embedded=true',
    );
    expect(launchTarget(null, '/profile', app)).toBe('/profile');
    expect(launchTarget('https://evil.example/x', null, app)).toBeUndefined();
  });
});

describe('downloads', () => {
  it('offers every plan export format of @furrow/format-vendor', () => {
    expect(EXPORT_FORMATS.map((f) => f.id).sort()).toEqual([...PLAN_FORMATS].sort());
  });
  it('takes a safe file name from Content-Disposition', () => {
    expect(fileNameFrom('attachment; filename="North_meadow.kml"', 'x')).toBe('North_meadow.kml');
    expect(fileNameFrom('attachment; filename="../../etc/passwd"', 'fallback.kml')).toBe('fallback.kml');
    expect(fileNameFrom(null, 'fallback.kml')).toBe('fallback.kml');
  });
});
