// The MCP TypeScript SDK's own client against Lango's /mcp: chat (with a progress token, so the answer
// streams as progress notifications), then list_sessions. Prints one JSON line with what it saw.
// Usage: node sdk-client.mjs <url> <message> [approve|deny]; LANGO_MCP_PEERS names the node_modules holding the SDK.
// With approve or deny the client takes elicitation requests and answers each with approved true or false.
import { pathToFileURL } from "node:url";

const peers = process.env.LANGO_MCP_PEERS;
const sdk = (path) => import(pathToFileURL(`${peers}/@modelcontextprotocol/sdk/dist/esm/${path}`).href);
const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const { ElicitRequestSchema } = await sdk("types.js");

const [url, message, decision] = process.argv.slice(2);
const headers = {};
const client = new Client({ name: "lango-it-sdk-client", version: "1.0.0" },
  decision ? { capabilities: { elicitation: {} } } : {});
const asked = [];
if (decision) {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { approved: decision === "approve" } };
  });
}
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));

let progress = 0;
const chat = await client.callTool({ name: "chat", arguments: { message } }, undefined, {
  onprogress: () => { progress++; },
});
const sessions = await client.callTool({ name: "list_sessions", arguments: {} });
console.log(JSON.stringify({
  answer: chat.structuredContent?.answer,
  sessionId: chat.structuredContent?.sessionId,
  progress,
  isError: chat.isError ?? false,
  sessions: sessions.content?.[0]?.text,
  tools: (await client.listTools()).tools.map((t) => t.name),
  asked,
}));
await client.close();
