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
  getGlyph(id: number, codePoints?: number[]): { codePoints: number[] } | null;
}

/**
 * fontkit keeps each glyph with the code points it was first asked for. A subset that reaches a glyph
 * as a component of another (DejaVu draws Cyrillic В with the Latin B) asks for it with none, and the
 * shared font then hands that glyph without code points to every later document of the process:
 * pdfkit leaves it out of the PDF's ToUnicode map, and the letter vanishes when the text is copied,
 * searched or read by a screen reader ("By month" became "y month" after a Russian report). A glyph
 * asked for with code points takes them when it has none.
 */
function keepingCodePoints(font: ParsedFont): ParsedFont {
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id, codePoints = []) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && glyph.codePoints.length === 0 && codePoints.length > 0) glyph.codePoints = codePoints;
    return glyph;
  };
  return font;
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
    Object.entries(FONT_FILES).map(([name, file]) => [name, keepingCodePoints(fontkit.create(readFileSync(fontPath(file))))]),
  ) as Record<FontName, ParsedFont>;
  return parsed;
}
