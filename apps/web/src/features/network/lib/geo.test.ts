import { describe, expect, it } from 'vitest';
import { coordinateText, directionsUrl, formatKm, typedCoordinate } from './geo';

describe('the network’s coordinates and distances', () => {
  it('reads a typed coordinate with a comma or a dot, and refuses anything else', () => {
    expect(typedCoordinate('-23,5614')).toBe(-23.5614);
    expect(typedCoordinate(' -46.6559 ')).toBe(-46.6559);
    expect(typedCoordinate('23')).toBe(23);
    expect(typedCoordinate('')).toBeNaN();
    expect(typedCoordinate('-23,5,6')).toBeNaN();
    expect(typedCoordinate('sul')).toBeNaN();
  });

  it('writes a picked coordinate back with six decimals and the pt-BR comma', () => {
    expect(coordinateText(-23.561412345)).toBe('-23,561412');
    expect(coordinateText(-46)).toBe('-46');
  });

  it('shows km with one decimal, the pt-BR way, and opens directions to the coordinates', () => {
    expect(formatKm(1.1119)).toBe('1,1');
    expect(formatKm(361.04)).toBe('361,0');
    expect(directionsUrl({ latitude: -23.5614, longitude: -46.6559 })).toBe('https://www.google.com/maps/dir/?api=1&destination=-23.5614,-46.6559');
  });
});
