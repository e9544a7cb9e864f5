/**
 * The report as an A4 PDF with pdfkit: the blocks of content.ts laid out top to bottom with page
 * breaks of our own (every block is measured before it is drawn, so pdfkit never breaks a page in
 * the middle of a drawing), section titles kept with what follows, table headers repeated on a new
 * page, and a footer with the valuation id and "page n of m" on every page.
 * The document is fixed by its input: its dates come from the valuation, so the same data renders
 * to the same bytes.
 */
import PDFDocument from 'pdfkit';
import type { Block, Field, IntervalDrawing, MapDrawing, ReportContent, Section, TableColumn } from './content';
import { reportFonts, type FontName } from './fonts';
import { intervalBar, projectMap } from './geometry';

type Doc = PDFKit.PDFDocument;

const PAGE = { width: 595.28, height: 841.89, top: 40, bottom: 48, left: 44, right: 44 };
const WIDTH = PAGE.width - PAGE.left - PAGE.right;
const BOTTOM = PAGE.height - PAGE.bottom;

const COLOUR = { ink: '#1f2933', muted: '#52606d', faint: '#7b8794', navy: '#17324d', blue: '#2b5d9b', fill: '#c9dcf0', mapFill: '#dce7f3', header: '#e4ebf2', rule: '#cbd2d9', red: '#c0392b' };

const SIZE = { title: 16, subtitle: 9.5, heading: 11.5, subheading: 9.5, body: 8.8, note: 7.8, table: 8, footer: 7 };

/** A font, size and colour at once, so no drawing inherits a setting from the one before. */
interface Style {
  font: FontName;
  size: number;
  colour: string;
}

const BODY: Style = { font: 'regular', size: SIZE.body, colour: COLOUR.ink };
const LABEL: Style = { font: 'regular', size: SIZE.body, colour: COLOUR.muted };
const VALUE: Style = { font: 'bold', size: SIZE.body, colour: COLOUR.ink };
const NOTE: Style = { font: 'regular', size: SIZE.note, colour: COLOUR.muted };
const STRONG: Style = { font: 'bold', size: SIZE.body, colour: COLOUR.ink };
const LINE_GAP = 1.2;

class Layout {
  y = PAGE.top;

  constructor(readonly doc: Doc) {}

  use(style: Style): Doc {
    return this.doc.font(style.font).fontSize(style.size).fillColor(style.colour);
  }

  height(text: string, style: Style, width: number): number {
    return this.use(style).heightOfString(text, { width, lineGap: LINE_GAP });
  }

  width(text: string, style: Style): number {
    return this.use(style).widthOfString(text);
  }

  write(text: string, style: Style, x: number, y: number, width: number, align: 'left' | 'right' | 'center' = 'left'): number {
    const height = this.height(text, style, width);
    this.use(style).text(text, x, y, { width, align, lineGap: LINE_GAP });
    return height;
  }

  /** A new page when `height` does not fit below the cursor. */
  ensure(height: number): void {
    if (this.y + height > BOTTOM) {
      this.doc.addPage();
      this.y = PAGE.top;
    }
  }
}

// ---- measuring and drawing each block -------------------------------------------------------

const FIELD_GAP = 2.5;

interface FieldMetrics {
  rows: Field[][];
  heights: number[];
  labelWidth: number;
  valueWidth: number;
  pairWidth: number;
}

/**
 * Fields as label | value rows in one or two column pairs across `width`, with each row's height.
 * A label takes `labelShare` of its pair, at most 190 pt (labels are short; values get the rest).
 */
function fieldMetrics(l: Layout, fields: Field[], columns: 1 | 2, width = WIDTH, labelShare = columns === 2 ? 0.45 : 0.36): FieldMetrics {
  const pairWidth = columns === 2 ? (width - 14) / 2 : width;
  const labelWidth = Math.min(pairWidth * labelShare, 190);
  const valueWidth = pairWidth - labelWidth - 6;
  const rows: Field[][] = [];
  for (let i = 0; i < fields.length; i += columns) rows.push(fields.slice(i, i + columns));
  const heights = rows.map((row) => Math.max(...row.map((f) => Math.max(l.height(f.label, LABEL, labelWidth), l.height(f.value, VALUE, valueWidth)))) + FIELD_GAP);
  return { rows, heights, labelWidth, valueWidth, pairWidth };
}

/** Draws measured fields from (x, l.y); `paged` lets a long list continue on the next page. */
function drawFieldRows(l: Layout, m: FieldMetrics, x: number, paged: boolean): void {
  m.rows.forEach((row, i) => {
    if (paged) l.ensure(m.heights[i]);
    row.forEach((f, j) => {
      const left = x + j * (m.pairWidth + 14);
      l.write(f.label, LABEL, left, l.y, m.labelWidth);
      l.write(f.value, VALUE, left + m.labelWidth + 6, l.y, m.valueWidth);
    });
    l.y += m.heights[i];
  });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function columnWidths(columns: TableColumn[]): number[] {
  const total = columns.reduce((sum, c) => sum + c.weight, 0);
  return columns.map((c) => (c.weight / total) * WIDTH);
}

const CELL_PAD = 3;
const TABLE_HEAD: Style = { font: 'condensedBold', size: SIZE.table, colour: COLOUR.navy };
const TABLE_CELL: Style = { font: 'condensed', size: SIZE.table, colour: COLOUR.ink };

function rowHeight(l: Layout, cells: string[], widths: number[], style: Style): number {
  return Math.max(...cells.map((cell, i) => l.height(cell, style, widths[i] - 2 * CELL_PAD))) + 2 * CELL_PAD;
}

function drawRow(l: Layout, cells: string[], columns: TableColumn[], widths: number[], style: Style, header: boolean): void {
  const height = rowHeight(l, cells, widths, style);
  if (header) l.doc.rect(PAGE.left, l.y, WIDTH, height).fill(COLOUR.header);
  let x = PAGE.left;
  cells.forEach((cell, i) => {
    l.write(cell, style, x + CELL_PAD, l.y + CELL_PAD, widths[i] - 2 * CELL_PAD, columns[i].numeric ? 'right' : 'left');
    x += widths[i];
  });
  l.y += height;
  if (!header) l.doc.moveTo(PAGE.left, l.y).lineTo(PAGE.left + WIDTH, l.y).lineWidth(0.4).strokeColor(COLOUR.rule).stroke();
}

/** A table up to this tall moves whole to the next page rather than split. */
const KEEP_TOGETHER = 220;

function tableHeight(l: Layout, columns: TableColumn[], rows: string[][]): { head: number; first: number; total: number } {
  const widths = columnWidths(columns);
  const head = rowHeight(l, columns.map((c) => c.title), widths, TABLE_HEAD);
  const heights = rows.map((row) => rowHeight(l, row, widths, TABLE_CELL));
  return { head, first: heights[0] ?? 0, total: head + sum(heights) + 4 };
}

function drawTable(l: Layout, columns: TableColumn[], rows: string[][]): void {
  const widths = columnWidths(columns);
  const titles = columns.map((c) => c.title);
  const size = tableHeight(l, columns, rows);
  l.ensure(size.total <= KEEP_TOGETHER ? size.total : size.head + size.first);
  drawRow(l, titles, columns, widths, TABLE_HEAD, true);
  for (const row of rows) {
    const height = rowHeight(l, row, widths, TABLE_CELL);
    if (l.y + height > BOTTOM) {
      l.ensure(Infinity);
      drawRow(l, titles, columns, widths, TABLE_HEAD, true);
    }
    drawRow(l, row, columns, widths, TABLE_CELL, false);
  }
  l.y += 4;
}

const BAR = { top: 16, height: 13 };
const BAR_LABEL: Style = { font: 'regular', size: SIZE.body, colour: COLOUR.navy };
const BAR_ESTIMATE: Style = { font: 'bold', size: 11, colour: COLOUR.red };
const BAR_UZS: Style = { font: 'regular', size: SIZE.note, colour: COLOUR.muted };

function intervalHeight(d: IntervalDrawing): number {
  return BAR.top + BAR.height + (d.uzs ? 30 : 18) + 4;
}

/** Text centred on x, kept inside the content width. */
function centred(l: Layout, text: string, style: Style, x: number, y: number): void {
  const width = l.width(text, style) + 2;
  const left = Math.min(Math.max(x - width / 2, PAGE.left), PAGE.left + WIDTH - width);
  l.write(text, style, left, y, width, 'center');
}

function drawInterval(l: Layout, d: IntervalDrawing): void {
  l.ensure(intervalHeight(d));
  const { doc } = l;
  const top = l.y;
  const g = intervalBar(d.low, d.high, d.estimate, PAGE.left + 6, WIDTH - 12);
  const barY = top + BAR.top;
  const mid = barY + BAR.height / 2;
  doc.moveTo(PAGE.left, mid).lineTo(PAGE.left + WIDTH, mid).lineWidth(0.6).strokeColor(COLOUR.rule).stroke();
  doc.roundedRect(g.lowX, barY, g.highX - g.lowX, BAR.height, 2).lineWidth(0.9).fillAndStroke(COLOUR.fill, COLOUR.blue);
  doc.moveTo(g.estimateX, barY - 4).lineTo(g.estimateX, barY + BAR.height + 3).lineWidth(2.4).strokeColor(COLOUR.red).stroke();
  centred(l, d.estimateText, BAR_ESTIMATE, g.estimateX, top);
  const below = barY + BAR.height + 4;
  centred(l, d.lowText, BAR_LABEL, g.lowX, below);
  centred(l, d.highText, BAR_LABEL, g.highX, below);
  if (d.uzs) {
    centred(l, d.uzs.lowText, BAR_UZS, g.lowX, below + 13);
    centred(l, d.uzs.highText, BAR_UZS, g.highX, below + 13);
    const room = Math.min(g.estimateX - g.lowX, g.highX - g.estimateX);
    if (room > l.width(d.uzs.estimateText, BAR_UZS) / 2 + l.width(d.uzs.highText, BAR_UZS) / 2 + 8) centred(l, d.uzs.estimateText, BAR_UZS, g.estimateX, below + 13);
  }
  l.y = top + intervalHeight(d);
}

const MAP = { width: 190, height: 150, padding: 10 };

/** The index figures beside the map, in the width the map leaves. */
const asideMetrics = (l: Layout, d: MapDrawing) => fieldMetrics(l, d.aside, 1, WIDTH - MAP.width - 16, 0.62);

function mapHeight(l: Layout, d: MapDrawing): number {
  return Math.max(MAP.height + 14, sum(asideMetrics(l, d).heights)) + 4;
}

function drawMap(l: Layout, d: MapDrawing): void {
  l.ensure(mapHeight(l, d));
  const { doc } = l;
  const top = l.y;
  const box = { x: PAGE.left, y: top, width: MAP.width, height: MAP.height };
  const g = projectMap(d.outline, d.lat, d.lon, box, MAP.padding);
  doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.6).fillAndStroke('#f8fafc', COLOUR.rule);
  if (g.rings.length) {
    for (const ring of g.rings) {
      doc.moveTo(ring[0][0], ring[0][1]);
      for (const [x, y] of ring.slice(1)) doc.lineTo(x, y);
      doc.closePath();
    }
    doc.lineWidth(0.9).lineJoin('round').fillAndStroke(COLOUR.mapFill, COLOUR.blue, 'even-odd');
  } else {
    centred(l, d.noOutline, NOTE, box.x + box.width / 2, box.y + box.height - 26);
  }
  doc.circle(g.point[0], g.point[1], 3.6).lineWidth(1.2).fillAndStroke(COLOUR.red, '#ffffff');
  const sy = box.y + box.height - 8;
  doc.moveTo(box.x + 6, sy - 3).lineTo(box.x + 6, sy).lineTo(box.x + 6 + g.scale.length, sy).lineTo(box.x + 6 + g.scale.length, sy - 3).lineWidth(0.9).strokeColor(COLOUR.ink).stroke();
  l.write(d.scaleLabel(g.scale.km), { font: 'regular', size: 6.5, colour: COLOUR.ink }, box.x + 10 + g.scale.length, sy - 6, 60);
  const nx = box.x + box.width - 10;
  l.write('N', { font: 'bold', size: 7.5, colour: COLOUR.ink }, nx - 5, box.y + 4, 10, 'center');
  doc.polygon([nx, box.y + 13], [nx - 3, box.y + 20], [nx + 3, box.y + 20]).fill(COLOUR.ink);
  l.write(d.caption, NOTE, box.x, box.y + box.height + 3, box.width);
  drawFieldRows(l, asideMetrics(l, d), PAGE.left + MAP.width + 16, false);
  l.y = top + mapHeight(l, d);
}

const FLAG_INDENT = 10;

function flagHeight(l: Layout, f: { title: string; code: string; explanation: string }): number {
  return l.height(`${f.title}  ${f.code}`, STRONG, WIDTH - FLAG_INDENT) + l.height(f.explanation, BODY, WIDTH - FLAG_INDENT) + 4;
}

function drawFlags(l: Layout, flags: { code: string; title: string; explanation: string }[]): void {
  for (const f of flags) {
    l.ensure(flagHeight(l, f));
    l.doc.circle(PAGE.left + 3, l.y + 5, 1.8).fill(COLOUR.red);
    // The code follows the title in the same line, smaller and grey (an unknown flag's title is its code).
    const code = f.title === f.code ? '' : f.code;
    l.use(STRONG).text(`${f.title}  `, PAGE.left + FLAG_INDENT, l.y, { width: WIDTH - FLAG_INDENT, continued: code !== '', lineGap: LINE_GAP });
    if (code) l.use({ font: 'condensed', size: SIZE.note, colour: COLOUR.faint }).text(code, { lineGap: LINE_GAP });
    l.y += l.height(`${f.title}  ${code}`, STRONG, WIDTH - FLAG_INDENT);
    l.y += l.write(f.explanation, BODY, PAGE.left + FLAG_INDENT, l.y, WIDTH - FLAG_INDENT) + 4;
  }
}

function drawList(l: Layout, items: Field[]): void {
  for (const item of items) {
    const text = item.value ? `${item.label}: ${item.value}` : item.label;
    const height = l.height(text, BODY, WIDTH - FLAG_INDENT) + 2;
    l.ensure(height);
    l.doc.circle(PAGE.left + 3, l.y + 4.5, 1.5).fill(COLOUR.blue);
    if (item.value) {
      l.use(BODY).text(`${item.label}: `, PAGE.left + FLAG_INDENT, l.y, { width: WIDTH - FLAG_INDENT, continued: true, lineGap: LINE_GAP });
      l.use(VALUE).text(item.value, { lineGap: LINE_GAP });
    } else {
      l.write(item.label, BODY, PAGE.left + FLAG_INDENT, l.y, WIDTH - FLAG_INDENT);
    }
    l.y += height;
  }
}

const TEXT_STYLE: Readonly<Record<'body' | 'note' | 'strong', Style>> = { body: BODY, note: NOTE, strong: STRONG };

/** A conservative height of a block's first part: what must fit under a section title. */
function leadHeight(l: Layout, b: Block): number {
  switch (b.type) {
    case 'fields': return sum(fieldMetrics(l, b.fields.slice(0, b.columns * 2), b.columns).heights);
    case 'subheading': return 20;
    case 'text': return l.height(b.text, TEXT_STYLE[b.tone], WIDTH) + 4;
    case 'list': return 24;
    case 'table': {
      const size = tableHeight(l, b.columns, b.rows);
      return size.total <= KEEP_TOGETHER ? size.total : size.head + size.first;
    }
    case 'interval': return intervalHeight(b.drawing);
    case 'map': return mapHeight(l, b.drawing);
    case 'flags': return flagHeight(l, b.flags[0]);
  }
}

function drawBlock(l: Layout, b: Block): void {
  switch (b.type) {
    case 'fields': drawFieldRows(l, fieldMetrics(l, b.fields, b.columns), PAGE.left, true); l.y += 3; return;
    case 'subheading': {
      const style: Style = { font: 'bold', size: SIZE.subheading, colour: COLOUR.navy };
      l.ensure(l.height(b.text, style, WIDTH) + 24);
      l.y += 3;
      l.y += l.write(b.text, style, PAGE.left, l.y, WIDTH) + 3;
      return;
    }
    case 'text': {
      const height = l.height(b.text, TEXT_STYLE[b.tone], WIDTH);
      l.ensure(height);
      l.y += l.write(b.text, TEXT_STYLE[b.tone], PAGE.left, l.y, WIDTH) + 4;
      return;
    }
    case 'list': drawList(l, b.items); l.y += 2; return;
    case 'table': drawTable(l, b.columns, b.rows); return;
    case 'interval': drawInterval(l, b.drawing); return;
    case 'map': drawMap(l, b.drawing); return;
    case 'flags': drawFlags(l, b.flags); return;
  }
}

const HEADING: Style = { font: 'bold', size: SIZE.heading, colour: COLOUR.navy };

function drawSection(l: Layout, s: Section): void {
  const titleHeight = l.height(s.title, HEADING, WIDTH) + 8;
  const first = s.blocks[0];
  l.ensure(titleHeight + 10 + (first ? leadHeight(l, first) : 0));
  l.y += 10;
  const colour = s.id === 'disclaimer' ? COLOUR.red : COLOUR.navy;
  l.write(s.title, { ...HEADING, colour }, PAGE.left, l.y, WIDTH);
  l.y += titleHeight - 4;
  l.doc.moveTo(PAGE.left, l.y - 2).lineTo(PAGE.left + WIDTH, l.y - 2).lineWidth(1.1).strokeColor(colour).stroke();
  l.y += 3;
  for (const b of s.blocks) drawBlock(l, b);
}

function drawHeader(l: Layout, c: ReportContent): void {
  l.y += l.write(c.title, { font: 'bold', size: SIZE.title, colour: COLOUR.navy }, PAGE.left, l.y, WIDTH);
  l.y += l.write(c.subtitle, { font: 'regular', size: SIZE.subtitle, colour: COLOUR.muted }, PAGE.left, l.y + 1, WIDTH) + 6;
  // One column: identifiers are long (val_01JD…, organisation ids) and must not wrap mid-word.
  drawFieldRows(l, fieldMetrics(l, c.header, 1), PAGE.left, true);
}

/** Footer of every page, drawn once the page count is known (bufferPages). */
function drawFooters(l: Layout, c: ReportContent): void {
  const { doc } = l;
  const range = doc.bufferedPageRange();
  const style: Style = { font: 'regular', size: SIZE.footer, colour: COLOUR.faint };
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would make pdfkit open a page: lift the margin while we do.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - PAGE.bottom + 18;
    doc.moveTo(PAGE.left, y - 5).lineTo(PAGE.left + WIDTH, y - 5).lineWidth(0.4).strokeColor(COLOUR.rule).stroke();
    l.write(c.footer, style, PAGE.left, y, WIDTH * 0.75);
    l.write(c.page(i - range.start + 1, range.count), style, PAGE.left + WIDTH * 0.75, y, WIDTH * 0.25, 'right');
    doc.page.margins.bottom = margin;
  }
}

export interface PdfOptions {
  /** The PDF's creation date; the valuation's own time by default, so output is reproducible. */
  creationDate: Date;
  subject: string;
}

export function contentToPdf(c: ReportContent, options: PdfOptions): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    bufferPages: true,
    lang: c.lang,
    displayTitle: true,
    info: { Title: c.title, Subject: options.subject, Creator: 'tashkent-valuation', CreationDate: options.creationDate, ModDate: options.creationDate },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // @types/pdfkit lists paths and buffers only; pdfkit itself takes a parsed fontkit font too.
  for (const [name, font] of Object.entries(reportFonts())) doc.registerFont(name, font as unknown as PDFKit.Mixins.PDFFontSource);
  const layout = new Layout(doc);
  drawHeader(layout, c);
  for (const s of c.sections) drawSection(layout, s);
  drawFooters(layout, c);
  doc.end();
  return done;
}
