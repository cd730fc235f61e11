// Served page only: starts the core's worker while js/app.js still loads and runs, so that the
// wasm module compiles beside the page's own start-up (engine.js adopts this worker). A plain
// script (not async), so it always runs before the deferred js/app.js. The single file leaves this
// script out: its worker is built from the inlined core.
(function () {
  try {
    if (typeof Worker !== 'function' || !/^https?:$/.test(location.protocol)) return;
    var early = { worker: new Worker('js/engine-worker.js'), failed: false };
    early.worker.addEventListener('error', function () { early.failed = true; });
    window.SloEarlyWorker = early;
    // Without a scenario in the link the page's first evaluation is the defaults' in the page's
    // language (js/app/boot.js, js/app/evaluate.js request()): the worker runs it as soon as the
    // core is ready instead of after the page's script has started; the page takes that answer
    // when it asks the same (tests/browser/editor.test.mjs checks that it does).
    var hash = String(location.hash || '').replace(/^#/, ''), lang = null, scenario = false;
    hash.split('&').forEach(function (part) {
      var k = part.split('=')[0], v = part.slice(k.length + 1);
      if (k === 's') scenario = true;
      if (k === 'lang' && lang === null) lang = v;
    });
    if (lang !== 'en' && lang !== 'zh') {
      lang = 'en';
      var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
      for (var i = 0; i < langs.length; i++) {
        var l = String(langs[i]).toLowerCase();
        if (l.indexOf('zh') === 0) { lang = 'zh'; break; }
        if (l.indexOf('en') === 0) break;
      }
    }
    if (!scenario && hash.length <= 32768)
      early.worker.postMessage({ speculate: { fn: 'evaluate', args: [JSON.stringify({ version: 2 }), JSON.stringify({ lang: lang, method: 'corrected', formats: ['json'] })] } });
  } catch (e) { /* refused (CSP, sandbox): engine.js makes its own or runs on the main thread */ }
})();
