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
  } catch (e) { /* refused (CSP, sandbox): engine.js makes its own or runs on the main thread */ }
})();
