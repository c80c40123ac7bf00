// What every file of tests/node starts with: a real `toolcalc serve` under the base path
// /api on a kernel-chosen loopback port, in a directory of its own, with one key (from
// `toolcalc keys create`) of a plan that no file's calls exhaust; and its end.
//
// Not a test file: `node --test tests/node/` runs only the *.test.mjs files.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = process.env.TOOLCALC_BIN || join(REPO, 'build', 'toolcalc');

const PLAN = '[plans.ci]\nrate_per_minute = 10000\nmonthly_quota = 100000\n';

// `toolcalc <args>` (a serve command) once it logs its port: {proc, port}. A server that
// exits first, or logs no port within 15 s, is an error (and, in the second case, stopped).
function spawnServer(args) {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no 'listening on' line: ${out} ${err}`));
    }, 15000);
    proc.stdout.on('data', (d) => { out += d; });
    // The start-up line is an operational log line: JSON on stderr.
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /"msg":"listening on ([^"]+):(\d+)"/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ proc, port: Number(m[2]) });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolcalc serve exited ${code}: ${out} ${err}`));
    });
  });
}

class TestServer {
  constructor(workdir) {
    this.workdir = workdir;
    this.base = undefined; // http://127.0.0.1:PORT/api
    this.key = undefined;
    this.server = undefined;
  }

  // A request with the key: {status, json}.
  async rest(method, path, body) {
    const headers = { Authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const r = await fetch(this.base + path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, json: await r.json() };
  }

  // SIGTERM and its exit awaited, then the directory removed.
  async stop() {
    if (this.server) {
      const { proc } = this.server;
      proc.removeAllListeners('exit');
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.on('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      this.server = undefined;
    }
    rmSync(this.workdir, { recursive: true, force: true });
  }
}

// The server of one test file, in a new directory named after `name`, with a key labelled
// `label`: a TestServer {workdir, base, key, rest(), stop()}. A start that fails leaves
// nothing behind.
export async function startServerWithKey(name, label) {
  const service = new TestServer(mkdtempSync(join(tmpdir(), `toolcalc-${name}-`)));
  try {
    const config = join(service.workdir, 'toolcalc.toml');
    writeFileSync(config, PLAN);
    const data = join(service.workdir, 'data');
    service.key = execFileSync(BIN, ['keys', 'create', '--plan', 'ci', '--label', label,
                                     '--data', data, '--config', config], { encoding: 'utf8' }).trim();
    service.server = await spawnServer(['serve', '--listen', '127.0.0.1:0', '--data', data,
                                        '--config', config, '--threads', '2', '--base-path', '/api']);
    service.base = `http://127.0.0.1:${service.server.port}/api`;
  } catch (e) {
    await service.stop();
    throw e;
  }
  return service;
}
