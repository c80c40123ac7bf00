// The MCP endpoint seen by a second client: the MCP Inspector's CLI mode
// (@modelcontextprotocol/inspector-cli, the program `mcp-inspector --cli` runs), one
// process per call as a person would type it, against a real `toolcalc serve`. It lists
// the tools, calls every catalog tool with its first worked example (or its defaults) and
// the two analysis tools (tolerance_analysis, solve_for_input), and reads the errors: an
// invalid argument (a tool result with isError), an analysis refused, an unknown tool
// (JSON-RPC -32602) and a call without a key (HTTP 401).
//
// Run: TOOLCALC_BIN=/abs/path/toolcalc node --test tests/node/   (make mcp-test)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { REPO, startServerWithKey } from './server.mjs';

const INSPECTOR = join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');

let service;
let base;
let key;
const rest = (method, path, body) => service.rest(method, path, body);

// One inspector run: {code, stdout, stderr}. The CLI reads its own package.json through a
// path relative to the working directory ("../package.json"), so it runs from tests/, whose
// parent holds one (the repository's); the module import itself resolves correctly.
function inspector(args, { withKey = true, header = `Authorization: Bearer ${key}` } = {}) {
  const argv = [INSPECTOR, `${base}/mcp`, '--transport', 'http'];
  if (withKey) argv.push('--header', header);
  argv.push(...args);
  return new Promise((done) => {
    execFile(process.execPath, argv, { cwd: join(REPO, 'tests'), encoding: 'utf8', timeout: 60000 },
      (error, stdout, stderr) => done({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
  });
}

// --tool-arg key=value, each value JSON (the CLI parses it as JSON, so a string stays a
// string even when it looks like a number).
const toolArgs = (args) => ['--tool-arg', ...Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`)];

before(async () => {
  service = await startServerWithKey('inspector', 'mcp inspector test');
  ({ base, key } = service);
});

after(async () => {
  if (service) await service.stop();
});

test('the inspector lists every tool and calls each one, with the REST results', async () => {
  const listed = await inspector(['--method', 'tools/list']);
  assert.equal(listed.code, 0, listed.stderr);
  const { tools } = JSON.parse(listed.stdout);
  const catalog = (await rest('GET', '/v1/tools?limit=100')).json.result.items;
  // Every catalog tool, in catalog order (tools that are not one calculator, if the server
  // lists any, may stand beside them).
  const expected = catalog.map((t) => `${t.domain}_${t.tool}`);
  assert.deepEqual(tools.map((t) => t.name).filter((n) => expected.includes(n)), expected);

  // Every tool, two at a time (one per core): its first worked example, else its defaults.
  const calls = [];
  for (const t of catalog) {
    const details = (await rest('GET', `/v1/tools/${t.tool}`)).json.result;
    const args = details.examples.length > 0 ? details.examples[0].body
      : Object.fromEntries(details.inputs.map((i) => [i.key, i.default]));
    calls.push({ name: `${t.domain}_${t.tool}`, endpoint: t.endpoint, args });
  }
  const queue = [...calls];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const r = await inspector(['--method', 'tools/call', '--tool-name', c.name, ...toolArgs(c.args)]);
      assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
      const result = JSON.parse(r.stdout);
      assert.notEqual(result.isError, true, `${c.name}: ${r.stdout}`);
      const reference = await rest('POST', c.endpoint, c.args);
      assert.equal(reference.status, 200, JSON.stringify(reference.json));
      assert.deepEqual(result.structuredContent, reference.json.result, c.name);
      assert.deepEqual(JSON.parse(result.content[0].text), reference.json.result, c.name);
      assert.match(result._meta['toolcalc/request_id'], /^req_/);
    }
  };
  await Promise.all(Array.from({ length: Math.min(2, cpus().length) }, worker));
});

test('the inspector calls tolerance_analysis and solve_for_input, with the REST results', async () => {
  const listed = JSON.parse((await inspector(['--method', 'tools/list'])).stdout).tools.map((t) => t.name);
  assert.ok(listed.includes('tolerance_analysis') && listed.includes('solve_for_input'), listed.join());
  const inputs = { vin_v: 12, r1_ohm: 10000, r2_ohm: 10000 };
  const bodies = {
    tolerance_analysis: ['/tolerance', { inputs, samples: 500, distribution: 'uniform',
                                        tolerances: { r1_ohm: { pct: 1 }, r2_ohm: { pct: 1 } } }],
    solve_for_input: ['/solve', { inputs, vary: 'r2_ohm', target: { output: 'vout_v', value: 3.3 } }],
  };
  for (const [name, [path, body]] of Object.entries(bodies)) {
    const r = await inspector(['--method', 'tools/call', '--tool-name', name,
                               ...toolArgs({ tool: 'electronics_voltage-divider', ...body })]);
    assert.equal(r.code, 0, `${name}: ${r.stderr}`);
    const result = JSON.parse(r.stdout);
    assert.notEqual(result.isError, true, `${name}: ${r.stdout}`);
    const reference = await rest('POST', `/v1/electronics/voltage-divider${path}`, body);
    assert.equal(reference.status, 200, JSON.stringify(reference.json));
    assert.deepEqual(result.structuredContent, reference.json.result, name);
  }
  // R2 = 10 kΩ·(3.3/(12 − 3.3)) = 3793.10 Ω puts 3.3 V out: the solution the inspector read.
  const solved = JSON.parse((await inspector(['--method', 'tools/call', '--tool-name', 'solve_for_input',
    ...toolArgs({ tool: 'electronics_voltage-divider', ...bodies.solve_for_input[1] })])).stdout);
  assert.ok(Math.abs(solved.structuredContent.solutions[0].value - 3793.1034) < 0.001,
            JSON.stringify(solved.structuredContent.solutions[0]));

  // A tolerance that leaves the input's bounds: a tool result marked isError, naming it.
  const refused = await inspector(['--method', 'tools/call', '--tool-name', 'tolerance_analysis',
    ...toolArgs({ tool: 'electronics_voltage-divider', inputs: { vin_v: 1000, r1_ohm: 1000, r2_ohm: 1000 },
                  tolerances: { vin_v: { pct: 5 } } })]);
  assert.equal(refused.code, 0, refused.stderr);
  const error = JSON.parse(refused.stdout);
  assert.equal(error.isError, true, refused.stdout);
  assert.equal(error._meta['toolcalc/error'].field, 'tolerances.vin_v');
});

test('the inspector reads the errors', async () => {
  // An out-of-bounds argument: a tool result marked isError, with the REST message and field.
  const bad = await inspector(['--method', 'tools/call', '--tool-name', 'electronics_voltage-divider',
                               ...toolArgs({ vin_v: 5000, r1_ohm: 1000, r2_ohm: 1940 })]);
  assert.equal(bad.code, 0, bad.stderr);
  const result = JSON.parse(bad.stdout);
  assert.equal(result.isError, true);
  assert.equal(result.content[0].text, 'vin_v must be at most 1000');
  assert.deepEqual(result._meta['toolcalc/error'], { code: 'VALIDATION_ERROR', field: 'vin_v' });

  // An unknown tool: JSON-RPC -32602 with the name it probably meant.
  const unknown = await inspector(['--method', 'tools/call', '--tool-name', 'electronics.voltage-divider']);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /-32602/);
  assert.match(unknown.stderr, /did you mean 'electronics_voltage-divider'/);

  // No key: listing works, a call is refused with 401 and the REST error code.
  const anonymous = await inspector(['--method', 'tools/list'], { withKey: false });
  assert.equal(anonymous.code, 0, anonymous.stderr);
  const refused = await inspector(['--method', 'tools/call', '--tool-name', 'electronics_voltage-divider',
                                   ...toolArgs({ vin_v: 5, r1_ohm: 1000, r2_ohm: 1940 })], { withKey: false });
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /missing API key/);
  assert.match(refused.stderr, /"code":"UNAUTHORIZED"/);
});

test('the agent-host configurations in docs/api.md parse and reach the endpoint', async () => {
  const page = readFileSync(join(REPO, 'docs', 'api.md'), 'utf8');
  const start = page.indexOf('### Configurations for agent hosts');
  const section = page.slice(start, page.indexOf('\n## ', start));
  const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
  assert.equal(blocks.length, 4, 'Claude Code, Claude Desktop, Cursor, VS Code');
  const ENDPOINT = 'http://127.0.0.1:8080/api/mcp';
  const [claudeCode, claudeDesktop, cursor, vscode] = blocks;
  assert.deepEqual(claudeCode.mcpServers.toolcalc,
                   { type: 'http', url: ENDPOINT, headers: { Authorization: 'Bearer ${TOOLCALC_KEY}' } });
  assert.ok(claudeDesktop.mcpServers.toolcalc.args.includes(ENDPOINT));
  assert.match(claudeDesktop.mcpServers.toolcalc.env.TOOLCALC_AUTH, /^Bearer /);
  assert.equal(vscode.servers.toolcalc.url, ENDPOINT);
  assert.equal(vscode.servers.toolcalc.headers.Authorization, `Bearer \${input:${vscode.inputs[0].id}}`);
  assert.match(section, /claude mcp add --transport http toolcalc http:\/\/127\.0\.0\.1:8080\/api\/mcp/);

  // Cursor's entry as Cursor would use it: the URL's path on this server, the header with
  // the key put in; a tool call through it succeeds.
  const { url, headers } = cursor.mcpServers.toolcalc;
  const target = new URL(url);
  assert.equal(`${target.pathname}`, new URL(`${base}/mcp`).pathname);
  const header = `Authorization: ${headers.Authorization.replace('${env:TOOLCALC_KEY}', key)}`;
  const r = await inspector(['--method', 'tools/call', '--tool-name', 'electronics_voltage-divider',
                             ...toolArgs({ vin_v: 5, r1_ohm: 1000, r2_ohm: 1940 })], { header });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).structuredContent.vout_v, 3.2993);
});
