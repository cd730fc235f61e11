// Exports: Markdown (the core's own renderer), JSON (scenario + report), CSV (the report's tables).
(function (SLO) {
  'use strict';
  const { valueText, str } = SLO.dom;

  // RFC 4180: quote a field when it holds a comma, quote, CR or LF (or leading/trailing space);
  // quotes are doubled. A leading =, +, -, @ is prefixed with ' so spreadsheets do not run it as a formula.
  function csvField(s) {
    let v = s === undefined || s === null ? '' : String(s);
    if (/^[=+@\t\r]/.test(v) || (/^-/.test(v) && !/^-[\d.]/.test(v))) v = "'" + v;
    return /[",\r\n]|^\s|\s$/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  }

  // One block per table: a title line (section / table), the header, the rows; blank line between.
  function tablesCsv(report) {
    const lines = [];
    for (const s of Array.isArray(report.sections) ? report.sections : []) {
      for (const it of Array.isArray(s.items) ? s.items : []) {
        if (!it || it.kind !== 'table') continue;
        if (lines.length) lines.push('');
        lines.push([str(s.title), str(it.title)].filter(Boolean).join(' / ') ? csvField([str(s.title), str(it.title)].filter(Boolean).join(' / ')) : '');
        lines.push((it.columns || []).map((c) => csvField(str(c))).join(','));
        for (const r of it.rows || []) lines.push((Array.isArray(r) ? r : []).map((c) => csvField(valueText(c))).join(','));
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

  SLO.exports = { csvField, tablesCsv, tableCount, slug, download, copyText };
})(window.SLO = window.SLO || {});
