// client.mjs drives the incidents MCP server with the official MCP
// TypeScript SDK client (@modelcontextprotocol/sdk, pinned in
// package.json), as an assistant would: it lists the tools and calls every
// one. The SDK client itself refuses a structuredContent that is not an
// object and validates it against the tool's outputSchema.
//
//   node client.mjs stdio BINARY ARG...   start BINARY ARG... ('incidents mcp')
//   node client.mjs http URL              streamable HTTP ('incidents serve' /mcp)
//
// It prints one JSON report on stdout ({server, tools, calls}) and exits
// 0, or prints what failed on stderr and exits 1. cmd/incidents/cli
// TestMCPOfficialClient runs it.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const TOOLS = ['get_incident', 'get_topic', 'list_incidents', 'query_sql', 'search_incidents', 'similar_incidents', 'stats', 'vocab'];

function transport(argv) {
  const [kind, ...rest] = argv;
  if (kind === 'stdio' && rest.length > 0) {
    return new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: process.env, stderr: 'inherit' });
  }
  if (kind === 'http' && rest.length === 1) {
    return new StreamableHTTPClientTransport(new URL(rest[0]));
  }
  throw new Error('usage: node client.mjs stdio BINARY ARG... | http URL');
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// call runs one tool and checks what every answer must be: an object
// structuredContent (the SDK has validated it against the output schema)
// whose JSON is also the text content.
async function call(client, calls, name, args, check) {
  const res = await client.callTool({ name, arguments: args });
  const where = `${name} ${JSON.stringify(args)}`;
  assert.ok(!res.isError, `${where}: tool error: ${JSON.stringify(res.content)}`);
  assert.ok(isObject(res.structuredContent), `${where}: structuredContent is not an object`);
  const text = res.content.find((c) => c.type === 'text');
  assert.ok(text, `${where}: no text content`);
  assert.deepEqual(JSON.parse(text.text), res.structuredContent, `${where}: the text is not the structured content`);
  check(res.structuredContent, where);
  calls.push({ tool: name, keys: Object.keys(res.structuredContent).sort() });
  return res.structuredContent;
}

async function main() {
  const client = new Client({ name: 'incidents-test', version: '0.0.0' });
  await client.connect(transport(process.argv.slice(2)));
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
  for (const t of tools) {
    assert.ok(t.description, `${t.name}: no description`);
    assert.equal(t.inputSchema.type, 'object', `${t.name}: input schema`);
    for (const [p, s] of Object.entries(t.inputSchema.properties ?? {})) {
      assert.ok(s.description, `${t.name}: parameter ${p} is not described`);
    }
    assert.ok(isObject(t.outputSchema) && t.outputSchema.type === 'object', `${t.name}: no object output schema`);
    assert.equal(t.annotations?.readOnlyHint, true, `${t.name}: not marked read-only`);
  }

  const calls = [];
  const found = await call(client, calls, 'search_incidents', { query: 'DNS outage', limit: 3 }, (o, w) => {
    assert.ok(o.cases.length > 0 && o.cases.length <= 3 && o.total >= o.cases.length, `${w}: ${o.total} results`);
    assert.ok(o.cases[0].score > 0 && o.cases[0].id, `${w}: first result`);
  });
  const id = found.cases[0].id;
  await call(client, calls, 'get_incident', { id }, (o, w) => {
    assert.equal(o.case.id, id, w);
    assert.ok(Array.isArray(o.related) && Array.isArray(o.related_from), `${w}: related lists`);
  });
  await call(client, calls, 'list_incidents', { root_cause: 'configuration-error', limit: 5 }, (o, w) => {
    assert.ok(o.cases.length > 0 && o.cases.length <= 5, `${w}: ${o.cases.length} cases`);
    const dates = o.cases.map((c) => c.date ?? '');
    assert.deepEqual([...dates].sort().reverse(), dates, `${w}: not newest first`);
  });
  await call(client, calls, 'similar_incidents', { id, k: 3 }, (o, w) => {
    assert.equal(o.id, id, w);
    assert.equal(o.similar.length, 3, `${w}: ${o.similar.length} similar`);
    assert.ok(o.similar.every((s) => s.reason && s.id !== id), `${w}: reasons`);
  });
  await call(client, calls, 'get_topic', { term: 'dns' }, (o, w) => {
    assert.equal(o.term.id, 'dns', w);
    assert.ok(o.total > 0 && isObject(o.ttr) && o.ttr.n === o.total, `${w}: statistics`);
  });
  await call(client, calls, 'vocab', {}, (o, w) => {
    assert.equal(o.facets.length, 6, `${w}: facets`);
    assert.ok(o.facets.every((f) => f.terms.length > 0), `${w}: terms`);
  });
  await call(client, calls, 'vocab', { facet: 'trigger' }, (o, w) => {
    assert.deepEqual(o.facets.map((f) => f.facet), ['trigger'], w);
  });
  await call(client, calls, 'stats', { by: 'root_cause_class', metric: 'ttr' }, (o, w) => {
    assert.ok(o.rows.length > 2 && o.overall.n === o.cases, `${w}: rows`);
  });
  await call(client, calls, 'stats', { by: 'quarter', since: '2099' }, (o, w) => {
    assert.ok(o.cases === 0 && o.overall.median === null, `${w}: an empty period`);
  });
  await call(client, calls, 'query_sql', { sql: 'SELECT count(*) AS n, NULL AS nothing FROM incidents' }, (o, w) => {
    assert.deepEqual(o.columns, ['n', 'nothing'], w);
    assert.ok(o.rows[0][0] > 100 && o.rows[0][1] === null, `${w}: ${JSON.stringify(o.rows)}`);
  });

  // Refusals are tool errors in words, not protocol failures.
  const refusals = [
    ['get_incident', { id: 'no-such-case' }, 'no case with id'],
    ['query_sql', { sql: 'DELETE FROM incidents' }, 'read-only'],
    ['vocab', { facet: 'colour' }, 'unknown facet'],
  ];
  for (const [name, args, want] of refusals) {
    const res = await client.callTool({ name, arguments: args });
    const text = res.content.map((c) => c.text ?? '').join(' ');
    assert.ok(res.isError && text.includes(want), `${name} ${JSON.stringify(args)}: want a tool error with "${want}", got ${text}`);
    calls.push({ tool: name, error: text });
  }

  await client.close();
  process.stdout.write(JSON.stringify({ server: client.getServerVersion(), tools: tools.map((t) => t.name), calls }) + '\n');
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`client.mjs: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
