// Lango chat page: WebSocket chat (CONTRACT.md) with streamed Markdown, tool calls, delegation,
// errors and automatic reconnect. Sessions come from the ADK session routes.
(function () {
  "use strict";
  const USER = "user"; // the WebSocket chats as the default user
  const $ = (id) => document.getElementById(id);
  const messages = $("messages"), input = $("input"), send = $("send"), status = $("status"), list = $("sessions");
  let socket = null, retry = 0, nextId = 1, current = null, pending = {};
  let sessionKey = localStorage.getItem("lango.session") || newKey();

  function newKey() { return "chat-" + Math.random().toString(36).slice(2, 10); }
  function token() { return localStorage.getItem("lango.token"); }
  function headers() { return token() ? { Authorization: "Bearer " + token() } : {}; }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function scroll() { messages.scrollTop = messages.scrollHeight; }

  function addUser(text) { messages.appendChild(el("div", "msg user", text)); scroll(); }
  function addError(text) { messages.appendChild(el("div", "msg error", text)); scroll(); }

  /** An assistant message that fills while the turn runs. */
  function assistant(author) {
    const box = el("div", "msg assistant");
    box.appendChild(el("div", "author", author || "lango-agent"));
    const body = el("div", "body");
    box.appendChild(body);
    messages.appendChild(box);
    return { box, body, text: "" };
  }
  function toolCall(target, call) {
    const details = el("details", "tool");
    details.dataset.callId = call.id;
    details.appendChild(el("summary", null, "tool " + call.name + " (" + (call.agent || "") + ")"));
    details.appendChild(el("pre", null, JSON.stringify(call.args, null, 2)));
    target.box.insertBefore(details, target.body);
    scroll();
  }
  function toolResult(target, result) {
    const details = [...target.box.querySelectorAll("details.tool")].find((d) => d.dataset.callId === result.id);
    const pre = el("pre", null, "→ " + JSON.stringify(result.result, null, 2));
    if (details) {
      details.appendChild(pre);
      details.querySelector("summary").textContent += result.result && result.result.error ? " ✗" : " ✓";
    } else {
      target.box.insertBefore(pre, target.body);
    }
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/[^/]*$/, "") + "ws";
    socket = new WebSocket(url);
    socket.onopen = () => {
      // Back after a lost connection (a restart, say): show what the session stored meanwhile, the
      // answer to a turn that was running, or the error it ended with.
      const reconnected = retry > 0;
      retry = 0;
      if (reconnected) { pending = {}; current = null; open(sessionKey); }
      if (token()) socket.send(JSON.stringify({ type: "auth", token: token() }));
      setStatus("connected", false);
      send.disabled = false;
    };
    socket.onclose = (event) => {
      send.disabled = true;
      if (event.code === 1008) { // policy violation: this server wants a token
        const entered = prompt("This Lango server requires an access token:");
        if (entered) localStorage.setItem("lango.token", entered);
      }
      Object.values(pending).forEach((p) => { p.body.classList.remove("thinking"); });
      const delay = Math.min(30000, 500 * 2 ** retry++);
      setStatus("disconnected — reconnecting in " + Math.round(delay / 1000) + " s", true);
      setTimeout(connect, delay);
    };
    socket.onmessage = (message) => handle(JSON.parse(message.data));
  }

  function setStatus(text, offline) {
    status.textContent = text;
    status.classList.toggle("offline", offline);
  }

  function handle(frame) {
    if (frame.type === "event") {
      const p = frame.payload || {};
      if (p.sessionKey && p.sessionKey !== sessionKey) return;
      if (!current) current = assistant();
      switch (frame.event) {
        case "agent.thinking": current.box.classList.add("thinking"); break;
        case "agent.chunk":
          current.text += p.chunk;
          current.body.innerHTML = LangoMarkdown.render(current.text);
          scroll();
          break;
        case "agent.tool_call": toolCall(current, p); break;
        case "agent.tool_result": toolResult(current, p); break;
        case "agent.delegation":
          current.box.insertBefore(el("div", "delegation", "↪ " + p.from + " delegated to " + p.to), current.body);
          break;
        case "agent.done": current.box.classList.remove("thinking"); break;
      }
      return;
    }
    if (frame.type === "response") {
      const turn = current;
      current = null;
      delete pending[frame.id];
      if (frame.error) {
        if (turn) turn.box.classList.remove("thinking");
        addError(frame.error.message || frame.error.code);
      } else if (turn) {
        turn.text = frame.result.response;
        turn.body.innerHTML = LangoMarkdown.render(turn.text);
      }
      send.disabled = false;
      loadSessions();
    }
  }

  function submit(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !socket || socket.readyState !== WebSocket.OPEN) return;
    const id = String(nextId++);
    addUser(text);
    current = assistant();
    current.box.classList.add("thinking");
    pending[id] = current;
    socket.send(JSON.stringify({ type: "request", id, method: "chat.message", params: { sessionKey, message: text } }));
    input.value = "";
    send.disabled = true;
  }

  async function loadSessions() {
    try {
      const response = await fetch("api/apps/lango/users/" + USER + "/sessions", { headers: headers() });
      if (!response.ok) return;
      const sessions = await response.json();
      list.replaceChildren();
      sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime).forEach((s) => {
        const item = el("li", s.id === sessionKey ? "active" : "", s.id);
        item.onclick = () => open(s.id);
        list.appendChild(item);
      });
    } catch (e) { /* offline: the list refreshes after the next turn */ }
  }

  /** Shows a stored session: user text, answers, tool calls with their results. */
  async function open(key) {
    sessionKey = key;
    localStorage.setItem("lango.session", key);
    messages.replaceChildren();
    loadSessions();
    const response = await fetch("api/apps/lango/users/" + USER + "/sessions/" + encodeURIComponent(key), { headers: headers() });
    if (!response.ok) return;
    const session = await response.json();
    let box = null;
    for (const e of session.events) {
      const parts = (e.content && e.content.parts) || [];
      if (e.errorMessage && !parts.length) { addError(e.errorMessage); box = null; continue; } // how a turn ended
      if (e.author === "user" && parts.some((p) => p.text)) {
        addUser(parts.map((p) => p.text || "").join(""));
        box = null;
        continue;
      }
      if (!box) box = assistant(e.author);
      for (const part of parts) {
        if (part.functionCall) toolCall(box, { id: part.functionCall.id, name: part.functionCall.name, agent: e.author, args: part.functionCall.args });
        if (part.functionResponse) toolResult(box, { id: part.functionResponse.id, result: part.functionResponse.response });
        if (part.text) { box.text += part.text; box.body.innerHTML = LangoMarkdown.render(box.text); }
      }
    }
    scroll();
  }

  $("composer").addEventListener("submit", submit);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) submit(e); });
  $("new-session").onclick = () => { sessionKey = newKey(); localStorage.setItem("lango.session", sessionKey); messages.replaceChildren(); loadSessions(); };
  send.disabled = true;
  connect();
  open(sessionKey);
})();
