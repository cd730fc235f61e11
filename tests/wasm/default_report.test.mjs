// The default scenario's report from the wasm module equals the native CLI's output, for both
// methods and both languages: the JSON report deep-equal, the text and Markdown renderings identical.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, cli } from './common.mjs';

let m;
before(async () => {
  m = await loadModule();
});

for (const method of ['corrected', 'seed']) {
  for (const lang of ['en', 'zh']) {
    test(`default scenario, ${method}, ${lang}: wasm report == CLI --format json`, () => {
      const native = JSON.parse(cli(['--format', 'json', '--method', method, '--lang', lang]));
      const r = JSON.parse(m.evaluate(m.defaultScenario(), JSON.stringify({ lang, method, formats: ['json'] })));
      assert.equal(r.ok, true, JSON.stringify(r.errors));
      assert.deepStrictEqual(r.report, native);
      assert.equal(native.format, 'slo-estimator-report');
      assert.equal(native.method, method);
      assert.equal(native.lang, lang);
    });

    test(`default scenario, ${method}, ${lang}: wasm text and markdown == CLI`, () => {
      const r = JSON.parse(m.evaluate(m.defaultScenario(), JSON.stringify({ lang, method, formats: ['text', 'markdown'] })));
      assert.equal(r.ok, true, JSON.stringify(r.errors));
      assert.equal(r.text, cli(['--format', 'text', '--method', method, '--lang', lang]));
      assert.equal(r.markdown, cli(['--format', 'md', '--method', method, '--lang', lang]));
    });
  }
}

test('defaultScenario, catalog and version equal the CLI', () => {
  assert.deepStrictEqual(JSON.parse(m.defaultScenario()), JSON.parse(cli(['default-scenario'])));
  assert.deepStrictEqual(JSON.parse(m.catalog('en')), JSON.parse(cli(['catalog'])));
  assert.equal(`slo-estimator ${m.version()}\n`, cli(['--version']));
});

test('object helpers of api.js agree with the string API', () => {
  const opts = { method: 'seed', formats: ['json'] };
  assert.deepStrictEqual(m.evaluateObject(m.defaultScenarioObject(), opts), JSON.parse(m.evaluate(m.defaultScenario(), JSON.stringify(opts))));
  assert.deepStrictEqual(m.validateObject({ version: 1 }), JSON.parse(m.validate('{"version":1}', 'en')));
  assert.deepStrictEqual(m.catalogObject('zh'), JSON.parse(m.catalog('zh')));
});
