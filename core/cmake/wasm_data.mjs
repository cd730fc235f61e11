// The wasm's copy of core/data (issue 11: no unreachable data in the wasm): every JSON file the
// page's core reads, minified, with the documentation-only keys ("about", "note", "*_note") of the
// GPU and engine files removed, the model index's and the validation file's "about" and the latter's
// overall figures and each band's derived truth range and median removed, each family's fitted_on ids
// replaced by their count;
// model notes stay (the catalog shows them).
// Usage: node wasm_data.mjs SRC_DIR OUT_DIR EXCLUDE_REGEX
import fs from 'node:fs';
import path from 'node:path';

const [src, out, exclude] = process.argv.slice(2);
const skip = exclude ? new RegExp(exclude) : null;
const stripped = new Set(['gpus.json', 'engines.json']);
const isDoc = (k) => k === 'about' || k === 'note' || k.endsWith('_note');

function strip(v) {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).filter(([k]) => !isDoc(k)).map(([k, x]) => [k, strip(x)]));
  return v;
}

function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { walk(p); continue; }
    const rel = path.relative(src, p).split(path.sep).join('/');
    if (!rel.endsWith('.json') || (skip && skip.test(rel))) continue;
    let doc = JSON.parse(fs.readFileSync(p, 'utf8'));
    if (stripped.has(rel)) doc = strip(doc);
    // The model index's and the validation file's "about" are documentation (the catalog passes the
    // scenario presets' through, so that one stays); the validation file's overall figures and their
    // provenance are for the docs and the tests, the core reads only the bands.
    if (rel === 'models/index.json' || rel === 'validation.json') delete doc.about;
    if (rel === 'validation.json') {
      for (const k of ['bands_from', 'overall', 'overall_fitted_sources']) delete doc[k];
      // Each band's truth range and median are derived or documentation: the core reads n, err_lo, err_hi.
      for (const group of Object.values(doc))
        if (group && typeof group === 'object')
          for (const b of Object.values(group))
            if (b && typeof b === 'object') for (const k of ['lo_pct', 'hi_pct', 'median_abs_pct']) delete b[k];
    }
    // The ids each family was fitted on: the core reads only their count (Gpu::calibrated_figures).
    if (rel === 'gpus.json')
      for (const f of Object.values(doc.efficiency_families)) if (Array.isArray(f.fitted_on)) f.fitted_on = f.fitted_on.length;
    const dst = path.join(out, rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    const text = JSON.stringify(doc);
    if (!fs.existsSync(dst) || fs.readFileSync(dst, 'utf8') !== text) fs.writeFileSync(dst, text);
  }
}

fs.rmSync(out, { recursive: true, force: true });
walk(src);
