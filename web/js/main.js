// The page's entry point, bundled by esbuild (web/build.mjs) into one classic script that also runs
// from file:// and inside the single-file page. Every number shown comes from the core (slo_core.js,
// in a Worker when possible); the modules under app/ edit the scenario and render the results.
import { boot, publicApi } from './app/boot.js';
import { Charts } from './charts.js';
import { Exports } from './exports.js';
import { SearchPanel } from './search-panel.js';

window.SloEstimator = publicApi;
// Hooks for the browser tests and the console (read-only use).
window.SLO = { charts: Charts, exports: Exports, searchPanel: SearchPanel };

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
else boot();
