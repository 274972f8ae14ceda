/** Reading a chart picture back: its size and the colour at a point of the plotted series. */
import { PNG } from 'pngjs';

export interface Decoded {
  width: number;
  height: number;
  /** The colour at (x, y) as "#rrggbb". */
  at(x: number, y: number): string;
  /** True when a pixel within `r` of (x, y) is close to `hex` (lines are anti-aliased). */
  near(x: number, y: number, hex: string, r?: number): boolean;
}

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

export function decodePng(bytes: Uint8Array): Decoded {
  const png = PNG.sync.read(Buffer.from(bytes));
  const px = (x: number, y: number) => {
    const i = (Math.round(y) * png.width + Math.round(x)) * 4;
    return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
  };
  return {
    width: png.width,
    height: png.height,
    at: (x, y) =>
      `#${px(x, y)
        .map((c) => c.toString(16).padStart(2, '0'))
        .join('')}`,
    near(x, y, hex, r = 1) {
      const want = rgb(hex);
      for (let dx = -r; dx <= r; dx++)
        for (let dy = -r; dy <= r; dy++) {
          const got = px(x + dx, y + dy);
          if (got.every((c, k) => Math.abs(c - want[k]!) <= 12)) return true;
        }
      return false;
    },
  };
}
