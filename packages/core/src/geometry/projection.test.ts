import { describe, expect, it } from 'vitest';
import proj4 from 'proj4';
import { createLocalFrame } from './projection.js';
import { seededRandom } from './random.js';

describe('createLocalFrame', () => {
  // The frame calls the projection's forward and inverse directly: the numbers must be proj4's converter's, bit for
  // bit.
  it(
    'gives exactly what proj4 between WGS 84 and the frame gives, both ways, across latitudes and far from the ' +
      'centre',
    () => {
      const rnd = seededRandom(7);
      for (const [lon0, lat0] of [
        [11.2, 48.1],
        [-93.5, 41.9],
        [147.3, -35.2],
        [24.9, 67.8],
        [0, 0],
      ]) {
        const frame = createLocalFrame([
          [lon0 - 0.01, lat0 - 0.01],
          [lon0 + 0.01, lat0 + 0.01],
        ]);
        const conv = proj4('EPSG:4326', frame.definition);
        for (let i = 0; i < 2000; i++) {
          // within 20 km of the centre, and a few far out (a field is a few km at most)
          const span = i < 1900 ? 0.2 : 3;
          const lon = lon0 + (rnd() - 0.5) * span,
            lat = lat0 + (rnd() - 0.5) * span;
          expect(frame.toLocal(lon, lat)).toEqual(conv.forward([lon, lat]));
          const x = (rnd() - 0.5) * (i < 1900 ? 20_000 : 300_000),
            y = (rnd() - 0.5) * (i < 1900 ? 20_000 : 300_000);
          expect(frame.toLonLat(x, y)).toEqual(conv.inverse([x, y]));
        }
      }
    },
  );

  it('keeps proj4 behaviour for coordinates that are not finite numbers', () => {
    const frame = createLocalFrame([
      [11, 48],
      [11.01, 48.01],
    ]);
    const conv = proj4('EPSG:4326', frame.definition);
    for (const bad of [NaN, Infinity]) {
      let mine: unknown, theirs: unknown;
      try {
        mine = frame.toLocal(bad, 48);
      } catch (e) {
        mine = (e as Error).message;
      }
      try {
        theirs = conv.forward([bad, 48]);
      } catch (e) {
        theirs = (e as Error).message;
      }
      expect(mine).toEqual(theirs);
    }
  });
});
