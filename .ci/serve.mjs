// A tiny static file server for the built page (Node's http module only, no npm dependency).
// Binds 127.0.0.1 only, serves GET/HEAD below --root, refuses anything that resolves outside it.
// Usage: node .ci/serve.mjs [--root build/web] [--port 8080]   (PORT env also sets the port)
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const rootArg = path.resolve(opt('--root', 'build/web'));
if (!fs.existsSync(rootArg)) {
  console.error(`serve: ${rootArg} does not exist (build the page first: .ci/build)`);
  process.exit(1);
}
const root = fs.realpathSync(rootArg);
const port = Number(opt('--port', process.env.PORT || '8080'));
const host = '127.0.0.1';
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid port ${port}`);
  process.exit(2);
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(`${status} ${text}\n`);
}

// Maps a request path to a file strictly inside root, or null.
function resolveFile(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  let file = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    let st = fs.statSync(file);
    if (st.isDirectory()) {
      file = path.join(file, 'index.html');
      st = fs.statSync(file);
    }
    if (!st.isFile()) return null;
    const real = fs.realpathSync(file);  // a symlink must not lead outside root either
    if (!real.startsWith(root + path.sep)) return null;
    return { file: real, size: st.size };
  } catch {
    return null;
  }
}

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'Method Not Allowed');
  }
  let pathname;
  try {
    pathname = new URL(req.url, `http://${host}`).pathname;
  } catch {
    return send(res, 400, 'Bad Request');
  }
  const hit = resolveFile(pathname);
  if (!hit) return send(res, 404, 'Not Found');
  const type = MIME[path.extname(hit.file).toLowerCase()] || 'application/octet-stream';
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': hit.size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') return res.end();
  fs.createReadStream(hit.file)
    .on('error', () => res.destroy())
    .pipe(res);
});

server.on('error', (e) => {
  console.error(`serve: ${e.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`Serving ${root} on http://${host}:${actual}/ (default scenario; Ctrl-C stops)`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
});
