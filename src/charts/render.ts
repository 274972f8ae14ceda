/**
 * SVG to PNG in this process with resvg (Rust, prebuilt binary; no browser). Text needs a font
 * file: DejaVu Sans where the system has it (the image installs fonts-dejavu-core), or CHART_FONT;
 * without one the lines are drawn and the words are left out.
 */
import { existsSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';

const CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/Library/Fonts/DejaVuSans.ttf',
];

let fontFiles: string[] | undefined;

/** The font files text is set in (found once). */
export function chartFonts(env: NodeJS.ProcessEnv = process.env): string[] {
  if (!fontFiles) {
    const bold = (f: string) => f.replace(/DejaVuSans\.ttf$/, 'DejaVuSans-Bold.ttf');
    const found = [env.CHART_FONT, ...CANDIDATES].find((f): f is string => Boolean(f && existsSync(f)));
    fontFiles = found ? [found, bold(found)].filter((f) => existsSync(f)) : [];
  }
  return fontFiles;
}

export interface Rendered {
  png: Buffer;
  width: number;
  height: number;
}

export function renderPng(svg: string): Rendered {
  const fonts = chartFonts();
  const resvg = new Resvg(svg, {
    font: { fontFiles: fonts, loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
    shapeRendering: 2,
    textRendering: 1,
  });
  const image = resvg.render();
  return { png: image.asPng(), width: image.width, height: image.height };
}
