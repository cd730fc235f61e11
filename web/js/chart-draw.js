// What the report's charts draw that uPlot does not: grouped and stacked bars (a series path
// builder), point shapes per series (colour-blind safe beside the colours and dashes), and marker
// lines with labels on white boxes that do not overlap (draw hooks). Coordinates are canvas pixels.
import uPlot from 'uplot';

export const FONT = 'system-ui, -apple-system, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", "WenQuanYi Micro Hei", sans-serif';
const MARKER_COLOR = '#B00020';
const MAX_BAR_PX = 160;

// Bars of series `sidx` (1-based: uPlot's 0 is x) over category indices: side by side within 70% of
// a category's width, or stacked on the series before it.
export function barsPath(nSeries, stacked) {
  return (u, sidx, i0, i1) => {
    const pr = uPlot.pxRatio;
    const path = new Path2D();
    const xs = u.data[0];
    const slot = Math.abs(u.valToPos(1, 'x', true) - u.valToPos(0, 'x', true));
    const group = Math.min(slot * 0.7, stacked ? MAX_BAR_PX * pr : MAX_BAR_PX * pr * nSeries);
    const w = stacked ? group : group / nSeries;
    for (let i = i0; i <= i1; i++) {
      const v = u.data[sidx][i];
      if (v === null || v === undefined) continue;
      let base = 0;
      if (stacked) for (let k = 1; k < sidx; k++) if (u.series[k].show) base += u.data[k][i] || 0;
      const cx = u.valToPos(xs[i], 'x', true);
      const left = stacked ? cx - w / 2 : cx - group / 2 + (sidx - 1) * w;
      const y0 = u.valToPos(base, 'y', true), y1 = u.valToPos(base + v, 'y', true);
      path.rect(left, Math.min(y0, y1), w, Math.abs(y1 - y0));
    }
    return { stroke: path, fill: path };
  };
}

function shape(ctx, kind, x, y, r) {
  ctx.beginPath();
  if (kind === 'square') ctx.rect(x - r, y - r, 2 * r, 2 * r);
  else if (kind === 'triangle') { ctx.moveTo(x, y - r); ctx.lineTo(x + r, y + r); ctx.lineTo(x - r, y + r); ctx.closePath(); }
  else if (kind === 'diamond') { ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y); ctx.closePath(); }
  else if (kind === 'star') {
    for (let k = 0; k < 10; k++) {
      const a = -Math.PI / 2 + (k * Math.PI) / 5, rr = k % 2 ? r * 0.45 : r;
      ctx.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
    }
    ctx.closePath();
  } else if (kind === 'cross') { ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r); }
  else if (kind === 'plus') { ctx.moveTo(x - r, y); ctx.lineTo(x + r, y); ctx.moveTo(x, y - r); ctx.lineTo(x, y + r); }
  else if (kind === 'dash') { ctx.moveTo(x - r, y); ctx.lineTo(x + r, y); }
  else ctx.arc(x, y, r, 0, 2 * Math.PI);
}

// Each shown line or scatter series' points in its shape (the chart model's `series`, 1:1 with
// uPlot's series from index 1).
export function drawPoints(u, series, scatter) {
  const pr = uPlot.pxRatio;
  const { left, top, width, height } = u.bbox;
  const ctx = u.ctx;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  series.forEach((s, i) => {
    if (s.band || !u.series[i + 1].show) return;
    const r = (s.big ? 10 : scatter ? 5 : 3) * pr;
    ctx.fillStyle = s.color;
    ctx.strokeStyle = s.big ? '#000' : s.color;
    ctx.lineWidth = 1.5 * pr;
    ctx.setLineDash([]);
    u.data[i + 1].forEach((v, j) => {
      if (v === null || v === undefined) return;
      shape(ctx, s.shape, u.valToPos(u.data[0][j], 'x', true), u.valToPos(v, 'y', true), r);
      if (s.shape === 'cross' || s.shape === 'plus' || s.shape === 'dash') ctx.stroke();
      else { ctx.fill(); if (s.big) ctx.stroke(); }
    });
  });
  ctx.restore();
}

// Marker label on a white box so that it stays readable over bars and lines; `placed` holds the
// boxes already drawn so that labels do not overlap.
function labelAt(ctx, text, x, y, w, placed, area, pr) {
  const hgt = 14 * pr, step = 16 * pr;
  let box = { x: x - 2 * pr, y: y - 11 * pr, w: w + 4 * pr, h: hgt };
  for (let i = 0; i < 8 && placed.some((p) => p.x < box.x + box.w && box.x < p.x + p.w && p.y < box.y + box.h && box.y < p.y + p.h); i++) {
    box = Object.assign({}, box, { y: box.y + step });
    if (box.y < area.top || box.y + hgt > area.bottom) box.y = Math.min(Math.max(area.top, box.y), area.bottom - hgt);
  }
  placed.push(box);
  ctx.save();
  ctx.setLineDash([]);
  ctx.fillStyle = 'rgba(255,255,255,0.92)';
  ctx.fillRect(box.x, box.y, box.w, box.h);
  ctx.restore();
  ctx.fillText(text, box.x + 2 * pr, box.y + 11 * pr);
}

// Of a label's candidate places (its text's left end and baseline), the first that covers the
// fewest data points: a label's white box must not hide the data.
function clearest(u, places, w, pr) {
  const hits = ([x, y]) => {
    let n = 0;
    const inBox = (px, py) => px >= x - 6 * pr && px <= x + w + 6 * pr && py >= y - 16 * pr && py <= y + 8 * pr;
    for (let s = 1; s < u.data.length; s++) {
      if (!u.series[s].show) continue;
      let prev = null;
      u.data[s].forEach((v, j) => {
        if (v === null || v === undefined) return;
        const px = u.valToPos(u.data[0][j], 'x', true), py = u.valToPos(v, 'y', true);
        if (inBox(px, py)) n++;
        // and the line between points (sampled), which a label can hide as well
        if (prev) for (const t of [0.25, 0.5, 0.75]) if (inBox(prev[0] + t * (px - prev[0]), prev[1] + t * (py - prev[1]))) n++;
        prev = [px, py];
      });
    }
    return n;
  };
  let best = places[0], fewest = hits(best);
  for (const p of places.slice(1)) { const n = hits(p); if (n < fewest) { best = p; fewest = n; } }
  return best;
}

// Dashed reference lines (axis 'x': vertical at a value of x; otherwise horizontal), labels last
// so that no line crosses a label.
export function drawMarkers(u, markers) {
  if (!markers.length) return;
  const pr = uPlot.pxRatio;
  const ctx = u.ctx;
  const area = { left: u.bbox.left, top: u.bbox.top, right: u.bbox.left + u.bbox.width, bottom: u.bbox.top + u.bbox.height };
  const labels = [];
  ctx.save();
  ctx.lineWidth = 1.5 * pr;
  ctx.setLineDash([6 * pr, 4 * pr]);
  ctx.strokeStyle = MARKER_COLOR;
  ctx.fillStyle = MARKER_COLOR;
  ctx.font = Math.round(12 * pr) + 'px ' + FONT;
  ctx.textAlign = 'left';  // uPlot leaves its axes' alignment on the context
  ctx.textBaseline = 'alphabetic';
  for (const m of markers) {
    const label = typeof m.label === 'string' ? m.label : '';
    const w = label ? ctx.measureText(label).width : 0;
    if (m.axis === 'x') {
      const x = u.valToPos(m.value, 'x', true);
      if (!Number.isFinite(x) || x < area.left - 1 || x > area.right + 1) continue;
      ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
      const lx = x + 4 * pr + w > area.right ? x - 6 * pr - w : x + 4 * pr;
      if (label) labels.push([label, ...clearest(u, [[lx, area.top + 14 * pr], [lx, area.bottom - 4 * pr]], w, pr), w]);
    } else {
      const y = u.valToPos(m.value, 'y', true);
      if (!Number.isFinite(y) || y < area.top - 1 || y > area.bottom + 1) continue;
      ctx.beginPath(); ctx.moveTo(area.left, y); ctx.lineTo(area.right, y); ctx.stroke();
      const ly = y > area.top + 16 * pr ? y - 5 * pr : y + 14 * pr;
      if (label) labels.push([label, ...clearest(u, [[Math.max(area.left + 2 * pr, area.right - w - 4 * pr), ly], [area.left + 4 * pr, ly]], w, pr), w]);
    }
  }
  const placed = [];
  for (const [text, x, y, w] of labels) labelAt(ctx, text, x, y, w, placed, area, pr);
  ctx.restore();
}
