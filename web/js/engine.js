// The core behind one async API, off the main thread when possible so that typing never waits for
// an evaluation:
//   served page (http/https): a Worker from js/engine-worker.js, which loads ../slo_core.js
//   single file (file://, wiki attachment): a blob: Worker built from the inlined slo_core.js text
//   otherwise (or if the worker fails): the module on the main thread.
// Only the core's string functions cross (evaluate, validate, defaultScenario, catalog, version,
// launch). The configuration search runs in a worker of its own (search() below): progress comes
// back as messages, and cancelling terminates that worker, so evaluations never wait behind it.
// d.progress: the last argument is a callback that posts {id, progress} (at most every 1%).
const BOOT = 'var slo_ready=SloCore();onmessage=function(e){var d=e.data;slo_ready.then(function(m){var out=null,err=null,a=d.args,last=-1;' +
  'if(d.progress)a=a.concat([function(f){if(f-last>=0.01||f>=1){last=f;postMessage({id:d.id,progress:f})}return true}]);' +
  'try{out=m[d.fn].apply(null,a)}catch(x){err=String(x&&x.message?x.message:x)}postMessage({id:d.id,out:out,err:err})},' +
  'function(x){postMessage({id:d.id,out:null,err:"core failed to load: "+x})})};';

class MainEngine {
  constructor(m) { this.m = m; this.mode = 'main'; }
  call(fn, ...args) {
    try { return Promise.resolve(this.m[fn](...args)); } catch (e) { return Promise.reject(e); }
  }
}

class WorkerEngine {
  constructor(worker, mode) {
    this.w = worker;
    this.mode = mode;
    this.seq = 0;
    this.pending = new Map();
    this.broken = null;
    worker.onmessage = (e) => {
      const d = e.data || {};
      const p = this.pending.get(d.id);
      if (!p) return;
      if (typeof d.progress === 'number') { if (p.onProgress) p.onProgress(d.progress); return; }
      this.pending.delete(d.id);
      if (d.speculated) this.speculated = (this.speculated || 0) + 1;  // answered by js/preload.js's speculation
      if (d.err) p.reject(new Error(d.err));
      else p.resolve(d.out);
    };
    const fail = (why) => {
      this.broken = why;
      for (const p of this.pending.values()) p.reject(new Error(why));
      this.pending.clear();
    };
    worker.onerror = (e) => { if (e && e.preventDefault) e.preventDefault(); fail('worker error: ' + (e && e.message ? e.message : 'load failed')); };
    worker.onmessageerror = () => fail('worker message error');
  }
  call(fn, ...args) { return this.callWith(fn, args, null); }
  callWith(fn, args, onProgress) {
    if (this.broken) return Promise.reject(new Error(this.broken));
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      this.pending.set(id, { resolve, reject, onProgress });
      this.w.postMessage({ id, fn, args, progress: !!onProgress });
    });
  }
  terminate() {
    this.broken = 'cancelled';
    this.w.terminate();
    for (const p of this.pending.values()) p.reject(new Error('cancelled'));
    this.pending.clear();
  }
}

// The search's own worker, kept between searches and replaced after a cancel. Returns
// {promise, cancel}; the promise rejects with "cancelled" after cancel(). Without workers the
// search runs on the main thread (no progress, no cancel).
let searcher = null, mainSearcher = null;
// Makes the search's worker unless a live one exists; boot calls it once the first report is shown,
// so that the first click does not wait for the core to load and compile in a new worker.
function prewarmSearch() {
  if (searcher && !searcher.broken) return searcher;
  const made = makeWorker();
  return (searcher = made ? new WorkerEngine(made.w, made.mode) : null);
}

function search(scenarioJson, optionsJson, onProgress) {
  const eng = prewarmSearch();
  if (!eng) {
    mainSearcher = mainSearcher || mainEngine();  // one main-thread module, not one per search
    const promise = mainSearcher.then((m) => m.call('search', scenarioJson, optionsJson));
    return { promise, cancel() {} };
  }
  const promise = eng.callWith('searchProgress', [scenarioJson, optionsJson], onProgress || (() => {}));
  return { promise, cancel() { if (searcher === eng) searcher = null; eng.terminate(); } };
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(src + ' could not be loaded'));
    document.head.appendChild(s);
  });
}

async function mainEngine() {
  if (typeof window.SloCore !== 'function') await loadScript('slo_core.js');
  if (typeof window.SloCore !== 'function') throw new Error('slo_core.js did not define SloCore');
  return new MainEngine(await window.SloCore());
}

function timeout(p, ms) {
  let t;
  return Promise.race([p, new Promise((_, rej) => { t = setTimeout(() => rej(new Error('timeout')), ms); })]).finally(() => clearTimeout(t));
}

function makeWorker() {
  if (typeof Worker !== 'function') return null;
  const inline = document.querySelector('script[data-src="slo_core.js"]');
  try {
    if (inline) {
      const url = URL.createObjectURL(new Blob([inline.textContent, '\n', BOOT], { type: 'text/javascript' }));
      return { w: new Worker(url), mode: 'worker-blob' };
    }
    if (/^https?:$/.test(location.protocol)) return { w: adoptEarlyWorker() || new Worker('js/engine-worker.js'), mode: 'worker' };
  } catch (e) { /* CSP or file:// refused the worker: main thread */ }
  return null;
}

// The worker js/preload.js started before this script ran, taken once (by the first engine made).
// One whose script failed to load is dropped: its error event has passed, so no call would settle.
function adoptEarlyWorker() {
  const early = typeof window !== 'undefined' ? window.SloEarlyWorker : null;
  if (!early) return null;
  window.SloEarlyWorker = null;
  if (!early.failed) return early.worker;
  early.worker.terminate();
  return null;
}

// Resolves to an engine; the worker is proven by a first call before it is used.
async function create(opts) {
  const o = opts || {};
  if (!o.forceMain) {
    const made = makeWorker();
    if (made) {
      const eng = new WorkerEngine(made.w, made.mode);
      try {
        await timeout(eng.call('version'), 30000);
        return withFallback(eng);
      } catch (e) {
        made.w.terminate();
      }
    }
  }
  return mainEngine();
}

// A worker that dies later hands over to the main thread instead of leaving the page stuck.
function withFallback(eng) {
  let main = null;
  return {
    get mode() { return main ? main.mode : eng.mode; },
    get speculated() { return eng.speculated || 0; },
    async call(fn, ...args) {
      if (main) return main.call(fn, ...args);
      try {
        return await eng.call(fn, ...args);
      } catch (e) {
        if (!eng.broken) throw e;
        main = await mainEngine();
        return main.call(fn, ...args);
      }
    },
  };
}

export const Engine = { create, search, prewarmSearch, BOOT };
