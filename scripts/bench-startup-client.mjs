// One agent start, as `npm run bench startup` measures it: a fresh SDK client process spawns an MCP server
// (argv), initializes and lists its tools. Prints ms from spawn to the initialize result and to the tool list
// (which includes the client compiling a validator per output schema), the number of tools and the list's bytes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'droidwright-bench', version: '0' });
const transport = new StdioClientTransport({ command, args, env: process.env, cwd: process.cwd(), stderr: 'ignore' });
const started = performance.now();
await client.connect(transport);
const initialized = performance.now() - started;
const { tools } = await client.listTools();
const listed = performance.now() - started;
process.stdout.write(
  JSON.stringify({ initialized, listed, tools: tools.length, bytes: Buffer.byteLength(JSON.stringify({ tools })) }),
);
await client.close();
