// A remote agent served by the A2A JavaScript SDK's server (@a2a-js/sdk), for Lango's remote sub-agent tests.
// Usage: node sdk-agent.mjs <port> <1.0|0.3> <log file>; LANGO_A2A_PEERS names the node_modules holding the SDK.
// In 0.3 the card offers only a 0.3 interface and the SDK's 0.3 compatibility layer answers.
// It streams every answer in three chunks, 300 ms apart; a message starting with "book" asks first
// ("May I book the table for 4?", input-required) and, continued on its task, answers "Booked." or "Not booked.".
// Every JSON-RPC request's method and A2A-Version header is appended to the log file, one JSON line each.
import { pathToFileURL } from "node:url";
import { appendFileSync } from "node:fs";
import { randomUUID } from "node:crypto";

const peers = process.env.LANGO_A2A_PEERS;
const load = (path) => import(pathToFileURL(`${peers}/${path}`).href);
const { Role, TaskState } = await load("@a2a-js/sdk/dist/index.js");
const { DefaultRequestHandler, InMemoryTaskStore, AgentEvent } = await load("@a2a-js/sdk/dist/server/index.js");
const { jsonRpcHandler, agentCardHandler, UserBuilder } = await load("@a2a-js/sdk/dist/server/express/index.js");
const express = (await load("express/index.js")).default;

const [port, version, log] = process.argv.slice(2);
const url = `http://127.0.0.1:${port}/rpc`;
const card = {
  name: `js-agent-${version}`,
  description: "Books tables; an agent built with the A2A JavaScript SDK",
  supportedInterfaces: [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: version }],
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "book", name: "Book", description: "Books tables", tags: ["booking"], examples: [], inputModes: [],
    outputModes: [], securityRequirements: [] }],
  signatures: [],
  ...(version === "0.3" ? { url, protocolVersion: "0.3.0", preferredTransport: "JSONRPC" } : {}),
};

const now = () => new Date().toISOString();
const text = (t) => ({ content: { $case: "text", value: t }, mediaType: "text/plain", filename: "", metadata: undefined });
const say = (ctx, t) => ({ messageId: randomUUID(), contextId: ctx.contextId, taskId: ctx.taskId, role: Role.ROLE_AGENT,
  parts: [text(t)], metadata: undefined, extensions: [], referenceTaskIds: [] });
const status = (ctx, state, message) => AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId,
  status: { state, message, timestamp: now() }, metadata: undefined });
const words = (ctx) => (ctx.userMessage.parts ?? []).filter((p) => p.content?.$case === "text").map((p) => p.content.value).join(" ");
const approved = (ctx) => {
  for (const p of ctx.userMessage.parts ?? []) {
    if (p.content?.$case === "data" && typeof p.content.value?.approved === "boolean") return p.content.value.approved;
  }
  return /^(approve|yes)/i.test(words(ctx).trim());
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function answer(ctx, bus, chunks) {
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0) await sleep(300);
    bus.publish(AgentEvent.artifactUpdate({ taskId: ctx.taskId, contextId: ctx.contextId,
      artifact: { artifactId: "answer", name: "answer", description: "", parts: [text(chunks[i])], metadata: undefined, extensions: [] },
      append: i > 0, lastChunk: i === chunks.length - 1, metadata: undefined }));
  }
  bus.publish(status(ctx, TaskState.TASK_STATE_COMPLETED, undefined));
  bus.finished();
}

const executor = {
  async execute(ctx, bus) {
    if (ctx.task) {
      bus.publish(AgentEvent.task(ctx.task));
      bus.publish(status(ctx, TaskState.TASK_STATE_WORKING, undefined));
      await answer(ctx, bus, approved(ctx) ? ["Boo", "ked", "."] : ["Not ", "booked", "."]);
      return;
    }
    bus.publish(AgentEvent.task({ id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_SUBMITTED,
      message: undefined, timestamp: now() }, artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    if (/^book/i.test(words(ctx).trim())) {
      bus.publish(status(ctx, TaskState.TASK_STATE_INPUT_REQUIRED, say(ctx, "May I book the table for 4?")));
      return;
    }
    bus.publish(status(ctx, TaskState.TASK_STATE_WORKING, undefined));
    await answer(ctx, bus, ["First. ", "Second. ", "Third."]);
  },
  async cancelTask(taskId, bus) {
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: "", status: { state: TaskState.TASK_STATE_CANCELED, timestamp: now() },
      metadata: undefined }));
    bus.finished();
  },
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const app = express();
app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
app.use("/rpc", express.json(), (req, res, next) => {
  appendFileSync(log, JSON.stringify({ method: req.body?.method, version: req.get("A2A-Version") ?? null }) + "\n");
  next();
});
app.use("/rpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication,
  ...(version === "0.3" ? { legacyCompat: { enabled: true } } : {}) }));
app.listen(Number(port), "127.0.0.1", () => console.log(`listening on ${port}`));
