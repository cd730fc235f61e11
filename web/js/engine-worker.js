// Worker of the served page: the core off the main thread (see engine.js). Same protocol as the
// single file's blob worker: {id, fn, args, progress} -> {id, progress}* then {id, out, err}.
// The build (web/build.mjs) puts the core's loader (slo_core.js, which defines SloCore) above these
// lines, so the worker starts with one fetch instead of two in a row.
// The served page's core keeps its .wasm beside slo_core.js (one folder up from this worker).
var slo_ready = SloCore({ locateFile: function (p) { return '../' + p; } });
// {speculate: {fn, args}} (js/preload.js, before the page's script has run): the call the page is
// about to make, run as soon as the module is ready; the next request of that fn takes its answer
// when its args are the same, and drops it either way. Only the core's answer is kept, never altered.
var slo_spec = null;
onmessage = function (e) {
  var d = e.data;
  slo_ready.then(function (m) {
    if (d && d.speculate) {
      var s = d.speculate, r = { fn: s.fn, key: JSON.stringify([s.fn, s.args]), out: null, err: null };
      try { r.out = m[s.fn].apply(null, s.args); } catch (x) { r.err = String(x && x.message ? x.message : x); }
      slo_spec = r;
      return;
    }
    var out = null, err = null, args = d.args, last = -1;
    if (slo_spec && slo_spec.fn === d.fn) {
      var hit = slo_spec;
      slo_spec = null;
      if (!d.progress && hit.key === JSON.stringify([d.fn, d.args])) {
        postMessage({ id: d.id, out: hit.out, err: hit.err, speculated: true });
        return;
      }
    }
    // progress: the last argument is a callback posting {id, progress} at most every 1%.
    if (d.progress) args = args.concat([function (f) { if (f - last >= 0.01 || f >= 1) { last = f; postMessage({ id: d.id, progress: f }); } return true; }]);
    try { out = m[d.fn].apply(null, args); } catch (x) { err = String(x && x.message ? x.message : x); }
    postMessage({ id: d.id, out: out, err: err });
  }, function (x) {
    if (!d || d.speculate) return;
    postMessage({ id: d.id, out: null, err: 'core failed to load: ' + x });
  });
};
