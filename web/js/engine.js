// The core behind one async API, off the main thread when possible so that typing never waits for
// an evaluation:
//   served page (http/https): a Worker from js/engine-worker.js, which loads ../slo_core.js
//   single file (file://, wiki attachment): a blob: Worker built from the inlined slo_core.js text
//   otherwise (or if the worker fails): the module on the main thread.
// Only the core's string functions cross (evaluate, validate, defaultScenario, catalog, version).
(function (SLO) {
  'use strict';
  const BOOT = 'var slo_ready=SloCore();onmessage=function(e){var d=e.data;slo_ready.then(function(m){var out=null,err=null;' +
    'try{out=m[d.fn].apply(null,d.args)}catch(x){err=String(x&&x.message?x.message:x)}postMessage({id:d.id,out:out,err:err})},' +
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
        this.pending.delete(d.id);
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
    call(fn, ...args) {
      if (this.broken) return Promise.reject(new Error(this.broken));
      return new Promise((resolve, reject) => {
        const id = ++this.seq;
        this.pending.set(id, { resolve, reject });
        this.w.postMessage({ id, fn, args });
      });
    }
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
      if (/^https?:$/.test(location.protocol)) return { w: new Worker('js/engine-worker.js'), mode: 'worker' };
    } catch (e) { /* CSP or file:// refused the worker: main thread */ }
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

  SLO.engine = { create, BOOT };
})(window.SLO = window.SLO || {});
