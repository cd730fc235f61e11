// The Export menu: Markdown, JSON and CSV downloads and copies, keyboard navigation.
import { Exports } from '../exports.js';
import { $, state, t } from './state.js';
import { coreVersion } from './boot.js';
import { currentReport, seedEval } from './report-area.js';
import { reportMarkdown } from './evaluate.js';
import { fullUrl, toast } from './links.js';

// ---------------------------------------------------------------- exports
function closeMenu() {
  const m = $('export-menu');
  if (m) m.open = false;
}

function exportBase() {
  return Exports.slug(state.result && state.result.scenario && state.result.scenario.name) + (state.tab === 'seed' ? '-seed' : '');
}

export async function markdownText() {
  if (!state.result) return '';
  if (state.tab !== 'seed') return reportMarkdown();
  const s = await seedEval(state.result.scenario, state.lang);
  return s && s.ok && typeof s.markdown === 'string' ? s.markdown : '';
}

export async function exportMarkdown(copy) {
  closeMenu();
  const md = await markdownText();
  if (!md) return;
  const withLink = md.replace(/\s*$/, '\n') + '\n' + fullUrlSync() + '\n';
  if (copy) toast((await Exports.copyText(withLink)) ? t('md_copied') : t('copy_failed'));
  else Exports.download(exportBase() + '.md', withLink, 'text/markdown');
}

function fullUrlSync() {
  return fullUrl();
}

export function exportJson() {
  closeMenu();
  if (!state.result) return;
  const doc = {
    format: 'slo-estimator-export',
    export_version: 1,
    core_version: coreVersion,
    link: fullUrl(),
    scenario: state.result.scenario,
    minimal: state.result.minimal,
    report: state.result.report,
  };
  Exports.download(exportBase() + '.json', JSON.stringify(doc, null, 2) + '\n', 'application/json');
}

export function exportCsv() {
  closeMenu();
  const r = currentReport();
  if (!r) { toast(t('csv_empty')); return; }
  const labels = {};
  for (const k of ['verdicts', 'figures', 'target', 'status', 'value', 'limit', 'margin', 'section', 'figure', 'note']) labels[k] = t('csv_' + k);
  const csv = Exports.tablesCsv(r, labels);
  if (csv.length <= 1) { toast(t('csv_empty')); return; }
  Exports.download(exportBase() + '-tables.csv', csv, 'text/csv');
}

// The Export menu: arrow keys move between its items, Escape closes it and returns to its button.
export function menuKeys(ev) {
  const m = $('export-menu');
  if (!m) return;
  const items = [...m.querySelectorAll('[role=menuitem]')];
  const i = items.indexOf(document.activeElement);
  if (ev.key === 'Escape' && m.open) {
    m.open = false;
    m.querySelector('summary').focus();
    ev.preventDefault();
  } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
    if (!m.open) m.open = true;
    const n = items.length, next = i < 0 ? (ev.key === 'ArrowDown' ? 0 : n - 1) : (i + (ev.key === 'ArrowDown' ? 1 : n - 1)) % n;
    items[next].focus();
    ev.preventDefault();
  } else if ((ev.key === 'Home' || ev.key === 'End') && i >= 0) {
    items[ev.key === 'Home' ? 0 : items.length - 1].focus();
    ev.preventDefault();
  }
}
