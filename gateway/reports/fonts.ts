/**
 * The TrueType fonts the PDF embeds: DejaVu Sans (regular, bold, condensed for tables) from the
 * npm package dejavu-fonts-ttf, so every install has them and no system font is needed. DejaVu
 * covers Cyrillic and the Uzbek Latin letters, U+02BB (oʻ, gʻ) and U+02BC (eʼlon) among them;
 * pdfkit embeds only the glyphs a report uses.
 * Parsed once per process with fontkit (pdfkit's own font engine) and handed to every document:
 * parsing four ~700 KB fonts is most of a render otherwise (~60 ms of ~70). A parsed font is only
 * read by a document (each makes its own subset), and its caches are bounded by the glyph count.
 */
import { readFileSync } from 'node:fs';

// fontkit ships no types: the one call used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = require('fontkit') as { create(buffer: Buffer): ParsedFont };

/** A fontkit font object; pdfkit ≥ 0.16 takes one where it takes a path or a buffer. */
export interface ParsedFont {
  layout(text: string): unknown;
}

export const FONT_FILES = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  condensed: 'DejaVuSansCondensed.ttf',
  condensedBold: 'DejaVuSansCondensed-Bold.ttf',
} as const;

export type FontName = keyof typeof FONT_FILES;

let parsed: Readonly<Record<FontName, ParsedFont>> | null = null;

/** Where a DejaVu file is installed (the package has no exports map: its ttf/ folder is reachable). */
export function fontPath(file: string): string {
  return require.resolve(`dejavu-fonts-ttf/ttf/${file}`);
}

export function reportFonts(): Readonly<Record<FontName, ParsedFont>> {
  parsed ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => [name, fontkit.create(readFileSync(fontPath(file)))]),
  ) as Record<FontName, ParsedFont>;
  return parsed;
}
