// Worker of the served page: the core off the main thread (see engine.js). Same protocol as the
// single file's blob worker: {id, fn, args, progress} -> {id, progress}* then {id, out, err}.
// The build (web/build.mjs) puts the core's loader (slo_core.js, which defines SloCore) above these
// lines, so the worker starts with one fetch instead of two in a row.
// The served page's core keeps its .wasm beside slo_core.js (one folder up from this worker).
var slo_ready = SloCore({ locateFile: function (p) { return '../' + p; } });
onmessage = function (e) {
  var d = e.data;
  slo_ready.then(function (m) {
    var out = null, err = null, args = d.args, last = -1;
    // progress: the last argument is a callback posting {id, progress} at most every 1%.
    if (d.progress) args = args.concat([function (f) { if (f - last >= 0.01 || f >= 1) { last = f; postMessage({ id: d.id, progress: f }); } return true; }]);
    try { out = m[d.fn].apply(null, args); } catch (x) { err = String(x && x.message ? x.message : x); }
    postMessage({ id: d.id, out: out, err: err });
  }, function (x) {
    postMessage({ id: d.id, out: null, err: 'core failed to load: ' + x });
  });
};
