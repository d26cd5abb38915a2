// An MCP server over stdio that takes its time to start, for McpServersTest and McpStartIT: it reads nothing for the
// milliseconds its argument says, then answers initialize and lists one tool, "hello".
// Usage: node slow-server.mjs <milliseconds>
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
setTimeout(() => {
  createInterface({ input: process.stdin }).on("line", (line) => {
    const message = JSON.parse(line);
    if (message.id === undefined) return;
    if (message.method === "initialize") {
      send({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} },
        serverInfo: { name: "slow", version: "1" } } });
    } else if (message.method === "tools/list") {
      send({ jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "hello", description: "Says hello.",
        inputSchema: { type: "object" } }] } });
    } else if (message.method === "tools/call") {
      send({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "hello" }] } });
    } else {
      send({ jsonrpc: "2.0", id: message.id, result: {} });
    }
  });
}, Number(process.argv[2] ?? 0));
