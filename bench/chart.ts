/**
 * A grouped horizontal bar chart as SVG text, on a log scale (the figures span
 * five decades). Pure; no dependencies.
 */
import { formatMs } from './report.js';

export interface ChartSeries {
  id: string;
  label: string;
  color: string;
}

export interface ChartGroup {
  label: string;
  /** Milliseconds per series id; a missing series draws no bar. */
  values: Partial<Record<string, number>>;
}

/** A decade's tick label: 0.1 ms, 1 ms, ..., 1 s, 10 s. */
export const decadeLabel = (d: number): string =>
  d >= 3 ? `${(10 ** (d - 3)).toLocaleString('en-US')} s` : `${d < 0 ? (10 ** d).toFixed(-d) : 10 ** d} ms`;

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const LEFT = 290;
const PLOT = 560;
const BAR = 11;
const GAP = 14;
const TOP = 58;

export function renderChart(title: string, series: readonly ChartSeries[], groups: readonly ChartGroup[]): string {
  const all = groups
    .flatMap((g) => series.map((s) => g.values[s.id]))
    .filter((v): v is number => v !== undefined && v > 0);
  const lo = Math.floor(Math.log10(Math.min(...all, 1)));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...all, 1))));
  const x = (ms: number): number => ((Math.log10(ms) - lo) / (hi - lo)) * PLOT;
  const groupHeight = (g: ChartGroup): number => series.filter((s) => g.values[s.id] !== undefined).length * BAR + GAP;
  const height = TOP + groups.reduce((h, g) => h + groupHeight(g), 0) + 30;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${LEFT + PLOT + 70}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  series.forEach((s, i) => {
    const lx = 10 + i * 165;
    out.push(`<rect x="${lx}" y="28" width="10" height="10" fill="${s.color}"/>`);
    out.push(`<text x="${lx + 14}" y="37">${escapeXml(s.label)}</text>`);
  });
  const bottom = height - 24;
  for (let d = lo; d <= hi; d++) {
    const gx = LEFT + x(10 ** d);
    out.push(`<line x1="${gx}" y1="${TOP - 6}" x2="${gx}" y2="${bottom}" stroke="#ddd"/>`);
    out.push(`<text x="${gx}" y="${bottom + 14}" text-anchor="middle" fill="#555">${escapeXml(decadeLabel(d))}</text>`);
  }
  let y = TOP;
  for (const g of groups) {
    out.push(`<text x="${LEFT - 8}" y="${y + 9}" text-anchor="end">${escapeXml(g.label)}</text>`);
    for (const s of series) {
      const v = g.values[s.id];
      if (v === undefined) continue;
      const w = Math.max(1, x(Math.max(v, 10 ** lo)));
      out.push(`<rect x="${LEFT}" y="${y}" width="${w.toFixed(1)}" height="${BAR - 2}" fill="${s.color}"/>`);
      out.push(`<text x="${LEFT + w + 4}" y="${y + 8}" fill="#333">${escapeXml(formatMs(v))}</text>`);
      y += BAR;
    }
    y += GAP;
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
