// A rating history chart drawn by hand as SVG: the rating over time, with
// labelled axes (ratings on the left, dates below). `chartLayout` does the
// scaling (pure, unit-tested); `ratingChart` draws it.

/** One point of a rating history. */
export interface RatingPoint {
  at_ms: number;
  rating: number;
}

/** Where a chart's plot area lies inside the picture. */
export interface ChartBox {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A scaled chart: each point's position, the rating ticks and the date ticks. */
export interface ChartLayout {
  points: { x: number; y: number; rating: number; at_ms: number }[];
  yTicks: { value: number; y: number }[];
  xTicks: { at_ms: number; x: number }[];
  /** The rating range shown, bottom to top. */
  min: number;
  max: number;
}

export const DEFAULT_BOX: ChartBox = { width: 480, height: 200, left: 44, right: 12, top: 10, bottom: 24 };

/** A round step for about `count` ticks over `span`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || count < 1) return 1;
  const raw = span / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/**
 * Scales a rating history into `box`: time left to right (one point alone in
 * the middle), ratings bottom to top over a range widened to round ticks and
 * at least 100 points tall, so that a flat history is a flat line in the middle.
 */
export function chartLayout(history: RatingPoint[], box: ChartBox = DEFAULT_BOX, ticks = 4): ChartLayout {
  const pts = [...history]
    .filter((p) => Number.isFinite(p.rating) && Number.isFinite(p.at_ms))
    .sort((a, b) => a.at_ms - b.at_ms);
  const plotW = box.width - box.left - box.right;
  const plotH = box.height - box.top - box.bottom;
  let lo = Math.min(...pts.map((p) => p.rating));
  let hi = Math.max(...pts.map((p) => p.rating));
  if (pts.length === 0) {
    lo = 1500;
    hi = 1500;
  }
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = mid - 50;
    hi = mid + 50;
  }
  const step = niceStep(hi - lo, ticks);
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const y = (r: number) => box.top + plotH * (1 - (r - min) / (max - min));
  const t0 = pts.length ? pts[0].at_ms : 0;
  const t1 = pts.length ? pts[pts.length - 1].at_ms : 0;
  const x = (at: number) => (t1 === t0 ? box.left + plotW / 2 : box.left + (plotW * (at - t0)) / (t1 - t0));
  const yTicks: ChartLayout['yTicks'] = [];
  for (let v = min; v <= max + step / 2; v += step) yTicks.push({ value: Math.round(v * 10) / 10, y: y(v) });
  const xTicks: ChartLayout['xTicks'] =
    pts.length === 0
      ? []
      : t1 === t0
        ? [{ at_ms: t0, x: x(t0) }]
        : [t0, (t0 + t1) / 2, t1].map((at) => ({ at_ms: at, x: x(at) }));
  return {
    points: pts.map((p) => ({ x: x(p.at_ms), y: y(p.rating), rating: p.rating, at_ms: p.at_ms })),
    yTicks,
    xTicks,
    min,
    max,
  };
}

const SVG = 'http://www.w3.org/2000/svg';

function el(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Draws a rating history as an SVG chart; `date` writes a tick's date, `title` labels the picture. */
export function ratingChart(
  history: RatingPoint[],
  date: (ms: number) => string,
  title: string,
  box: ChartBox = DEFAULT_BOX,
): SVGSVGElement {
  const l = chartLayout(history, box);
  const svg = el('svg', {
    viewBox: `0 0 ${box.width} ${box.height}`,
    class: 'rating-chart',
    role: 'img',
    'aria-label': title,
  }) as SVGSVGElement;
  svg.append(el('title', {}, title));
  const plotRight = box.width - box.right;
  const plotBottom = box.height - box.bottom;
  svg.append(
    el('rect', { x: box.left, y: box.top, width: plotRight - box.left, height: plotBottom - box.top, class: 'bg' }),
  );
  for (const tk of l.yTicks) {
    svg.append(el('line', { x1: box.left, x2: plotRight, y1: tk.y, y2: tk.y, class: 'grid' }));
    svg.append(el('text', { x: box.left - 4, y: tk.y + 4, 'text-anchor': 'end', class: 'label' }, String(tk.value)));
  }
  l.xTicks.forEach((tk, i) => {
    const anchor = l.xTicks.length === 1 ? 'middle' : i === 0 ? 'start' : i === l.xTicks.length - 1 ? 'end' : 'middle';
    svg.append(el('line', { x1: tk.x, x2: tk.x, y1: plotBottom, y2: plotBottom + 4, class: 'axis' }));
    svg.append(el('text', { x: tk.x, y: box.height - 6, 'text-anchor': anchor, class: 'label' }, date(tk.at_ms)));
  });
  svg.append(el('line', { x1: box.left, x2: box.left, y1: box.top, y2: plotBottom, class: 'axis' }));
  svg.append(el('line', { x1: box.left, x2: plotRight, y1: plotBottom, y2: plotBottom, class: 'axis' }));
  if (l.points.length > 1) {
    svg.append(
      el('polyline', { points: l.points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '), class: 'line' }),
    );
  }
  for (const p of l.points) {
    const c = el('circle', { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 3, class: 'point' });
    c.append(el('title', {}, `${date(p.at_ms)}: ${Math.round(p.rating)}`));
    svg.append(c);
  }
  return svg;
}
