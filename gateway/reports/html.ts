/**
 * The report as one self-contained HTML document: inline CSS, inline SVG for the interval bar and
 * the map, no script and no external request (a Content-Security-Policy of default-src 'none'
 * says so to the browser too), so it can be mailed, archived or printed as it is. Every piece of
 * text goes through escapeHtml: object values, mahalla names and labels come from listings and
 * clients, and may hold <, & or quotes.
 */
import type { Block, Field, IntervalDrawing, MapDrawing, ReportContent, Section, TableColumn } from './content';
import { intervalBar, projectMap, type Point } from './geometry';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in an element and in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Coordinates in SVG attributes: one decimal is a tenth of a pixel. */
const n = (v: number) => (Math.round(v * 10) / 10).toString();

const CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f3f4f6;color:#1f2933;font:14px/1.45 "DejaVu Sans","Segoe UI",Roboto,Arial,sans-serif}
.report{max-width:210mm;margin:0 auto;padding:14mm 16mm;background:#fff}
h1{font-size:22px;margin:0 0 2px;color:#17324d}
.subtitle{margin:0 0 12px;color:#52606d}
h2{font-size:16px;margin:20px 0 8px;padding-bottom:3px;border-bottom:2px solid #17324d;color:#17324d}
h3{font-size:14px;margin:12px 0 6px;color:#323f4b}
dl.fields{display:grid;grid-template-columns:minmax(120px,38%) 1fr;gap:3px 12px;margin:0}
dl.fields.two{grid-template-columns:minmax(110px,22%) 1fr minmax(110px,22%) 1fr}
dt{color:#52606d}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
p{margin:6px 0}.note{color:#52606d;font-size:12.5px}.strong{font-weight:600}
table{width:100%;border-collapse:collapse;table-layout:fixed;font-size:12.5px}
th{text-align:left;vertical-align:bottom;background:#e4ebf2;color:#17324d;padding:4px 6px;font-weight:600}
td{padding:4px 6px;border-bottom:1px solid #e4e7eb;overflow-wrap:anywhere}
td.num{text-align:right;white-space:nowrap}th.num{text-align:right}
ul{margin:4px 0;padding-left:20px}
ul.flags li{margin-bottom:6px}
code{font-size:11.5px;color:#7b8794}
.location{display:flex;gap:18px;align-items:flex-start;flex-wrap:wrap}
.location figure{margin:0}
.location figcaption{font-size:12px;color:#52606d}
.location dl.fields{flex:1;min-width:260px;grid-template-columns:minmax(150px,60%) 1fr}
svg text{font-family:"DejaVu Sans","Segoe UI",Roboto,Arial,sans-serif}
#disclaimer{border:1px solid #c0392b;border-radius:4px;padding:2px 12px 8px;margin-top:20px}
#disclaimer h2{border-bottom-color:#c0392b;color:#c0392b}
@page{size:A4;margin:12mm}
@media print{body{background:#fff}.report{padding:0;max-width:none}section{break-inside:avoid}}
`;

function fields(list: Field[], columns: 1 | 2): string {
  const items = list.map((f) => `<dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}</dd>`).join('');
  return `<dl class="fields${columns === 2 ? ' two' : ''}">${items}</dl>`;
}

function table(columns: TableColumn[], rows: string[][]): string {
  const total = columns.reduce((sum, c) => sum + c.weight, 0);
  const cls = (c: TableColumn) => (c.numeric ? ' class="num"' : '');
  const cols = columns.map((c) => `<col style="width:${n((c.weight / total) * 100)}%">`).join('');
  const head = columns.map((c) => `<th${cls(c)}>${escapeHtml(c.title)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell, i) => `<td${cls(columns[i])}>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('');
  return `<table><colgroup>${cols}</colgroup><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const BAR = { width: 640, x0: 10, barY: 34, barHeight: 16 };

/** The interval as a bar from low to high with the estimate marked; soʻm beneath the dollars. */
export function intervalSvg(d: IntervalDrawing): string {
  const g = intervalBar(d.low, d.high, d.estimate, BAR.x0, BAR.width - 2 * BAR.x0);
  const below = BAR.barY + BAR.barHeight;
  const height = below + (d.uzs ? 40 : 24);
  const label = (x: number, y: number, text: string, cls: string) => `<text x="${n(x)}" y="${n(y)}" text-anchor="middle" class="${cls}">${escapeHtml(text)}</text>`;
  const parts = [
    `<line x1="${BAR.x0}" y1="${n(BAR.barY + BAR.barHeight / 2)}" x2="${BAR.width - BAR.x0}" y2="${n(BAR.barY + BAR.barHeight / 2)}" stroke="#cbd2d9" stroke-width="1"/>`,
    `<rect class="interval" x="${n(g.lowX)}" y="${BAR.barY}" width="${n(g.highX - g.lowX)}" height="${BAR.barHeight}" rx="3" fill="#c9dcf0" stroke="#2b5d9b" stroke-width="1.2"/>`,
    `<line class="estimate" x1="${n(g.estimateX)}" y1="${BAR.barY - 6}" x2="${n(g.estimateX)}" y2="${below + 4}" stroke="#c0392b" stroke-width="3"/>`,
    label(g.estimateX, BAR.barY - 11, d.estimateText, 'estimate-label'),
    label(g.lowX, below + 17, d.lowText, 'low-label'),
    label(g.highX, below + 17, d.highText, 'high-label'),
  ];
  if (d.uzs) {
    parts.push(label(g.lowX, below + 33, d.uzs.lowText, 'uzs'), label(g.highX, below + 33, d.uzs.highText, 'uzs'));
    // The soʻm estimate goes under the mark only when it cannot run into the end labels.
    const gap = Math.min(g.estimateX - g.lowX, g.highX - g.estimateX);
    if (gap > 150) parts.push(label(g.estimateX, below + 33, d.uzs.estimateText, 'uzs'));
  }
  const style = '<style>.estimate-label{font-weight:700;font-size:15px;fill:#c0392b}.low-label,.high-label{font-size:13px;fill:#17324d}.uzs{font-size:12px;fill:#52606d}</style>';
  return `<svg class="interval-bar" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${BAR.width} ${height}" width="100%" role="img" aria-label="${escapeHtml(`${d.lowText} – ${d.highText}; ${d.estimateText}`)}">${style}${parts.join('')}</svg>`;
}

const MAP = { width: 280, height: 220, padding: 14 };

const path = (ring: Point[]) => `M${ring.map(([x, y]) => `${n(x)} ${n(y)}`).join('L')}Z`;

/** The district outline and the point, north up, with a scale bar. */
export function mapSvg(d: MapDrawing): string {
  const g = projectMap(d.outline, d.lat, d.lon, { x: 0, y: 0, width: MAP.width, height: MAP.height }, MAP.padding);
  const parts = [`<rect x="0.5" y="0.5" width="${MAP.width - 1}" height="${MAP.height - 1}" fill="#f8fafc" stroke="#cbd2d9"/>`];
  if (g.rings.length) parts.push(`<path class="district" d="${g.rings.map(path).join('')}" fill="#dce7f3" fill-rule="evenodd" stroke="#2b5d9b" stroke-width="1.2" stroke-linejoin="round"/>`);
  else parts.push(`<text x="${MAP.width / 2}" y="${MAP.height - 30}" text-anchor="middle" font-size="11" fill="#7b8794">${escapeHtml(d.noOutline)}</text>`);
  const [px, py] = g.point;
  parts.push(`<circle class="point" cx="${n(px)}" cy="${n(py)}" r="5" fill="#c0392b" stroke="#fff" stroke-width="1.5"/>`);
  const sy = MAP.height - 10;
  parts.push(
    `<path d="M8 ${sy - 4}V${sy}H${n(8 + g.scale.length)}V${sy - 4}" fill="none" stroke="#323f4b" stroke-width="1.2"/>`,
    `<text x="${n(12 + g.scale.length)}" y="${sy}" font-size="10" fill="#323f4b">${escapeHtml(d.scaleLabel(g.scale.km))}</text>`,
    `<text x="${MAP.width - 12}" y="18" text-anchor="middle" font-size="11" font-weight="700" fill="#323f4b">N</text>`,
    `<path d="M${MAP.width - 12} 22l-4 9h8z" fill="#323f4b"/>`,
  );
  return `<svg class="map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MAP.width} ${MAP.height}" width="${MAP.width}" height="${MAP.height}" role="img" aria-label="${escapeHtml(d.caption)}">${parts.join('')}</svg>`;
}

function block(b: Block): string {
  switch (b.type) {
    case 'fields': return fields(b.fields, b.columns);
    case 'subheading': return `<h3>${escapeHtml(b.text)}</h3>`;
    case 'text': return `<p class="${b.tone}">${escapeHtml(b.text)}</p>`;
    case 'list': return `<ul>${b.items.map((i) => `<li>${escapeHtml(i.label)}${i.value ? `: <strong>${escapeHtml(i.value)}</strong>` : ''}</li>`).join('')}</ul>`;
    case 'table': return table(b.columns, b.rows);
    case 'interval': return intervalSvg(b.drawing);
    case 'map':
      return `<div class="location"><figure>${mapSvg(b.drawing)}<figcaption>${escapeHtml(b.drawing.caption)}</figcaption></figure>${fields(b.drawing.aside, 1)}</div>`;
    case 'flags':
      return `<ul class="flags">${b.flags.map((f) => `<li><strong>${escapeHtml(f.title)}</strong>${f.title === f.code ? '' : ` <code>${escapeHtml(f.code)}</code>`}<br>${escapeHtml(f.explanation)}</li>`).join('')}</ul>`;
  }
}

const section = (s: Section) => `<section id="${s.id}"><h2>${escapeHtml(s.title)}</h2>${s.blocks.map(block).join('')}</section>`;

/** The report page loads and runs nothing: inline styles only. Sent as a header by the route, and kept in the page for a saved copy. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'";

export function contentToHtml(c: ReportContent): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="${c.lang}">`,
    '<head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${c.title} · ${c.header[0]?.value ?? ''}`)}</title>`,
    `<style>${CSS}</style></head>`,
    '<body><main class="report">',
    `<header><h1>${escapeHtml(c.title)}</h1><p class="subtitle">${escapeHtml(c.subtitle)}</p>${fields(c.header, 1)}</header>`,
    ...c.sections.map(section),
    '</main></body></html>',
  ].join('\n');
}
