// A throw-away nginx serving saved HTML files from a temporary folder on 127.0.0.1: the ceiling
// for a public page. Its own config, pid, logs and temp folders live in that folder; it is not the
// system service, and it is stopped by its master PID.
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { stopChild, tail, waitForHttp } from './processes.mjs'

const CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx']

export function findNginx() {
  if (process.env.NGINX_PATH) return existsSync(process.env.NGINX_PATH) ? process.env.NGINX_PATH : null
  return CANDIDATES.find((candidate) => existsSync(candidate)) ?? null
}

export function nginxVersion(binary) {
  const result = spawnSync(binary, ['-v'], { encoding: 'utf8', timeout: 5_000 })
  return (result.stderr || result.stdout || '').trim().replace(/^nginx version:\s*/, '')
}

/**
 * @param {{binary: string, dir: string, port: number, workers: number, pages: Record<string, string>}} options
 *   pages maps a URL path ('/', '/blog/x') to its HTML; each is written as <path>/index.html plus a
 *   gzip -9 copy for gzip_static, so nginx does no compression work per request.
 */
export async function startNginx({ binary, dir, port, workers, pages }) {
  const root = path.join(dir, 'html')
  for (const [urlPath, html] of Object.entries(pages)) {
    const folder = path.join(root, ...urlPath.split('/').filter(Boolean).map(decodeURIComponent))
    mkdirSync(folder, { recursive: true })
    writeFileSync(path.join(folder, 'index.html'), html)
    writeFileSync(path.join(folder, 'index.html.gz'), gzipSync(Buffer.from(html), { level: 9 }))
  }
  // Workers drop to `nobody` when nginx starts as root: let them read the files.
  for (let folder = root; folder.startsWith(dir); folder = path.dirname(folder)) chmodSync(folder, 0o755)
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub), { recursive: true })

  const conf = `# bench-pages: temporary nginx, removed at the end of the run
worker_processes ${workers};
daemon off;
master_process on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  default_type text/html;
  charset utf-8;
  gzip_static on;
  gzip_vary on;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { try_files $uri/index.html $uri =404; }
  }
}
`
  const confPath = path.join(dir, 'nginx.conf')
  writeFileSync(confPath, conf)
  const test = spawnSync(binary, ['-t', '-q', '-p', dir, '-e', `${dir}/error.log`, '-c', confPath], {
    encoding: 'utf8',
    timeout: 10_000,
  })
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr || test.stdout}`)

  const child = spawn(binary, ['-p', dir, '-e', `${dir}/error.log`, '-c', confPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = tail(child.stderr)
  tail(child.stdout)
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, { child, timeoutMs: 10_000, log })
  } catch (error) {
    await stop(child)
    throw error
  }
  return { child, url: `http://127.0.0.1:${port}`, stop: () => stop(child) }
}

/** SIGQUIT (graceful), then SIGTERM (fast), then SIGKILL, each to the master's PID only. */
async function stop(child) {
  await stopChild(child, { signals: ['SIGQUIT', 'SIGTERM'], graceMs: 5_000 })
}
