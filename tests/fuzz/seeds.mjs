// Writes the seed corpus of the fuzz targets into a directory (default build/fuzz/seeds): the default
// scenario, every whole-scenario preset, every benchmark scenario and every frozen share link of
// tests/fixtures/links/ decoded. Usage: node tests/fuzz/seeds.mjs [outDir]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.resolve(process.argv[2] || path.join(root, 'build/fuzz/seeds'));
fs.mkdirSync(out, { recursive: true });
const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
let n = 0;
const put = (name, doc) => {
  fs.writeFileSync(path.join(out, name.replace(/[^A-Za-z0-9_.-]+/g, '_')), typeof doc === 'string' ? doc : JSON.stringify(doc));
  n += 1;
};

put('default.json', read('core/data/scenarios/defaults-v1.json'));
put('minimal.json', { version: 1 });
for (const p of read('core/data/scenarios/presets.json').presets) put(`preset-${p.id}.json`, p.scenario);
for (const [i, m] of read('core/data/benchmarks/measurements.json').measurements.entries())
  if (m.scenario) put(`bench-${i}-${m.id || ''}.json`, m.scenario);
// Model configs as a scenario's model.config (the paths the structured mutator also reaches).
const models = read('core/data/models/index.json').presets;
for (const m of models) put(`config-${m.id}.json`, { version: 1, model: { preset: null, config: read(`core/data/${m.file}`) } });
const linkDir = path.join(root, 'tests/fixtures/links');
for (const f of fs.readdirSync(linkDir).filter((x) => x.endsWith('.json'))) {
  const fx = JSON.parse(fs.readFileSync(path.join(linkDir, f), 'utf8'));
  const m = /#s=(\d+)\.([A-Za-z0-9_-]+)/.exec(fx.fragment || '');
  if (!m) continue;
  const bytes = Buffer.from(m[2].replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  put(`link-${f}`, m[1] === '0' ? bytes.toString('utf8') : zlib.inflateRawSync(bytes).toString('utf8'));
}
console.log(`${n} seeds in ${out}`);
