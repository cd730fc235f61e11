// A synthetic report of schema 1 (docs/DESIGN.md) holding every item kind and chart kind, so that the
// renderer is tested on the whole schema whatever the core emits today. Numbers are made up: the page
// renders them, it never checks them.
const V = (number, unit, text) => ({ number, unit, text });
export const sampleReport = {
  format: 'slo-estimator-report', schema: 1, method: 'corrected', lang: 'en',
  title: 'Sample <img src=x onerror=alert(1)> report',
  verdicts: [
    { id: 'sessions', label: 'Concurrent sessions', status: 'pass', value: V(262, 'sessions', '262 sessions'), target: V(200, 'sessions', '200 sessions'), margin: V(0.31, '%', '+31.0 %'), detail: 'KV cache holds 262 sessions at 32K.' },
    { id: 'throughput', label: 'Throughput', status: 'fail', value: V(41000, 'tokens/s', '41,000 tokens/s'), target: V(50000, 'tokens/s', '50,000 tokens/s'), margin: V(-0.18, '%', '-18.0 %'), detail: '' },
    { id: 'ttft', label: 'TTFT P50', status: 'warn', value: V(760, 'ms', '760 ms'), target: V(800, 'ms', '800 ms'), margin: V(0.05, '%', '+5.0 %'), detail: 'Within 10 % of the limit.' },
    { id: 'mtp', label: 'MTP', status: 'info', value: V(null, '', 'off'), target: V(null, '', ''), margin: V(null, '', ''), detail: '' },
  ],
  bottlenecks: ['Decode is HBM-bandwidth bound at batch 64', 'All-to-all over the NIC limits EP across nodes'],
  sections: [
    { id: 'memory', title: 'Memory per GPU', items: [
      { kind: 'row', id: 'weights', label: 'Weights', value: V(21.4, 'GB', '21.4 GB'), level: 0, note: 'fp8, 1/32 of the experts' },
      { kind: 'row', id: 'kv', label: 'KV cache', value: V(52.1, 'GB', '52.1 GB'), level: 0, note: '' },
      { kind: 'row', id: 'kv-per', label: 'per session at 32K', value: V(0.2, 'GB', '0.20 GB'), level: 1, note: '' },
      { kind: 'row', id: 'head', label: 'Activations and reserves', value: V(null, '', ''), level: 0, note: '' },
      { kind: 'text', text: 'Memory fraction 0.9 of 96 GB.' },
      { kind: 'chart', id: 'memory-breakdown', title: 'Memory per GPU', chart: 'stacked-bar', x_label: 'Pool', x_unit: '', y_label: 'Memory', y_unit: 'GB',
        categories: ['prefill', 'decode'], series: [{ name: 'weights', points: [[0, 21.4], [1, 21.4]] }, { name: 'KV cache', points: [[0, 40], [1, 52.1]] }, { name: 'activations', points: [[0, 6], [1, 3]] }],
        markers: [{ axis: 'y', value: 86.4, label: 'usable 86.4 GB' }] },
    ] },
    { id: 'decode', title: 'Decode', items: [
      { kind: 'table', id: 'batch-sweep', title: 'Decode batch sweep', columns: ['batch / GPU', 'TPOT', 'throughput, "total"'],
        rows: [[V(16, '', '16'), V(31, 'ms', '31 ms'), V(16500, 'tokens/s', '16,500 tokens/s')], [V(32, '', '32'), V(38, 'ms', '38 ms'), V(27000, 'tokens/s', '27,000 tokens/s')], [V(64, '', '64'), V(52, 'ms', '52 ms'), V(39400, 'tokens/s', '39,400 tokens/s')]],
        note: 'TPOT limit 50 ms' },
      { kind: 'chart', id: 'throughput-vs-tpot', title: 'Throughput vs TPOT', chart: 'line', x_label: 'TPOT', x_unit: 'ms', y_label: 'Throughput', y_unit: 'tokens/s',
        categories: [], series: [{ name: 'corrected', points: [[31, 16500], [38, 27000], [52, 39400]] }, { name: 'seed', points: [[28, 18000], [35, 30000], [47, 45000]] }],
        markers: [{ axis: 'x', value: 50, label: 'TPOT limit 50 ms' }] },
      { kind: 'bullet', text: 'Two-batch overlap hides 70 % of the all-to-all.' },
      { kind: 'bullet', text: 'MTP off.' },
      { kind: 'verdict', id: 'tpot', label: 'TPOT', status: 'pass', value: V(38, 'ms', '38 ms'), target: V(50, 'ms', '50 ms'), margin: V(12, 'ms', '+12 ms'), detail: '' },
    ] },
    { id: 'queue', title: 'Queueing', items: [
      { kind: 'chart', id: 'ttft-vs-rate', title: 'TTFT percentiles vs arrival rate', chart: 'bar', x_label: 'Arrival rate', x_unit: 'requests/min', y_label: 'TTFT', y_unit: 'ms',
        categories: ['100', '200', '300'], series: [{ name: 'P50', points: [[0, 300], [1, 520], [2, 900]] }, { name: 'P99', points: [[0, 700], [1, 1400], [2, 3100]] }],
        markers: [{ axis: 'y', value: 800, label: 'TTFT P50 limit' }] },
    ] },
  ],
  warnings: ['The reference measurement used a different GPU; calibration is approximate.'],
  appendices: [],
};
