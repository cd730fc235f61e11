// The editor's field table: scenario paths (defaults-v1.json), labels, units and input kinds.
// Validation is the core's: the page only converts typed text to JSON values.
const L = (en, zh) => ({ en, zh });
const U = {
  tokens: L('tokens', 'token'),
  ms: L('ms', '毫秒'),
  gbs: L('GB/s', 'GB/s'),
  usdh: L('USD / GPU-hour', '美元 / 卡时'),
  tbs: L('TB/s', 'TB/s'),
  gb: L('GB', 'GB'),
  tflops: L('TFLOPS', 'TFLOPS'),
  tops: L('TOPS', 'TOPS'),
  gpus: L('GPUs', '卡'),
  nodes: L('nodes', '节点'),
  gpn: L('GPUs / node', '卡 / 节点'),
  sessions: L('sessions', '会话'),
  tps: L('tokens/s', 'token/s'),
  qpm: L('requests/min', '请求/分钟'),
  ratio: L('0–1', '0–1'),
  frac: L('of GPU memory', '显存占比'),
  reqgpu: L('requests / GPU', '请求 / 卡'),
  reqs: L('requests', '请求'),
  experts: L('experts', '专家'),
  ranks: L('ranks', '路'),
  stages: L('stages', '级'),
  elems: L('elements', '元素'),
  bytes: L('bytes', '字节'),
};

const WEIGHTS = ['bf16', 'fp16', 'fp8', 'int8', 'int4', 'nvfp4', 'mxfp4'];
const ACTS = ['bf16', 'fp16', 'fp8', 'int8', 'fp4'];
const KV = ['bf16', 'fp16', 'fp8', 'int8'];
const GROUPS = [16, 32, 64, 128, 256, 512, 1024];
const HIGH = ['embedding', 'lm_head', 'router', 'norms', 'attention'];
const HIGH_L = {
  embedding: L('embedding', '词嵌入'), lm_head: L('lm_head', '输出头 lm_head'), router: L('router', '路由 router'),
  norms: L('norms', '归一化层'), attention: L('attention', '注意力'),
};

// Quick precision schemes (issue 5). The catalog's list wins when the core provides one
// (catalog.precision_schemes: [{id, name, precision:{weights, activations, kv_cache}}]).
const SCHEMES = [
  { id: 'bf16', name: L('bf16 (W16A16, KV bf16)', 'bf16（W16A16，KV bf16）'), precision: { weights: 'bf16', activations: 'bf16', kv_cache: 'bf16' } },
  { id: 'fp8', name: L('fp8 (W8A8 fp8, KV bf16)', 'fp8（W8A8 fp8，KV bf16）'), precision: { weights: 'fp8', activations: 'fp8', kv_cache: 'bf16' } },
  { id: 'w4a8c8', name: L('w4a8c8 (weights int4, activations int8, KV int8)', 'w4a8c8（权重 int4、激活 int8、KV int8）'), precision: { weights: 'int4', activations: 'int8', kv_cache: 'int8' } },
  { id: 'w4a16', name: L('w4a16 (weights int4, activations bf16)', 'w4a16（权重 int4、激活 bf16）'), precision: { weights: 'int4', activations: 'bf16', kv_cache: 'bf16' } },
  { id: 'nvfp4', name: L('nvfp4 (weights nvfp4, activations fp4, KV fp8)', 'nvfp4（权重 nvfp4、激活 fp4、KV fp8）'), precision: { weights: 'nvfp4', activations: 'fp4', kv_cache: 'fp8' } },
];

function pool(prefix, name) {
  const p = prefix + 'deployment.' + name + '.';
  return [
    { path: p + 'gpus', type: 'int', label: L('GPUs in the pool', '池内 GPU 数'), unit: U.gpus },
    { path: p + 'replicas', type: 'int', label: L('Instances (replicas)', '实例数（副本）'), unit: L('instances', '个') },
    { path: p + 'attention_tp', type: 'int', label: L('Attention TP', '注意力张量并行 TP'), unit: U.ranks },
    { path: p + 'ep', type: 'int', label: L('Expert parallel EP', '专家并行 EP'), unit: U.ranks },
    { path: p + 'pp', type: 'int', label: L('Pipeline parallel PP', '流水线并行 PP'), unit: U.stages },
    { path: p + 'redundant_experts', type: 'int', label: L('Redundant experts', '冗余专家'), unit: U.experts },
    { path: p + 'cpu_offload_gb', type: 'number', label: L('Weights offloaded to host memory', '卸载到主机内存的权重'), unit: L('GB / GPU', 'GB / 卡') },
  ];
}

const POOL_TITLES = {
  colocated: L('Colocated pool (prefill + decode)', '混合部署池（预填充 + 解码）'),
  prefill: L('Prefill pool', '预填充池'),
  decode: L('Decode pool', '解码池'),
};

function precisionFields(prefix) {
  const p = prefix + 'precision.';
  return [
    { path: p + 'weights', type: 'select', options: WEIGHTS, label: L('Weights', '权重'), unit: L('format', '格式') },
    { path: p + 'activations', type: 'select', options: ACTS, label: L('Activations (GEMM input)', '激活（GEMM 输入）'), unit: L('format', '格式') },
    { path: p + 'kv_cache', type: 'select', options: KV, label: L('KV cache', 'KV 缓存'), unit: L('format', '格式') },
    { path: p + 'group_size', type: 'select', options: GROUPS, number: true, label: L('Quantization group size', '量化分组大小'), unit: U.elems },
    { path: p + 'fp8_scales', type: 'select', options: ['block', 'tensor'], when: (d) => get(d, p + 'weights') === 'fp8',
      optionLabels: { block: L('128 x 128 blocks', '128 x 128 分块'), tensor: L('per tensor / channel', '按张量 / 通道') },
      label: L('FP8 weight scales', 'FP8 权重缩放粒度') },
    { path: p + 'high_precision', type: 'multi', options: HIGH, optionLabels: HIGH_L, label: L('Kept in high precision', '保持高精度的组件') },
  ];
}

function deploymentFields(prefix) {
  const p = prefix + 'deployment.';
  return [
    { path: p + 'engine.name', type: 'select', options: ['sglang', 'vllm', 'trtllm'],
      optionLabels: { sglang: L('SGLang', 'SGLang'), vllm: L('vLLM', 'vLLM'), trtllm: L('TensorRT-LLM', 'TensorRT-LLM') },
      label: L('Serving engine', '推理引擎') },
    { path: p + 'engine.version', type: 'text', nullable: true, maxlength: 64, label: L('Engine version (optional)', '引擎版本（可选）') },
    { path: p + 'mode', type: 'select', options: ['colocated', 'disaggregated'],
      optionLabels: { colocated: L('colocated (prefill and decode on the same GPUs)', '混合部署（预填充与解码同卡）'),
                      disaggregated: L('disaggregated (separate prefill and decode pools)', 'PD 分离（独立的预填充池与解码池）') },
      label: L('Serving mode', '部署模式') },
    { pool: 'colocated', prefix, when: (d) => get(d, p + 'mode') !== 'disaggregated', fields: pool(prefix, 'colocated') },
    { pool: 'prefill', prefix, when: (d) => get(d, p + 'mode') === 'disaggregated', fields: pool(prefix, 'prefill') },
    { pool: 'decode', prefix, when: (d) => get(d, p + 'mode') === 'disaggregated', fields: pool(prefix, 'decode') },
    { path: p + 'memory_fraction', type: 'number', nullable: true, nullText: 'auto', label: L('Memory fraction (0.1–1)', '可用显存比例（0.1–1）'), unit: U.frac, wide: true },
    { path: p + 'two_batch_overlap', type: 'select', options: ['auto', 'on', 'off'],
      optionLabels: { auto: L('auto', '自动'), on: L('on', '开'), off: L('off', '关') }, label: L('Two-batch overlap', '双批次重叠 (TBO)') },
    { path: p + 'offload_mode', type: 'select', options: ['on_demand', 'prefetch'],
      when: (d) => ['colocated', 'prefill', 'decode'].some((k) => Number(get(d, p + k + '.cpu_offload_gb')) > 0),
      optionLabels: { on_demand: L('on demand (--cpu-offload-gb: each layer waits for its weights)', '按需（--cpu-offload-gb：每层等待其权重传入）'),
                      prefetch: L('prefetch (copied while earlier layers compute)', '预取（前面的层计算时提前拷贝）') },
      label: L('Offloaded weights', '卸载权重的传输方式'), wide: true },
    { path: p + 'expert_balance', type: 'number', nullable: true, nullText: 'auto', label: L('Expert load balance (mean / max per EP rank)', '专家负载均衡度（EP 各卡均值 / 最大值）'), unit: L('0.05–1', '0.05–1'), wide: true },
    { path: p + 'chunked_prefill_tokens', type: 'int', label: L('Chunked prefill size', '分块预填充大小'), unit: U.tokens },
    { path: p + 'max_decode_batch_per_gpu', type: 'int', nullable: true, nullText: 'auto', label: L('Max decode batch', '最大解码批大小'), unit: U.reqgpu },
    { path: p + 'mtp.draft_tokens', type: 'int', label: L('MTP draft tokens', 'MTP 草稿 token 数'), unit: U.tokens },
    { path: p + 'mtp.acceptance', type: 'number', label: L('MTP acceptance rate', 'MTP 接受率'), unit: U.ratio },
  ];
}

function workloadFields(prefix) {
  const p = prefix + 'workload.';
  return [
    { path: p + 'input_tokens', type: 'number', label: L('Input length (mean)', '输入长度（均值）'), unit: U.tokens },
    { path: p + 'input_tokens_max', type: 'number', label: L('Input length (max)', '输入长度（最大）'), unit: U.tokens },
    { path: p + 'output_tokens', type: 'number', label: L('Output length (mean)', '输出长度（均值）'), unit: U.tokens },
    { path: p + 'output_tokens_max', type: 'number', label: L('Output length (max)', '输出长度（最大）'), unit: U.tokens },
    { path: p + 'context_length', type: 'int', label: L('Context window', '上下文窗口'), unit: U.tokens },
    { path: p + 'arrival_qpm', type: 'number', nullable: true, nullText: 'auto', label: L('Arrival rate', '到达速率'), unit: U.qpm },
    { path: p + 'kind', type: 'select', options: ['poisson', 'closed_loop', 'static_batch', 'burst'],
      optionLabels: { poisson: L('Poisson arrivals (rate above)', '泊松到达（按上方速率）'),
                      closed_loop: L('closed loop: N clients (bench_serving --max-concurrency)', '闭环：N 个并发客户端（bench_serving --max-concurrency）'),
                      static_batch: L('static batch (bench_one_batch, vllm bench latency)', '静态批（bench_one_batch、vllm bench latency）'),
                      burst: L('burst: N requests at once', '突发：同时发送 N 个请求') },
      label: L('Load kind', '负载类型') },
    { path: p + 'concurrency', type: 'int', nullable: true, nullText: '-', when: (d) => get(d, p + 'kind') === 'closed_loop', label: L('Clients (concurrency)', '并发客户端数'), unit: U.reqs },
    { path: p + 'batch', type: 'int', nullable: true, nullText: '-', when: (d) => get(d, p + 'kind') === 'static_batch', label: L('Batch size', '批大小'), unit: U.reqs },
    // A closed loop's N (--num-prompts) makes it a finite run: its mean TTFT counts the first wave of
    // C prompts sent together and its throughput the tail; '-' is an endless loop (docs/PHYSICS.md).
    { path: p + 'requests', type: 'int', nullable: true, nullText: '-', when: (d) => ['burst', 'closed_loop'].includes(get(d, p + 'kind')),
      label: L('Requests in the run (--num-prompts)', '本轮请求数（--num-prompts）'), unit: U.reqs },
  ];
}

const THROUGHPUT_KIND = { total: L('total (input + output)', '总计（输入 + 输出）'), output: L('output only', '仅输出'), input: L('input only', '仅输入') };

// Groups in display order. `details: true` folds the group (advanced) until opened.
const GROUPS_DEF = [
  { id: 'scenario', title: L('Scenario', '场景'), fields: [
    { widget: 'scenario-preset' },
    { path: 'name', type: 'text', maxlength: 200, label: L('Scenario name', '场景名称') },
  ] },
  { id: 'model', title: L('Model', '模型'), fields: [
    { widget: 'model-preset', path: 'model.preset', label: L('Model preset', '模型预设') },
    { path: 'model.name', type: 'text', nullable: true, maxlength: 120, label: L('Display name (optional)', '显示名称（可选）') },
    { widget: 'model-config', path: 'model.config', label: L('Hugging Face config.json', 'Hugging Face config.json') },
  ] },
  { id: 'hardware', title: L('Hardware', '硬件'), fields: [
    { widget: 'gpu-preset', path: 'hardware.gpu', label: L('GPU', 'GPU') },
    { path: 'hardware.nodes', type: 'int', label: L('Nodes', '节点数'), unit: U.nodes, cluster: true },
    { path: 'hardware.gpus_per_node', type: 'int', label: L('GPUs per node', '每节点 GPU 数'), unit: U.gpn, cluster: true },
    { widget: 'cluster-size' },
    { path: 'hardware.nvlink_gb_s', type: 'number', nullable: true, nullText: 'preset', gpuDefault: 'nvlink_gb_s', label: L('NVLink bandwidth override', 'NVLink 带宽（覆盖）'),
      labelPcie: L('GPU-to-GPU (PCIe) bandwidth override', 'GPU 间（PCIe）带宽（覆盖）'), unit: U.gbs },
    { path: 'hardware.nic_gb_s', type: 'number', nullable: true, nullText: 'preset', gpuDefault: 'nic_gb_s', label: L('NIC bandwidth per GPU override', '每卡网卡带宽（覆盖）'), unit: U.gbs },
    { path: 'hardware.gpu_hour_usd', type: 'number', nullable: true, nullText: 'none', label: L('Price per GPU-hour (optional: gives the cost per million tokens)', '每卡每小时价格（可选：给出每百万 tokens 成本）'), unit: U.usdh },
    { group: 'custom_gpu', path: 'hardware.custom_gpu', when: (d) => get(d, 'hardware.gpu') === 'custom', title: L('Custom GPU', '自定义 GPU'), fields: [
      { path: 'hardware.custom_gpu.name', type: 'text', maxlength: 80, label: L('Name', '名称') },
      { path: 'hardware.custom_gpu.memory_gb', type: 'number', label: L('Memory', '显存'), unit: U.gb },
      { path: 'hardware.custom_gpu.hbm_tb_s', type: 'number', label: L('HBM bandwidth', 'HBM 带宽'), unit: U.tbs },
      { path: 'hardware.custom_gpu.bf16_tflops', type: 'number', label: L('BF16 dense', 'BF16 稠密算力'), unit: U.tflops },
      { path: 'hardware.custom_gpu.fp8_tflops', type: 'number', label: L('FP8 dense (0 = none)', 'FP8 稠密算力（0 = 不支持）'), unit: U.tflops },
      { path: 'hardware.custom_gpu.int8_tops', type: 'number', label: L('INT8 dense (0 = none)', 'INT8 稠密算力（0 = 不支持）'), unit: U.tops },
      { path: 'hardware.custom_gpu.fp4_tflops', type: 'number', label: L('FP4 dense (0 = none)', 'FP4 稠密算力（0 = 不支持）'), unit: U.tflops },
      { path: 'hardware.custom_gpu.nvlink_gb_s', type: 'number', label: L('NVLink bandwidth', 'NVLink 带宽'), unit: U.gbs },
      { path: 'hardware.custom_gpu.nic_gb_s', type: 'number', label: L('NIC bandwidth per GPU', '每卡网卡带宽'), unit: U.gbs },
      { path: 'hardware.custom_gpu.nvlink_domain', type: 'int', label: L('NVLink domain', 'NVLink 域大小'), unit: U.gpus },
    ] },
  ] },
  { id: 'workload', title: L('Workload', '负载'), fields: workloadFields('') },
  { id: 'slo', title: L('Service-level objectives', '服务等级目标 (SLO)'), fields: [
    { path: 'slo.concurrent_sessions', type: 'int', nullable: true, nullText: 'none', label: L('Concurrent sessions', '并发会话数'), unit: U.sessions },
    { path: 'slo.throughput_tokens_per_s', type: 'number', nullable: true, nullText: 'none', label: L('Throughput', '吞吐'), unit: U.tps },
    { path: 'slo.throughput_kind', type: 'select', options: ['total', 'output', 'input'], optionLabels: THROUGHPUT_KIND, label: L('Throughput counts', '吞吐口径') },
    { path: 'slo.ttft_p50_ms', type: 'number', nullable: true, nullText: 'none', label: L('TTFT P50', '首 token 时延 P50'), unit: U.ms },
    { path: 'slo.ttft_p99_ms', type: 'number', nullable: true, nullText: 'none', label: L('TTFT P99', '首 token 时延 P99'), unit: U.ms },
    { path: 'slo.tpot_ms', type: 'number', nullable: true, nullText: 'none', label: L('TPOT (time per output token)', 'TPOT（每输出 token 时间）'), unit: U.ms },
  ] },
  { id: 'precision', details: true, title: L('Precision', '精度'), fields: [
    { widget: 'scheme', prefix: '' },
    ...precisionFields(''),
  ] },
  { id: 'deployment', details: true, title: L('Parallelism and memory', '并行与显存'), fields: deploymentFields('') },
  { id: 'reference', details: true, title: L('Reference measurement and calibration', '参考实测与校准'), fields: [
    { widget: 'reference-preset', path: 'reference.preset', label: L('Reference point', '参考测量点') },
    { widget: 'bench-paste' },
    { path: 'reference.calibrate', type: 'bool', when: (d) => get(d, 'reference.preset') !== 'none', label: L('Calibrate to this measurement', '按此实测校准') },
    { group: 'reference-body', when: (d) => get(d, 'reference.preset') !== 'none', fields: [
      { path: 'reference.name', type: 'text', nullable: true, maxlength: 200, label: L('Name', '名称'), ref: true },
      { path: 'reference.source', type: 'text', nullable: true, maxlength: 400, label: L('Source', '来源'), ref: true },
      { path: 'reference.measured.throughput_tokens_per_s', type: 'number', label: L('Measured throughput', '实测吞吐'), unit: U.tps, ref: true },
      { path: 'reference.measured.throughput_kind', type: 'select', options: ['total', 'output', 'input'], optionLabels: THROUGHPUT_KIND, label: L('Throughput counts', '吞吐口径'), ref: true },
      { path: 'reference.measured.tpot_ms', type: 'number', nullable: true, nullText: 'none', label: L('At TPOT', '对应 TPOT'), unit: U.ms, ref: true },
      { path: 'reference.measured.ttft_ms', type: 'number', nullable: true, nullText: 'none', label: L('At TTFT', '对应 TTFT'), unit: U.ms, ref: true },
      { path: 'reference.measured.qpm', type: 'number', nullable: true, nullText: 'none', label: L('At arrival rate', '对应到达速率'), unit: U.qpm, ref: true },
      { path: 'reference.measured.observed', type: 'bool', wide: true, label: L('Figures observed at the run\'s own load (a benchmark run), not limits', '上述指标为运行自身负载下的实测值（基准测试运行），而非限制条件'), ref: true },
      { path: 'reference.gpu', type: 'gpu', label: L('GPU', 'GPU'), ref: true },
      { path: 'reference.gpus_per_node', type: 'int', label: L('GPUs per node', '每节点 GPU 数'), unit: U.gpn, ref: true },
      { group: 'reference-precision', title: L('Precision of the measurement', '实测所用精度'), fields: [{ widget: 'scheme', prefix: 'reference.' }, ...precisionFields('reference.')].map(refMark) },
      { group: 'reference-deployment', title: L('Deployment of the measurement', '实测所用部署'), fields: deploymentFields('reference.').map(refMark) },
      { group: 'reference-workload', title: L('Workload of the measurement', '实测所用负载'), fields: workloadFields('reference.').map(refMark) },
    ] },
  ] },
  { id: 'other', details: true, title: L('Other fields', '其他字段'), fields: [], other: true },
  { id: 'document', details: true, title: L('Scenario document (JSON)', '场景文档（JSON）'), fields: [{ widget: 'document' }] },
];

function refMark(f) {
  if (f.fields) return Object.assign({}, f, { fields: f.fields.map(refMark) });
  return Object.assign({}, f, { ref: true });
}

// Path helpers: "a.b.c" on plain objects (no prototype keys).
function get(obj, path) {
  let o = obj;
  for (const k of path.split('.')) {
    if (o === null || typeof o !== 'object' || !Object.prototype.hasOwnProperty.call(o, k)) return undefined;
    o = o[k];
  }
  return o;
}
function set(obj, path, value) {
  const ks = path.split('.');
  let o = obj;
  for (let i = 0; i < ks.length - 1; i++) {
    const k = ks[i];
    if (o[k] === null || typeof o[k] !== 'object' || Array.isArray(o[k])) o[k] = {};
    o = o[k];
  }
  o[ks[ks.length - 1]] = value;
}

// Every leaf path the table covers (for the "other fields" fallback).
function coveredPaths() {
  const out = new Set();
  const walk = (fs) => {
    for (const f of fs) {
      if (f.fields) walk(f.fields);
      if (f.path) out.add(f.path);
    }
  };
  for (const g of GROUPS_DEF) walk(g.fields);
  out.add('version');
  out.add('hardware.custom_gpu');
  return out;
}

export const Fields = { GROUPS: GROUPS_DEF, SCHEMES, POOL_TITLES, UNITS: U, get, set, coveredPaths, L };
