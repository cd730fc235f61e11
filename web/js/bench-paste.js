// Calibrate from a pasted benchmark: the text or JSON output of sglang.bench_serving, vllm bench
// serve or genai-perf goes to the core (pasteBenchmark), which reads it and returns the scenario's
// reference measurement for that run. This file only moves text: the report's "Reference
// measurement and calibration" section shows measured vs predicted per figure. Text via textContent.
import { Dom } from './dom.js';

const { h, str } = Dom;
const MAX = 1048576;

// ctx: {t, lang(), call(fn, ...args), scenarioJson(), setReference(ref), calibrate(), showReport()}
function widget(ctx) {
  const t = ctx.t;
  const ta = h('textarea', { id: 'bench-paste', rows: '6', spellcheck: 'false', class: 'mono', 'aria-describedby': 'bench-paste-note',
    placeholder: '============ Serving Benchmark Result ============\nSuccessful requests: …' });
  const status = h('div', { id: 'bench-paste-status', class: 'bench-status', role: 'status', 'aria-live': 'polite', hidden: true });
  const file = h('input', { type: 'file', id: 'bench-file', accept: '.txt,.json,.jsonl,.log,text/plain,application/json' });
  const calibrate = h('button', { type: 'button', class: 'btn small primary', id: 'btn-bench-calibrate', hidden: true, text: t('bench_calibrate'),
    on: { click: () => { ctx.calibrate(); calibrate.hidden = true; ctx.showReport(); } } });

  function show(kind, lines) {
    status.replaceChildren();
    status.className = 'bench-status ' + (kind === 'error' ? 'field-error' : 'muted small');
    if (lines.length === 1) status.textContent = lines[0];
    else status.appendChild(h('ul', null, lines.map((m) => h('li', { text: m }))));
    status.hidden = false;
  }

  async function use(text) {
    calibrate.hidden = true;
    if (!text.trim()) { show('error', [t('bench_empty')]); return; }
    if (text.length > MAX) { show('error', [t('config_too_big', { max: MAX })]); return; }
    let r;
    try { r = JSON.parse(await ctx.call('pasteBenchmark', ctx.scenarioJson(), text, ctx.lang())); } catch (e) { r = { ok: false, errors: [{ message: str(e && e.message ? e.message : e) }] }; }
    if (!r || !r.ok || !r.reference || typeof r.reference !== 'object') {
      const msgs = ((r && r.errors) || []).map((e) => str(e.message)).filter(Boolean).slice(0, 5);
      show('error', msgs.length ? msgs : [t('bench_failed')]);
      return;
    }
    ctx.setReference(r.reference);
    show('ok', [str(r.summary)]);
    calibrate.hidden = false;
  }

  const read = h('button', { type: 'button', class: 'btn small', id: 'btn-bench-use', text: t('bench_use'), on: { click: () => use(ta.value) } });
  file.addEventListener('change', () => {
    const f = file.files && file.files[0];
    if (!f) return;
    if (f.size > MAX) { show('error', [t('config_too_big', { max: MAX })]); return; }
    f.text().then((text) => { ta.value = text; use(text); }, () => show('error', [t('bench_failed')]));
    file.value = '';
  });
  return h('div', { class: 'field wide bench-paste', 'data-path': 'reference.benchmark' },
    h('label', { for: 'bench-paste', text: t('bench_label') }), ta,
    h('p', { id: 'bench-paste-note', class: 'muted small', text: t('bench_note') }),
    h('div', { class: 'bench-actions' }, read, calibrate), h('div', { class: 'upload' }, h('label', { for: 'bench-file', text: t('bench_upload') }), file), status);
}

export const BenchPaste = { widget };
