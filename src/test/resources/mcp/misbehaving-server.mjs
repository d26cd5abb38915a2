// An MCP server over stdio that misbehaves on purpose, for McpSessionTest: silent (never answers), garbage (writes
// lines that are not JSON-RPC before answering), huge (answers a tool call with a 100 MB message), badschema (lists a
// tool whose input schema is not an object). Usage: node misbehaving-server.mjs <mode>
import { createInterface } from "node:readline";

const mode = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
if (mode === "garbage") {
  process.stdout.write("starting up...\n{not json\n");
}
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (mode === "silent" || message.id === undefined) return;
  if (message.method === "initialize") {
    if (mode === "garbage") process.stdout.write("more noise\n");
    send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} },
      serverInfo: { name: "misbehaving", version: "1" } } });
  } else if (message.method === "tools/list") {
    send({ jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "odd", inputSchema: { type: "string" } }] } });
  } else if (message.method === "tools/call") {
    if (mode === "huge") {
      const chunk = "x".repeat(1024 * 1024);
      process.stdout.write('{"jsonrpc":"2.0","id":' + message.id + ',"result":{"content":[{"type":"text","text":"');
      for (let i = 0; i < 100; i++) process.stdout.write(chunk);
      process.stdout.write('"}]}}\n');
    } else {
      send({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "ok" }] } });
    }
  }
});
