// Exports: Markdown (the core's own renderer), JSON (scenario + report), CSV (the report's tables).
import { Dom } from './dom.js';

const { valueText, str } = Dom;

// RFC 4180: quote a field when it holds a comma, quote, CR or LF (or leading/trailing space);
// quotes are doubled. A leading =, +, -, @ is prefixed with ' so spreadsheets do not run it as a formula.
function csvField(s) {
  let v = s === undefined || s === null ? '' : String(s);
  if (/^[=+@\t\r]/.test(v) || (/^-/.test(v) && !/^-[\d.]/.test(v))) v = "'" + v;
  return /[",\r\n]|^\s|\s$/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
}

// Spreadsheet-ready CSV: numbers as numbers (no thousands separators, no units in the cell), the
// unit in the column header, one column per unit. Blocks: verdicts, key figures, then each table
// (a title line, the header, the rows; a blank line between blocks).
const isNum = (v) => v && typeof v === 'object' && typeof v.number === 'number' && Number.isFinite(v.number);
const unitOf = (v) => (isNum(v) && typeof v.unit === 'string' ? v.unit : '');
const withUnit = (name, unit) => (unit ? name + ' (' + unit + ')' : name);

// A column holding numbers: one unit -> [header (unit)] and numbers; several units -> a number
// column and a unit column. A cell without a number keeps its text (a spreadsheet reads it as text).
function columnPlan(rows, j) {
  const cells = rows.map((r) => (Array.isArray(r) ? r[j] : undefined)).filter((c) => valueText(c) !== '');
  const nums = cells.filter(isNum);
  if (!nums.length) return { kind: 'text' };
  const units = new Set(nums.map(unitOf));
  return units.size === 1 ? { kind: 'num', unit: [...units][0] } : { kind: 'num+unit' };
}

function cellOut(plan, c) {
  if (plan.kind === 'text') return [csvField(valueText(c))];
  const n = isNum(c) ? String(c.number) : csvField(valueText(c));
  return plan.kind === 'num' ? [n] : [n, csvField(unitOf(c))];
}

function block(lines, title, columns, rows) {
  const plans = columns.map((_, j) => columnPlan(rows, j));
  if (lines.length) lines.push('');
  lines.push(csvField(title));
  lines.push(columns.flatMap((c, j) => (plans[j].kind === 'num+unit' ? [csvField(str(c)), csvField(str(c) + ' unit')]
    : [csvField(plans[j].kind === 'num' ? withUnit(str(c), plans[j].unit) : str(c))])).join(','));
  for (const r of rows) lines.push(columns.flatMap((_, j) => cellOut(plans[j], Array.isArray(r) ? r[j] : undefined)).join(','));
}

function tablesCsv(report, labels) {
  const L = Object.assign({ verdicts: 'Verdicts', figures: 'Key figures', target: 'Target', status: 'Status', value: 'Value', limit: 'Limit', margin: 'Margin', section: 'Section', figure: 'Figure', note: 'Note' }, labels || {});
  const lines = [];
  const verdicts = Array.isArray(report.verdicts) ? report.verdicts : [];
  if (verdicts.length) {
    block(lines, L.verdicts, [L.target, L.status, L.value, L.limit, L.margin],
      verdicts.map((v) => [str(v.label), str(v.status), v.value, v.target, v.margin]));
  }
  const figures = [];
  for (const s of Array.isArray(report.sections) ? report.sections : []) {
    for (const it of Array.isArray(s.items) ? s.items : []) {
      if (it && it.kind === 'row' && valueText(it.value) !== '') figures.push([str(s.title), str(it.label), it.value, str(it.note)]);
    }
  }
  if (figures.length) block(lines, L.figures, [L.section, L.figure, L.value, L.note], figures);
  for (const s of Array.isArray(report.sections) ? report.sections : []) {
    for (const it of Array.isArray(s.items) ? s.items : []) {
      if (!it || it.kind !== 'table') continue;
      block(lines, [str(s.title), str(it.title)].filter(Boolean).join(' / '), it.columns || [], it.rows || []);
    }
  }
  // BOM so that spreadsheet programs read UTF-8 (Chinese labels) correctly.
  return '\uFEFF' + lines.join('\r\n') + (lines.length ? '\r\n' : '');
}

function tableCount(report) {
  let n = 0;
  for (const s of report.sections || []) for (const it of s.items || []) if (it && it.kind === 'table') n++;
  return n;
}

function slug(name) {
  const s = String(name || '').toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return s || 'scenario';
}

function download(filename, text, type) {
  const blob = new Blob([text], { type: type + ';charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
    a.remove();
  }, 1000);
}

async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (e) { /* fall through to the selection copy */ }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.className = 'offscreen';
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch (e) {
    ok = false;
  }
  ta.remove();
  return ok;
}

export const Exports = { csvField, tablesCsv, tableCount, slug, download, copyText };
