// Lango chat page: WebSocket chat (docs/contract.md) with streamed Markdown, tool calls (with the
// images they saved as artifacts), delegation, errors and automatic reconnect. Sessions come from the ADK session routes. With lango.auth.token
// set, the page asks for the token before it connects, says "connected" only once the server has
// accepted it, and keeps every message typed meanwhile until it can be sent.
(function () {
  "use strict";
  const USER = "user"; // the WebSocket chats as the default user
  const $ = (id) => document.getElementById(id);
  const messages = $("messages"), input = $("input"), send = $("send"), status = $("status"), list = $("sessions");
  const tokenForm = $("token-form"), tokenInput = $("token");
  let socket = null, retry = 0, nextId = 1, current = null, pending = {}, ready = false, retryTimer = null, lostTurn = false;
  const outbox = []; // requests typed while not connected: sent, in order, once the server accepts them
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

  function addUser(text) { const box = el("div", "msg user", text); messages.appendChild(box); scroll(); return box; }
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
    const image = artifactImage(result.result);
    if (image) {
      if (details) details.after(image);
      else target.box.insertBefore(image, target.body);
    }
  }

  /**
   * A tool result that names an image it saved as an artifact ({"artifact","version","mimeType"},
   * ai.lango.tool.ToolArtifacts) shows it under the tool call: the part is read from ADK's artifact
   * route with the page's token, its base64 (standard or URL-safe) turned into a blob: URL.
   */
  function artifactImage(r) {
    if (!r || typeof r.artifact !== "string" || !Number.isInteger(r.version)
      || typeof r.mimeType !== "string" || !r.mimeType.startsWith("image/")) return null;
    const label = r.artifact + " (version " + r.version + ")";
    const figure = el("figure", "artifact");
    const caption = el("figcaption", null, label);
    figure.appendChild(caption);
    const url = "api/apps/lango/users/" + USER + "/sessions/" + encodeURIComponent(sessionKey) + "/artifacts/"
      + encodeURIComponent(r.artifact) + "/versions/" + r.version;
    fetch(url, { headers: headers() })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error("HTTP " + response.status))))
      .then((part) => {
        const blob = part.inlineData || {};
        if (!blob.data) throw new Error("no image data");
        const b64 = blob.data.replace(/-/g, "+").replace(/_/g, "/");
        const text = atob(b64 + "===".slice((b64.length + 3) % 4));
        const bytes = new Uint8Array(text.length);
        for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
        const img = el("img");
        img.alt = label;
        img.onload = () => { URL.revokeObjectURL(img.src); scroll(); };
        img.src = URL.createObjectURL(new Blob([bytes], { type: blob.mimeType || r.mimeType }));
        figure.insertBefore(img, caption);
      })
      .catch((e) => { caption.textContent = label + ": not available (" + e.message + ")"; });
    return figure;
  }

  /** Whether this server wants a token, and whether the stored one is right: a 401 from the API says so. */
  async function tokenAccepted() {
    try {
      const response = await fetch("api/list-apps", { headers: headers() });
      return response.status !== 401;
    } catch (e) {
      return true; // unreachable: the socket's reconnect loop reports that
    }
  }

  function askForToken(text) {
    ready = false;
    setStatus(text, true);
    tokenForm.hidden = false;
    tokenInput.focus();
  }

  async function connect() {
    clearTimeout(retryTimer);
    if (!(await tokenAccepted())) {
      askForToken(token() ? "the access token was not accepted" : "this server needs an access token");
      return;
    }
    tokenForm.hidden = true;
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/[^/]*$/, "") + "ws";
    const ws = new WebSocket(url);
    socket = ws;
    setStatus("connecting…", true);
    ws.onopen = () => {
      retry = 0;
      if (token()) {
        setStatus("authenticating…", true);
        ws.send(JSON.stringify({ type: "auth", token: token() }));
      } else {
        connected();
      }
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      ready = false;
      // A turn sent but not answered: the server may still finish and store it; the session is read again on reconnect.
      Object.values(pending).forEach((p) => { p.box.classList.remove("thinking"); lostTurn = true; });
      pending = {};
      current = null;
      if (event.code === 1008) { // policy violation: the token is missing or wrong
        askForToken("the access token was not accepted");
        return;
      }
      const delay = Math.min(30000, 500 * 2 ** retry++);
      setStatus("disconnected — reconnecting in " + Math.round(delay / 1000) + " s", true);
      retryTimer = setTimeout(connect, delay);
    };
    ws.onmessage = (message) => handle(JSON.parse(message.data));
  }

  /** The server accepts requests now: say so, and send what was typed meanwhile. */
  function connected() {
    ready = true;
    setStatus("connected", false);
    if (lostTurn && !outbox.length) open(sessionKey);
    lostTurn = false;
    flush();
  }

  /** The next typed request, once the server accepts requests and no turn is running. */
  function flush() {
    if (!ready || Object.keys(pending).length || !outbox.length) return;
    const request = outbox.shift();
    request.box.classList.remove("pending");
    transmit(request);
  }

  function setStatus(text, offline) {
    status.textContent = text;
    status.classList.toggle("offline", offline);
  }

  function handle(frame) {
    if (frame.type === "event" && frame.event === "auth.ok") {
      connected();
      return;
    }
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
        case "approval.request": approvalCard(current, p); break;
        case "approval.resolved": approvalResolved(p.approvalId, p.decision, p.by); break;
      }
      return;
    }
    if (frame.type === "response" && String(frame.id).startsWith("approval-")) {
      if (frame.error) setStatus("answer failed: " + (frame.error.message || frame.error.code), false);
      else approvalResolved(frame.result.approvalId, frame.result.status, "user");
      return;
    }
    if (frame.type === "response" && String(frame.id).startsWith("rename-")) {
      if (frame.error) setStatus("rename failed: " + (frame.error.message || frame.error.code), false);
      loadSessions();
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
      loadSessions();
      refreshMemory();
      flush();
    }
  }

  /**
   * A request for approval inside the conversation: which agent wants to run which tool with which
   * arguments, how dangerous it is, the time left, and Approve / Deny (buttons, so keyboard users
   * reach them with Tab and press them with Enter or Space).
   */
  function approvalCard(turn, p) {
    if (document.getElementById("approval-" + p.approvalId)) return; // shown again on reconnect
    const card = el("div", "approval");
    card.id = "approval-" + p.approvalId;
    card.setAttribute("role", "group");
    card.setAttribute("aria-label", "Approve " + p.tool + "?");
    card.append(el("div", "approval-title", (p.agent || "agent") + " asks to run " + p.tool + " (" + p.safety + ")"));
    card.append(el("pre", "approval-args", JSON.stringify(p.args, null, 2)));
    const left = el("div", "approval-left", "");
    const approve = el("button", "approval-approve", "Approve");
    const deny = el("button", "approval-deny", "Deny");
    for (const [button, approved] of [[approve, true], [deny, false]]) {
      button.type = "button";
      button.onclick = () => {
        approve.disabled = deny.disabled = true;
        socket.send(JSON.stringify({ type: "request", id: "approval-" + nextId++, method: "approval.response",
          params: { approvalId: p.approvalId, approved } }));
      };
    }
    const buttons = el("div", "approval-buttons");
    buttons.append(approve, deny);
    card.append(left, buttons);
    const expires = Date.parse(p.expiresAt);
    const tick = () => {
      const seconds = Math.max(0, Math.round((expires - Date.now()) / 1000));
      if (!card.dataset.decision) left.textContent = seconds + " s left";
      if (seconds > 0 && !card.dataset.decision) setTimeout(tick, 1000);
    };
    tick();
    turn.box.insertBefore(card, turn.body);
    approve.focus();
    scroll();
  }

  /** The card says what was decided, and by whom; its buttons are done. */
  function approvalResolved(approvalId, decision, by) {
    const card = document.getElementById("approval-" + approvalId);
    if (!card || !decision || decision === "unknown") return;
    card.dataset.decision = decision;
    card.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    card.querySelector(".approval-left").textContent = decision + (by && by !== "user" ? " (" + by + ")" : "");
  }

  function submit(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const request = { id: String(nextId++), sessionKey, text, box: addUser(text) };
    input.value = "";
    // Kept, never dropped: sent once the server accepts requests and the running turn has ended.
    request.box.classList.add("pending");
    outbox.push(request);
    flush();
  }

  function transmit(request) {
    current = assistant();
    current.box.classList.add("thinking");
    pending[request.id] = current;
    socket.send(JSON.stringify({ type: "request", id: request.id, method: "chat.message",
      params: { sessionKey: request.sessionKey, message: request.text } }));
  }

  /** Asks for a new title and sends it; the list is read again when the server answers. */
  function renameSession(id, title) {
    const next = window.prompt("Rename this chat", title);
    if (!next || !next.trim() || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "request", id: "rename-" + nextId++, method: "session.rename",
      params: { sessionKey: id, title: next.trim() } }));
  }

  async function loadSessions() {
    try {
      const response = await fetch("api/apps/lango/users/" + USER + "/sessions", { headers: headers() });
      if (!response.ok) return;
      const sessions = await response.json();
      list.replaceChildren();
      // Newest first, each under its title (its first message, or the name its user gave it).
      sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime).forEach((s) => {
        const title = (s.state && s.state["lango:title"]) || s.id;
        const item = el("li", s.id === sessionKey ? "active" : "");
        const name = el("button", "session-title", title);
        name.type = "button";
        name.title = s.id;
        name.onclick = () => open(s.id);
        const rename = el("button", "session-rename", "✎");
        rename.type = "button";
        rename.setAttribute("aria-label", "Rename " + title);
        rename.onclick = () => renameSession(s.id, title);
        item.append(name, rename);
        list.appendChild(item);
      });
    } catch (e) { /* offline: the list refreshes after the next turn */ }
  }

  /**
   * The memory panel: what the current session remembers (reflections, then observations), shown
   * only when the server has memory on. The observer runs after the turn, so it is read again shortly after.
   */
  async function loadMemory() {
    const panel = $("memory");
    try {
      const response = await fetch("api/admin/memory/" + encodeURIComponent(sessionKey) + "?userId=" + USER, { headers: headers() });
      if (!response.ok) {
        for (const id of ["memory-reflections", "memory-observations"]) {
          $(id).replaceChildren();
          $(id + "-title").hidden = true;
        }
        $("memory-status").textContent = "nothing remembered yet";
        return;
      }
      const memory = await response.json();
      panel.hidden = !memory.status.enabled && $("memory-knowledge-title").hidden;
      if (!memory.status.enabled) {
        $("memory-status").textContent = "";
        return;
      }
      const fill = (id, items) => {
        const offered = items.filter((i) => i.foldedInto == null);
        $(id).replaceChildren(...offered.map((i) => el("li", "", i.content)));
        $(id + "-title").hidden = !offered.length;
      };
      fill("memory-reflections", memory.reflections);
      fill("memory-observations", memory.observations);
      $("memory-status").textContent = memory.status.observationTokens + memory.status.reflectionTokens
        + " tokens remembered, " + memory.status.unobservedTokens + " not yet observed";
    } catch (e) { /* offline: refreshed after the next turn */ }
  }

  /** What the agent knows (application-wide knowledge), in the same panel; shown when there is any. */
  async function loadKnowledge() {
    try {
      const response = await fetch("api/admin/knowledge", { headers: headers() });
      if (!response.ok) return;
      const known = (await response.json()).knowledge;
      $("memory-knowledge").replaceChildren(...known.map((k) => el("li", "", "[" + k.category + "] " + k.key + ": " + k.content)));
      $("memory-knowledge-title").hidden = !known.length;
      if (known.length) $("memory").hidden = false;
    } catch (e) { /* offline: refreshed after the next turn */ }
  }

  function refreshMemory() {
    loadMemory();
    loadKnowledge();
    setTimeout(loadMemory, 3000);
  }

  /** Shows a stored session: user text, answers, tool calls with their results. */
  async function open(key) {
    sessionKey = key;
    localStorage.setItem("lango.session", key);
    messages.replaceChildren();
    loadSessions();
    loadMemory();
    loadKnowledge();
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

  tokenForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const entered = tokenInput.value.trim();
    if (!entered) return;
    localStorage.setItem("lango.token", entered);
    tokenInput.value = "";
    connect().then(() => { if (tokenForm.hidden && !outbox.length) open(sessionKey); });
  });
  $("composer").addEventListener("submit", submit);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) submit(e); });
  $("new-session").onclick = () => { sessionKey = newKey(); localStorage.setItem("lango.session", sessionKey); messages.replaceChildren(); loadSessions(); loadMemory(); };
  connect();
  open(sessionKey);
})();
