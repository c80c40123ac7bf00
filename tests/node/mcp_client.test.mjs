// The MCP endpoint seen by the official TypeScript SDK client: a real
// `toolcalc serve` (under the base path /api, with a key from `toolcalc keys create`),
// StreamableHTTPClientTransport with the Bearer header, every tool listed and called with
// the defaults of its inputSchema, and each result compared with the REST endpoint's.
//
// Run: TOOLCALC_BIN=/abs/path/toolcalc node --test tests/node/   (make mcp-test)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startServerWithKey } from './server.mjs';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

let service;
let base; // http://127.0.0.1:PORT/api
let key;
const rest = (method, path, body) => service.rest(method, path, body);

async function connect(headers = {}) {
  const client = new Client({ name: 'toolcalc-ci', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return { client, transport };
}

// Besides one tool per catalog entry, the server lists the two analyses (tolerance and solve)
// last; their own test is tests/api/test_mcp.py.
const ANALYSIS_TOOLS = ['tolerance_analysis', 'solve_for_input'];
const catalogToolsOf = (tools) => tools.filter((t) => !ANALYSIS_TOOLS.includes(t.name));

function defaultsOf(inputSchema) {
  const args = {};
  for (const [k, prop] of Object.entries(inputSchema.properties)) {
    assert.ok('default' in prop, `input ${k} has a default`);
    args[k] = prop.default;
  }
  return args;
}

before(async () => {
  service = await startServerWithKey('mcp', 'mcp sdk test');
  ({ base, key } = service);
  assert.match(key, /^tc_live_[A-Za-z0-9]{32}$/);
});

after(async () => {
  if (service) await service.stop();
});

test('initialize negotiates the newest protocol version and names the server', async () => {
  const { client, transport } = await connect({ Authorization: `Bearer ${key}` });
  try {
    assert.equal(transport.protocolVersion, '2025-11-25');
    const info = client.getServerVersion();
    assert.equal(info.name, 'toolcalc');
    const health = await rest('GET', '/v1/health');
    assert.equal(info.version, health.json.result.version);
    assert.deepEqual(client.getServerCapabilities().tools, {});
    assert.equal(transport.sessionId, undefined, 'no session id is issued');
    await client.ping();
  } finally {
    await client.close();
  }
});

test('every tool is listed, named {domain}_{slug}, with the schemas of the OpenAPI document', async () => {
  const { client } = await connect({ Authorization: `Bearer ${key}` });
  try {
    const listed = (await client.listTools()).tools;
    const catalog = await rest('GET', '/v1/tools?limit=100');
    assert.equal(catalog.status, 200);
    const expected = catalog.json.result.items.map((t) => `${t.domain}_${t.tool}`);
    assert.deepEqual(listed.map((t) => t.name), [...expected, ...ANALYSIS_TOOLS]);
    const tools = catalogToolsOf(listed);
    const openapi = (await rest('GET', '/v1/openapi.json')).json;
    const resolveRef = (ref) => openapi.components.schemas[ref.split('/').pop()];
    for (const [i, tool] of tools.entries()) {
      const item = catalog.json.result.items[i];
      assert.match(tool.name, TOOL_NAME);
      assert.equal(tool.title, item.name);
      assert.ok(tool.description.startsWith(item.description), tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema.type, 'object');
      const op = openapi.paths[item.endpoint].post;
      const input = resolveRef(op.requestBody.content['application/json'].schema.$ref);
      assert.deepEqual(tool.inputSchema, input, `${tool.name} inputSchema = OpenAPI request body`);
      const response = resolveRef(op.responses['200'].content['application/json'].schema.$ref);
      const result = resolveRef(response.allOf[1].properties.result.$ref);
      assert.deepEqual(tool.outputSchema, result, `${tool.name} outputSchema = OpenAPI result`);
    }
  } finally {
    await client.close();
  }
});

test('every tool called with its defaults gives the REST result', async () => {
  const { client } = await connect({ Authorization: `Bearer ${key}` });
  try {
    const tools = catalogToolsOf((await client.listTools()).tools);
    const catalog = (await rest('GET', '/v1/tools?limit=100')).json.result.items;
    assert.equal(tools.length, catalog.length);
    for (const [i, tool] of tools.entries()) {
      const args = defaultsOf(tool.inputSchema);
      // The SDK validates structuredContent against the outputSchema it listed.
      const res = await client.callTool({ name: tool.name, arguments: args });
      assert.notEqual(res.isError, true, `${tool.name}: ${JSON.stringify(res.content)}`);
      const viaRest = await rest('POST', catalog[i].endpoint, args);
      assert.equal(viaRest.status, 200, JSON.stringify(viaRest.json));
      assert.deepEqual(res.structuredContent, viaRest.json.result, tool.name);
      assert.equal(res.content.length, 1);
      assert.equal(res.content[0].type, 'text');
      assert.deepEqual(JSON.parse(res.content[0].text), viaRest.json.result, tool.name);
      // Quota: each successful call used one unit, as on REST.
      assert.equal(res._meta['toolcalc/quota_remaining'], viaRest.json.meta.quota_remaining + 1);
    }
  } finally {
    await client.close();
  }
});

test('tolerance_analysis and solve_for_input give the REST results, valid against their outputSchema', async () => {
  const { client } = await connect({ Authorization: `Bearer ${key}` });
  try {
    await client.listTools(); // the SDK checks structuredContent against the listed outputSchema
    const inputs = { vin_v: 12, r1_ohm: 10000, r2_ohm: 10000 };
    const bodies = {
      tolerance_analysis: ['/tolerance', { inputs, samples: 500,
                                          tolerances: { r1_ohm: { pct: 1 }, r2_ohm: { pct: 1 } } }],
      solve_for_input: ['/solve', { inputs, vary: 'r2_ohm', target: { output: 'vout_v', value: 3.3 } }],
    };
    for (const [name, [path, body]] of Object.entries(bodies)) {
      const res = await client.callTool({ name, arguments: { tool: 'electronics_voltage-divider', ...body } });
      assert.notEqual(res.isError, true, `${name}: ${JSON.stringify(res.content)}`);
      const viaRest = await rest('POST', `/v1/electronics/voltage-divider${path}`, body);
      assert.equal(viaRest.status, 200, JSON.stringify(viaRest.json));
      assert.deepEqual(res.structuredContent, viaRest.json.result, name);
      assert.deepEqual(JSON.parse(res.content[0].text), viaRest.json.result, name);
    }
    // The text output of a tool (the MOSFET's status) fits the output schema too.
    const mosfet = await client.callTool({ name: 'tolerance_analysis', arguments: {
      tool: 'electronics_mosfet-thermal-junction', samples: 200,
      inputs: { drain_current_a: 5, rds_on_mohm: 20, theta_ja_c_per_w: 62, ambient_temp_c: 85,
                duty_cycle: 1, max_junction_temp_c: 150 },
      tolerances: { drain_current_a: { pct: 40 } } } });
    assert.notEqual(mosfet.isError, true, JSON.stringify(mosfet.content));
    assert.ok(mosfet.structuredContent.outputs.status.samples.length >= 1);
  } finally {
    await client.close();
  }
});

test('invalid arguments come back as a tool error with the validation message', async () => {
  const { client } = await connect({ Authorization: `Bearer ${key}` });
  try {
    const { tools } = await client.listTools();
    const battery = tools.find((t) => t.name === 'iot-mcu_mcu-deep-sleep-battery');
    assert.ok(battery);
    const args = { ...defaultsOf(battery.inputSchema), battery_capacity_mah: 5 };
    const res = await client.callTool({ name: battery.name, arguments: args });
    assert.equal(res.isError, true);
    assert.equal(res.content[0].text, 'battery_capacity_mah must be at least 100');
    assert.equal(res._meta['toolcalc/error'].field, 'battery_capacity_mah');
    const typo = await client.callTool({ name: battery.name, arguments: { batery_capacity_mah: 1 } });
    assert.equal(typo.isError, true);
    assert.match(typo.content[0].text, /did you mean 'battery_capacity_mah'/);
    await assert.rejects(client.callTool({ name: 'no_such-tool', arguments: {} }), /unknown tool/);
  } finally {
    await client.close();
  }
});

test('without a key the tools are listed but calling one is refused with 401', async () => {
  const { client } = await connect();
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    await assert.rejects(
      client.callTool({ name: tools[0].name, arguments: defaultsOf(tools[0].inputSchema) }),
      /401|Unauthorized/i);
  } finally {
    await client.close();
  }
});
