import { describe, expect, it } from 'vitest';
import { parseMachines } from './fleet.js';

describe('furrow fleet --machines', () => {
  it('reads id:width[:turnRadius] lists', () => {
    expect(parseMachines('a:6, b:12:8')).toEqual([
      { id: 'a', widthMeters: 6 },
      { id: 'b', widthMeters: 12, turnRadiusMeters: 8 },
    ]);
  });
  it('names what it cannot read', () => {
    expect(() => parseMachines('a')).toThrow(/"a"/);
    expect(() => parseMachines('a:6:x')).toThrow(/turn radius/);
  });
});
