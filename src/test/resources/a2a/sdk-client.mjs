// The A2A JavaScript SDK's client (@a2a-js/sdk, protocol 1.0) at its defaults against Lango: it reads the agent
// card at <base>, picks its transport from the card, and runs one step; prints one JSON line with what it saw.
// Usage: node sdk-client.mjs <base> <step> [args]; LANGO_A2A_PEERS names the node_modules holding the SDK.
//   send <text>                          SendMessage, blocking
//   send-files <text>                    the same, accepting any media type back (files the agent wrote)
//   start <text>                         SendMessage returning at once
//   stream <text>                        SendStreamingMessage: every event, with the milliseconds since the call
//   continue <taskId> <approve|deny>     SendMessage on the task, answering its question with text
//   answer <taskId> <true|false>         the same with a data part {"approved": …}
//   get <taskId> <historyLength>         GetTask
//   list <contextId>                     ListTasks of a context, two per page, every page
//   cancel <taskId>                      CancelTask
//   cancel-running <text>                SendMessage returning at once, then CancelTask while it works
//   subscribe <taskId>                   SubscribeToTask: every event
import { pathToFileURL } from "node:url";
import { randomUUID } from "node:crypto";

const peers = process.env.LANGO_A2A_PEERS;
const load = (path) => import(pathToFileURL(`${peers}/@a2a-js/sdk/dist/${path}`).href);
const { Role } = await load("index.js");
const { ClientFactory } = await load("client/index.js");

const [base, step, ...args] = process.argv.slice(2);
const client = await new ClientFactory().createFromUrl(base);
const started = Date.now();

const text = (t) => ({ content: { $case: "text", value: t }, mediaType: "text/plain", filename: "", metadata: undefined });
const data = (v) => ({ content: { $case: "data", value: v }, mediaType: "application/json", filename: "", metadata: undefined });
const message = (parts, extra = {}) => ({ messageId: randomUUID(), contextId: "", taskId: "", role: Role.ROLE_USER, parts,
  metadata: undefined, extensions: [], referenceTaskIds: [], ...extra });
const partText = (p) => p.content?.$case === "text" ? p.content.value
  : p.content?.$case === "data" ? JSON.stringify(p.content.value)
  : p.content?.$case === "raw" ? `[${p.filename} ${p.mediaType}: ${Buffer.from(p.content.value).toString()}]` : `[${p.content?.$case}]`;
const partsText = (parts) => (parts ?? []).map(partText).join("");
const stateName = (s) => ["UNSPECIFIED", "SUBMITTED", "WORKING", "COMPLETED", "FAILED", "CANCELED", "INPUT_REQUIRED",
  "REJECTED", "AUTH_REQUIRED"][s] ?? String(s);
const task = (t) => ({
  kind: "task", id: t.id, contextId: t.contextId, state: stateName(t.status?.state),
  stateHistory: (t.metadata?.lango?.stateHistory ?? []).map((s) => `${s.state}@${s.timestamp}`),
  status: partsText(t.status?.message?.parts),
  statusData: (t.status?.message?.parts ?? []).filter((p) => p.content?.$case === "data").map((p) => p.content.value),
  artifacts: (t.artifacts ?? []).map((a) => ({ id: a.artifactId, text: partsText(a.parts) })),
  history: (t.history ?? []).map((m) => (m.role === Role.ROLE_USER ? "user: " : "agent: ") + partsText(m.parts)),
});
const result = (r) => (r && "status" in r ? task(r) : { kind: "message", text: partsText(r?.parts), contextId: r?.contextId });
const event = (streamed) => {
  const at = Date.now() - started;
  const e = streamed?.payload ? streamed.payload.value : streamed;
  if (e && "status" in e && "id" in e) return { at, ...task(e) };
  if (e && "artifact" in e) return { at, kind: "artifact", id: e.artifact.artifactId, text: partsText(e.artifact.parts),
    append: e.append ?? false, lastChunk: e.lastChunk ?? false };
  if (e && "status" in e) return { at, kind: "status", state: stateName(e.status.state), text: partsText(e.status.message?.parts) };
  return { at, kind: "message", text: partsText(e?.parts) };
};

let out;
try {
  const transport = { protocol: client.transport?.protocolName, version: client.protocolVersion };
  switch (step) {
    case "send":
      out = { transport, ...result(await client.sendMessage({ message: message([text(args[0])]) })) };
      break;
    case "send-files":
      out = result(await client.sendMessage({ message: message([text(args[0])]),
        configuration: { acceptedOutputModes: ["text/plain", "*/*"] } }));
      break;
    case "start":
      out = result(await client.sendMessage({ message: message([text(args[0])]), configuration: { returnImmediately: true } }));
      break;
    case "stream": {
      const events = [];
      for await (const e of client.sendMessageStream({ message: message([text(args[0])]) })) events.push(event(e));
      out = { events };
      break;
    }
    case "continue":
      out = result(await client.sendMessage({ message: message([text(args[1])], { taskId: args[0] }) }));
      break;
    case "answer":
      out = result(await client.sendMessage({ message: message([data({ approved: args[1] === "true" })], { taskId: args[0] }) }));
      break;
    case "get":
      out = result(await client.getTask({ id: args[0], historyLength: Number(args[1]) }));
      break;
    case "list": {
      const pages = [];
      let token = "";
      do {
        const page = await client.listTasks({ tenant: "", contextId: args[0], status: 0, pageSize: 2, pageToken: token });
        pages.push({ ids: page.tasks.map((t) => t.id), states: page.tasks.map((t) => stateName(t.status?.state)),
          totalSize: page.totalSize, artifacts: page.tasks.map((t) => (t.artifacts ?? []).length) });
        token = page.nextPageToken;
      } while (token);
      out = { pages };
      break;
    }
    case "cancel":
      out = result(await client.cancelTask({ id: args[0] }));
      break;
    case "cancel-running": {
      const running = await client.sendMessage({ message: message([text(args[0])]), configuration: { returnImmediately: true } });
      await new Promise((r) => setTimeout(r, 1500));
      const canceled = await client.cancelTask({ id: running.id });
      out = { first: task(running), canceled: task(canceled), tookMs: Date.now() - started };
      break;
    }
    case "subscribe": {
      const events = [];
      for await (const e of client.resubscribeTask({ id: args[0] })) events.push(event(e));
      out = { events };
      break;
    }
    default:
      throw new Error(`unknown step ${step}`);
  }
} catch (e) {
  out = { error: { name: e?.name, message: e?.message, code: e?.envelopeCode ?? e?.cause?.envelopeCode ?? e?.code } };
}
console.log(JSON.stringify(out));
