// Worker of the served page: the core off the main thread (see engine.js). Same protocol as the
// single file's blob worker: {id, fn, args} -> {id, out, err}.
importScripts('../slo_core.js');
var slo_ready = SloCore();
onmessage = function (e) {
  var d = e.data;
  slo_ready.then(function (m) {
    var out = null, err = null;
    try { out = m[d.fn].apply(null, d.args); } catch (x) { err = String(x && x.message ? x.message : x); }
    postMessage({ id: d.id, out: out, err: err });
  }, function (x) {
    postMessage({ id: d.id, out: null, err: 'core failed to load: ' + x });
  });
};
