// Lango chat page: WebSocket chat (docs/contract.md) as the signed-in user, with streamed Markdown,
// tool calls and their outcome, approval cards that say where a request stands, delegation, Stop,
// Retry, Copy, session rename and delete, scheduled turns (marked, and the "Scheduled" list: next time,
// last result, pause, delete), and automatic reconnect. The credential is kept for this
// tab only (sessionStorage); the page reads only what its user may: GET api/me says who that is.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const messages = $("messages"), input = $("input"), send = $("send"), stop = $("stop"), status = $("status"), list = $("sessions");
  const tokenForm = $("token-form"), tokenInput = $("token");
  const REFUSED = ["denied", "expired", "superseded", "not_approved", "already_ran"];
  const MAX_RETRY_MS = 5000;
  let me = null, socket = null, retry = 0, nextId = 1, ready = false, retryTimer = null, lostTurn = false;
  let running = null; // the turn in view: {id, box, body, text, sessionKey}
  const outbox = []; // requests typed while not connected: sent, in order, once the server accepts them
  const known = new Set(); // the user's stored sessions
  const resumedTurns = new Map(); // session key → the box of a turn the server resumed after it restarted
  let sessionKey = null, lastMessage = null;

  localStorage.removeItem("lango.token"); // kept per tab now, never where other tabs or a later visitor find it
  function token() { return sessionStorage.getItem("lango.token"); }
  function headers() { return token() ? { Authorization: "Bearer " + token() } : {}; }
  function newKey() { return "chat-" + Math.random().toString(36).slice(2, 10); }
  function userPath() { return "api/apps/lango/users/" + encodeURIComponent(me.userId) + "/sessions"; }
  function rememberSession() { localStorage.setItem("lango.session." + me.userId, sessionKey); }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function button(cls, text, onclick, label) {
    const b = el("button", cls, text);
    b.type = "button";
    b.onclick = onclick;
    if (label) b.setAttribute("aria-label", label);
    return b;
  }
  function scroll() { messages.scrollTop = messages.scrollHeight; }
  function request(method, params, prefix) {
    const id = (prefix || "r") + "-" + nextId++;
    socket.send(JSON.stringify({ type: "request", id, method, params }));
    return id;
  }

  /** A user's message; one a schedule said ("[Scheduled <due>] …", as stored) is marked so, with its time. */
  function addUser(text) {
    const scheduled = /^\[Scheduled ([^\]]+)\] ([\s\S]*)$/.exec(text);
    const box = el("div", "msg user" + (scheduled ? " scheduled" : ""), scheduled ? scheduled[2] : text);
    if (scheduled) box.prepend(el("div", "scheduled-note", "⏰ Scheduled · " + localTime(scheduled[1])));
    messages.appendChild(box);
    scroll();
    return box;
  }

  /** An error where the answer would be, with Retry. */
  /** An error where the answer would be; Retry unless sending again cannot help ({@code retryable} false). */
  function addError(text, turn, retryable = true) {
    if (turn && turn.box.isConnected && !turn.text && !turn.box.querySelector("details.tool, .approval")) turn.box.remove();
    const box = el("div", "msg error", text);
    if (retryable) {
      const actions = el("div", "actions");
      actions.appendChild(button("retry", "Retry", () => resend(), "Send the last message again"));
      box.appendChild(actions);
    }
    messages.appendChild(box);
    scroll();
  }

  /** An assistant message; {@code thinking} shows at once that the answer is on its way. */
  function assistant(author, thinking) {
    const box = el("div", "msg assistant");
    box.appendChild(el("div", "author", author || "lango-agent"));
    const body = el("div", "body");
    box.appendChild(body);
    const turn = { box, body, text: "", dots: null };
    box.turn = turn;
    if (thinking) {
      box.classList.add("thinking");
      turn.dots = el("div", "thinking-dots", "Thinking");
      box.insertBefore(turn.dots, body);
    }
    messages.appendChild(box);
    scroll();
    return turn;
  }
  /** This session's and today's tokens and estimated cost, and the day's budget where one applies. */
  async function showUsage() {
    if (!sessionKey) return;
    const today = new Date().toISOString().slice(0, 10);
    try {
      const [session, day] = await Promise.all([
        fetch("api/usage?sessionKey=" + encodeURIComponent(sessionKey), { headers: headers() }).then((r) => (r.ok ? r.json() : null)),
        fetch("api/usage?from=" + today, { headers: headers() }).then((r) => (r.ok ? r.json() : null)),
      ]);
      if (!session || !day) return;
      const tokens = (t) => (t.inputTokens + t.outputTokens).toLocaleString();
      const cost = (t) => "$" + Number(t.costUsd).toFixed(4);
      const b = day.budget || {};
      const budget = b.tokensPerDay > 0 ? " of " + Number(b.tokensPerDay).toLocaleString() : "";
      $("usage").textContent = "This chat: " + tokens(session.totals) + " tokens · " + cost(session.totals)
        + " — today: " + tokens(day.totals) + budget + " tokens · " + cost(day.totals);
    } catch (e) { /* usage is a courtesy: the chat goes on without it */ }
  }

  function settle(turn) {
    if (!turn) return;
    turn.box.classList.remove("thinking");
    if (turn.dots) { turn.dots.remove(); turn.dots = null; }
  }
  function setText(turn, text) {
    turn.text = text;
    if (turn.dots && text) { turn.dots.remove(); turn.dots = null; }
    turn.body.innerHTML = LangoMarkdown.render(text);
  }
  /** Copy, and Retry on the newest answer. */
  function finishActions(turn) {
    if (!turn.text || turn.box.querySelector(".actions")) return;
    const actions = el("div", "actions");
    actions.appendChild(button("copy", "Copy", () => copy(turn.text, actions), "Copy this answer"));
    actions.appendChild(button("retry", "Retry", () => resend(), "Send the last message again"));
    turn.box.appendChild(actions);
  }
  function copy(text, actions) {
    const done = () => { const b = actions.querySelector(".copy"); b.textContent = "Copied"; setTimeout(() => { b.textContent = "Copy"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
    } else {
      fallbackCopy(text, done);
    }
  }
  function fallbackCopy(text, done) {
    const area = el("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* nothing to do */ }
    area.remove();
  }

  // --- tool calls and their outcome: ✓ only once a call has run ---
  function toolCall(target, call) {
    const details = el("details", "tool");
    details.dataset.callId = call.id;
    const summary = el("summary", null, "tool " + call.name + " (" + (call.agent || "") + ")");
    summary.appendChild(el("span", "tool-state", "running"));
    details.appendChild(summary);
    details.appendChild(el("pre", null, JSON.stringify(call.args, null, 2)));
    if (target.dots) target.box.insertBefore(details, target.dots); else target.box.insertBefore(details, target.body);
    scroll();
  }
  function toolResult(target, result) {
    const details = [...messages.querySelectorAll("details.tool")].reverse().find((d) => d.dataset.callId === result.id);
    const r = result.result || {};
    let last = details ? details.querySelector("pre.result") : null;
    if (!last) { last = el("pre", "result"); if (details) details.appendChild(last); else target.box.insertBefore(last, target.body); }
    last.textContent = "→ " + resultText(r);
    if (details) {
      const state = details.querySelector(".tool-state");
      state.className = "tool-state";
      if (r.status === "awaiting_approval") {
        state.textContent = "waiting for approval";
      } else if (r.error || REFUSED.includes(r.status)) {
        state.textContent = "✗ " + (r.error ? "failed" : r.status.replace("_", " "));
        state.classList.add("failed");
      } else {
        state.textContent = "✓ ran";
        state.classList.add("ran");
      }
    }
    const image = artifactImage(r);
    if (image) {
      if (details) details.after(image);
      else target.box.insertBefore(image, target.body);
    }
  }

  /**
   * A result as a person reads it: text with line breaks (a command's output, a file's lines) as text,
   * under the rest of the result as JSON; a result without such text, as JSON.
   */
  function resultText(r) {
    const multiline = (v) => typeof v === "string" && v.includes("\n");
    const entries = Object.entries(r);
    const texts = entries.filter(([, v]) => multiline(v));
    if (!texts.length) return JSON.stringify(r, null, 2);
    const rest = entries.filter(([, v]) => !multiline(v));
    return (rest.length ? JSON.stringify(Object.fromEntries(rest)) + "\n" : "")
      + texts.map(([k, v]) => k + ":\n" + v.replace(/\n$/, "")).join("\n");
  }

  /**
   * A tool result that names an image it saved as an artifact ({"artifact","version","mimeType"},
   * ai.lango.tool.ToolArtifacts) shows it under the tool call, read from ADK's artifact route.
   */
  function artifactImage(r) {
    if (!r || typeof r.artifact !== "string" || !Number.isInteger(r.version)
      || typeof r.mimeType !== "string" || !r.mimeType.startsWith("image/")) return null;
    const label = r.artifact + " (version " + r.version + ")";
    const figure = el("figure", "artifact");
    const caption = el("figcaption", null, label);
    figure.appendChild(caption);
    const url = userPath() + "/" + encodeURIComponent(sessionKey) + "/artifacts/" + encodeURIComponent(r.artifact) + "/versions/" + r.version;
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

  // --- approval cards: pending → approved / denied / expired / superseded, in words ---
  const STATES = {
    approved: "Approved — it runs",
    denied: "Denied — it did not run",
    expired: "Expired — nobody answered in time; it did not run",
    superseded: "Superseded by a new message — it did not run",
  };

  /**
   * A request for approval inside the conversation: which agent wants to run which tool with which
   * arguments, what else the person must see (secrets and where they go, files changed since the last
   * approved command), how dangerous it is, the time left, and Approve / Deny.
   */
  function approvalCard(turn, p, state) {
    let card = document.getElementById("approval-" + p.approvalId);
    if (!card) {
      card = el("div", "approval");
      card.id = "approval-" + p.approvalId;
      card.setAttribute("role", "group");
      card.setAttribute("aria-label", "Approve " + p.tool + "?");
      card.append(el("div", "approval-title", (p.agent || "agent") + " asks to run " + p.tool + " (" + p.safety + ")"));
      card.append(el("pre", "approval-args", JSON.stringify(p.args, null, 2)));
      const notes = noteList(p.notes || {});
      if (notes) card.append(notes);
      card.append(el("div", "approval-left", ""));
      const buttons = el("div", "approval-buttons");
      for (const [cls, text, approved] of [["approval-approve", "Approve", true], ["approval-deny", "Deny", false]]) {
        buttons.appendChild(button(cls, text, () => {
          buttons.querySelectorAll("button").forEach((b) => { b.disabled = true; });
          card.querySelector(".approval-left").textContent = "Sending your answer…";
          request("approval.response", { approvalId: p.approvalId, approved }, "approval");
        }));
      }
      card.append(buttons);
      if (turn.dots) turn.box.insertBefore(card, turn.dots); else turn.box.insertBefore(card, turn.body);
    }
    if (state && state !== "pending") {
      approvalResolved(p.approvalId, state);
      return;
    }
    const expires = Date.parse(p.expiresAt);
    const left = card.querySelector(".approval-left");
    const tick = () => {
      if (card.dataset.state && card.dataset.state !== "pending") return;
      const seconds = Math.max(0, Math.round((expires - Date.now()) / 1000));
      left.textContent = seconds > 0 ? "Waiting for your decision — " + seconds + " s left" : "Waiting for the server to close it…";
      setTimeout(tick, 1000);
    };
    card.dataset.state = "pending";
    tick();
    // The card never takes the keyboard: a person typing their next message would approve with a space or Enter.
    scroll();
  }
  /** An instant the server writes in ISO 8601 (UTC), in the reader's own time zone; other text as it is. */
  function localTime(text) {
    const at = Date.parse(text);
    return /^\d{4}-\d\d-\d\dT/.test(text) && !Number.isNaN(at)
      ? new Date(at).toLocaleString([], { dateStyle: "medium", timeStyle: "medium" }) : text;
  }
  function noteList(notes) {
    const items = [];
    if (notes.secrets) items.push("Uses the secret" + (notes.secrets.length > 1 ? "s " : " ") + notes.secrets.join(", ") + ", sent to " + notes.destination);
    if (notes.rerun) items.push("The server stopped while this ran: it may or may not have taken effect. Run it again?");
    if (notes.changedFiles) {
      items.push(notes.changedFiles.length
        ? "Files changed in the workspace since " + localTime(notes.changedFilesSince) + ": " + notes.changedFiles.join(", ") + (notes.changedFilesMore ? " and " + notes.changedFilesMore + " more" : "")
        : "No file of the workspace changed since " + localTime(notes.changedFilesSince));
    }
    if (!items.length) return null;
    const ul = el("ul", "approval-notes");
    items.forEach((t) => ul.appendChild(el("li", null, t)));
    return ul;
  }

  /** The card says how the request ended, in words; its buttons are gone. */
  function approvalResolved(approvalId, decision) {
    const card = document.getElementById("approval-" + approvalId);
    if (!card || !STATES[decision]) return;
    card.dataset.state = decision;
    const buttons = card.querySelector(".approval-buttons");
    if (buttons) buttons.remove();
    card.querySelector(".approval-left").textContent = STATES[decision];
  }

  // --- signing in, and the socket ---
  async function whoAmI() {
    try {
      // signed in is this tab's token alone: the sign-in cookie (for the dev UI) does not sign in another tab
      const response = await fetch("api/me", { headers: headers(), credentials: token() ? "same-origin" : "omit" });
      if (!response.ok) return { error: "HTTP " + response.status };
      const who = await response.json();
      return who.signedIn ? who : null;
    } catch (e) {
      return { error: e.message };
    }
  }

  function askForToken(text) {
    ready = false;
    setStatus(text, true);
    tokenForm.hidden = false;
    $("whoami").hidden = true;
    drawer(true); // on a phone the form is in the chat list: open it, or a first visitor sees an empty page
    tokenInput.focus();
  }

  function showMe() {
    $("whoami").hidden = !token();
    $("user-name").textContent = "Signed in as " + me.userId + (me.admin ? " (administrator)" : "");
    const model = me.model || {};
    $("model").textContent = model.provider ? model.provider + " · " + (model.name || "") : "no model";
    const banner = $("no-model");
    banner.hidden = !!model.provider;
    if (!model.provider) {
      banner.replaceChildren(el("strong", null, "No model is configured. "),
        document.createTextNode(model.missing || "Set LANGO_PROVIDER and LANGO_MODEL, then start the server again."));
    }
  }

  /**
   * The next try, 0.5 s after the first failure and twice as long each time up to 5 s (a server back after
   * a restart is found within seconds); the seconds it waits.
   */
  function later() {
    const delay = Math.min(MAX_RETRY_MS, 500 * 2 ** retry++);
    retryTimer = setTimeout(start, delay);
    return Math.round(delay / 1000);
  }
  /** A page seen again, or a network back, tries at once rather than at the next timer. */
  function tryNow() {
    if (retryTimer !== null) start();
  }
  window.addEventListener("online", tryNow);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") tryNow(); });

  /**
   * The token as an HttpOnly cookie too, for the pages that send no header (ADK's dev UI); a person sent here to sign
   * in for the dev UI goes back to it.
   */
  async function signInBrowser() {
    try {
      await fetch("api/signin", { method: "POST", headers: headers() });
    } catch (e) {
      return; // the chat works without it
    }
    if (new URLSearchParams(location.search).get("then") === "dev-ui") location.replace("dev-ui/?app=lango");
  }

  async function start() {
    clearTimeout(retryTimer);
    retryTimer = null;
    const who = await whoAmI();
    if (who === null) {
      askForToken(token() ? "the access token was not accepted" : "this server needs an access token: sign in");
      return;
    }
    if (who.error) {
      setStatus("cannot reach the server — trying again in " + later() + " s", true);
      return;
    }
    const switched = !me || me.userId !== who.userId;
    me = who;
    if (token()) await signInBrowser();
    if (!tokenForm.hidden) drawer(false); // signed in: the conversation, not the list
    tokenForm.hidden = true;
    showMe();
    $("memory").hidden = true;
    if (switched) {
      sessionKey = localStorage.getItem("lango.session." + me.userId) || newKey();
      await loadSessions();
      await open(sessionKey);
      loadSchedules();
    }
    connect();
  }

  function connect() {
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
      if (running) { settle(running); lostTurn = true; running = null; } // the server may still finish and store it
      showRunning();
      if (event.code === 1008) { // policy violation: the credential is missing, wrong or ended
        askForToken(event.reason && event.reason.includes("ended") ? "your sign-in ended: sign in again" : "the access token was not accepted");
        return;
      }
      setStatus("disconnected — reconnecting in " + later() + " s", true);
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
    if (!ready || running || !outbox.length) return;
    const next = outbox.shift();
    next.box.classList.remove("pending");
    transmit(next);
  }

  /** Opens or closes the chat list (a drawer on a phone; always shown on a wider screen). */
  function drawer(open) {
    $("sidebar").classList.toggle("open", open);
    $("menu").setAttribute("aria-expanded", String(open));
  }

  function setStatus(text, offline) {
    status.textContent = text;
    status.classList.toggle("offline", offline);
  }

  function showRunning() {
    stop.hidden = !running;
    stop.disabled = false;
  }

  /** The turn box events of {@code key} go to: the running one, the last answer, or a new one (never an empty one). */
  function turnFor(key) {
    if (running && running.sessionKey === key) return running;
    if (resumedTurns.has(key)) return resumedTurns.get(key);
    const last = messages.lastElementChild;
    if (last && last.classList.contains("assistant") && last.turn) return last.turn;
    return assistant();
  }

  function handle(frame) {
    if (frame.type === "event" && frame.event === "auth.ok") { connected(); return; }
    if (frame.type === "event" && frame.event === "auth.revoked") {
      askForToken(((frame.payload || {}).reason || "your sign-in ended") + "");
      return;
    }
    if (frame.type === "event") {
      const p = frame.payload || {};
      if (frame.event === "agent.scheduled") loadSchedules();
      if (p.sessionKey && p.sessionKey !== sessionKey) {
        if (frame.event === "agent.done") { loadSessions(); loadSchedules(); } // another chat's scheduled turn ended
        return;
      }
      if (frame.event === "approval.resolved") { approvalResolved(p.approvalId, p.decision); return; }
      if (frame.event === "agent.scheduled") { // a schedule's fire: its message, then its answer as it comes
        addUser(p.message);
        lastMessage = p.message.replace(/^\[Scheduled [^\]]*\] /, "");
        resumedTurns.set(p.sessionKey, assistant(null, true));
        scroll();
        return;
      }
      if (frame.event === "agent.resumed") { // a turn cut off by a restart goes on: a new answer, saying so
        const resumed = assistant(p.agent, true);
        resumed.box.insertBefore(el("div", "resumed-note", "⟳ " + p.note), resumed.body);
        resumedTurns.set(p.sessionKey, resumed);
        scroll();
        return;
      }
      const turn = turnFor(p.sessionKey || sessionKey);
      switch (frame.event) {
        case "agent.thinking": break;
        case "agent.chunk": setText(turn, turn.text + p.chunk); scroll(); break;
        case "agent.tool_call": toolCall(turn, p); break;
        case "agent.tool_result": toolResult(turn, p); break;
        case "agent.delegation": turn.box.insertBefore(el("div", "delegation", "↪ " + p.from + " delegated to " + p.to), turn.body); break;
        case "agent.failed": addError(p.message, turn); break;
        case "agent.done":
          if (turn !== running) { settle(turn); finishActions(turn); }
          if (resumedTurns.delete(p.sessionKey)) { loadSessions(); loadSchedules(); }
          showUsage();
          break;
        case "approval.request":
          if (turn.dots) { turn.dots.remove(); turn.dots = null; } // it waits for a person now, not for the model
          approvalCard(turn, p);
          break;
      }
      return;
    }
    const id = String(frame.id);
    if (frame.type === "response" && id.startsWith("approval-")) {
      if (frame.error) setStatus("answer failed: " + (frame.error.message || frame.error.code), false);
      else approvalResolved(frame.result.approvalId, frame.result.status);
      return;
    }
    if (frame.type === "response" && (id.startsWith("rename-") || id.startsWith("delete-"))) {
      if (frame.error) setStatus((id.startsWith("rename-") ? "rename" : "delete") + " failed: " + (frame.error.message || frame.error.code), false);
      else if (id.startsWith("delete-") && frame.result.sessionKey === sessionKey) newSession();
      loadSessions();
      return;
    }
    if (frame.type === "response" && id.startsWith("abort-")) return;
    if (frame.type === "response") {
      const turn = running && running.id === id ? running : null;
      if (turn) running = null;
      settle(turn);
      if (frame.error && frame.error.code === "aborted") {
        if (turn) {
          turn.box.appendChild(el("div", "author", "Stopped."));
          finishActions(turn);
        }
      } else if (frame.error) {
        // a spent budget stays spent until its period ends or an administrator raises it: no Retry
        addError(frame.error.message || frame.error.code, turn, frame.error.code !== "budget_exceeded");
      } else if (turn) {
        setText(turn, frame.result.response);
        finishActions(turn);
      }
      showRunning();
      loadSessions();
      refreshMemory();
      flush();
    }
  }

  function submit(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    queue(text);
  }

  /** Kept, never dropped: sent once the server accepts requests and the running turn has ended. */
  function queue(text) {
    lastMessage = text;
    const next = { sessionKey, text, box: addUser(text) };
    next.box.classList.add("pending");
    outbox.push(next);
    flush();
  }

  /**
   * Retry: the last question asked again in place of its answer (or error), which goes from the view; the
   * question is not shown twice. The request says it is a retry: the server keeps the old answer as superseded,
   * out of what the model reads, and does not store the question twice (docs/contract.md).
   */
  function resend() {
    if (!lastMessage) return;
    const users = messages.querySelectorAll(".msg.user");
    const asked = users[users.length - 1];
    if (running || outbox.length || !asked || asked.textContent !== lastMessage) { queue(lastMessage); return; }
    while (asked.nextSibling) asked.nextSibling.remove();
    asked.classList.add("pending");
    outbox.push({ sessionKey, text: lastMessage, box: asked, retry: true });
    flush();
  }

  function transmit(next) {
    next.sessionKey = next.sessionKey || sessionKey; // typed before the page knew its user
    running = assistant(null, true);
    running.sessionKey = next.sessionKey;
    const params = { sessionKey: next.sessionKey, message: next.text };
    if (next.retry) params.retry = true;
    running.id = request("chat.message", params, "chat");
    known.add(next.sessionKey);
    showRunning();
  }

  stop.onclick = () => {
    if (!running || !ready) return;
    stop.disabled = true;
    request("chat.abort", { sessionKey: running.sessionKey }, "abort");
  };

  /** Asks for a new title and sends it; the list is read again when the server answers. */
  function renameSession(id, title) {
    const next = window.prompt("Rename this chat", title);
    if (!next || !next.trim() || !ready) return;
    request("session.rename", { sessionKey: id, title: next.trim() }, "rename");
  }

  function deleteSession(id, title) {
    if (!ready || !window.confirm("Delete the chat \"" + title + "\" and everything in it? This cannot be undone.")) return;
    request("session.delete", { sessionKey: id }, "delete");
  }

  async function loadSessions() {
    if (!me) return;
    try {
      const response = await fetch(userPath(), { headers: headers() });
      if (!response.ok) return;
      const sessions = await response.json();
      list.replaceChildren();
      known.clear();
      // Newest first, each under its title (its first message, or the name its user gave it).
      sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime).forEach((s) => {
        known.add(s.id);
        const title = (s.state && s.state["lango:title"]) || s.id;
        const item = el("li", s.id === sessionKey ? "active" : "");
        const name = button("session-title", title, () => { open(s.id); drawer(false); });
        name.title = s.id;
        item.append(name, button("session-rename", "✎", () => renameSession(s.id, title), "Rename " + title),
          button("session-delete", "×", () => deleteSession(s.id, title), "Delete " + title));
        list.appendChild(item);
      });
    } catch (e) { /* offline: the list refreshes after the next turn */ }
  }

  /**
   * The user's schedules (GET api/schedules): message, session, next time, last result; pause or resume, delete.
   * Looked at again every 30 s: a fire another server ran (its events went to that server's sockets) shows up
   * then, and the chat in view is reloaded when one of its schedules has a new result and nothing runs in it.
   */
  const scheduleResults = new Map(); // schedule id → the last result seen
  async function loadSchedules() {
    if (!me) return;
    try {
      const response = await fetch("api/schedules", { headers: headers() });
      if (!response.ok) { $("schedules-box").hidden = true; return; }
      const schedules = (await response.json()).schedules;
      const changedHere = schedules.some((s) => s.sessionKey === sessionKey && scheduleResults.has(s.id)
        && scheduleResults.get(s.id) !== s.lastResult);
      scheduleResults.clear();
      schedules.forEach((s) => scheduleResults.set(s.id, s.lastResult));
      if (changedHere && !running && !resumedTurns.has(sessionKey)) { loadSessions(); open(sessionKey); }
      $("schedules-box").hidden = !schedules.length;
      $("schedules").replaceChildren(...schedules.map((s) => {
        const item = el("li", s.paused ? "paused" : "");
        const when = s.cron ? "cron " + s.cron + " (" + s.zone + ")" : s.every ? "every " + s.every : "at " + localTime(s.at);
        const title = button("schedule-message", s.message, () => { if (known.has(s.sessionKey)) open(s.sessionKey); drawer(false); });
        title.title = "in " + s.sessionKey + ", " + when;
        item.append(title,
          el("div", "schedule-when", s.paused ? "paused · " + when : s.next ? "next " + localTime(s.next) : "no next time"),
          el("div", "schedule-result", s.lastResult ? "last: " + s.lastResult : "not run yet"),
          button("schedule-delete link", "Delete", () => {
            if (confirm("Delete the schedule \"" + s.message + "\"?")) changeSchedule(s.id, "DELETE");
          }));
        if (s.paused || s.next) { // an at that has fired has nothing left to pause
          item.insertBefore(button("schedule-pause link", s.paused ? "Resume" : "Pause",
            () => changeSchedule(s.id, "PATCH", { paused: !s.paused })), item.lastChild);
        }
        return item;
      }));
    } catch (e) { /* offline: refreshed after the next scheduled turn */ }
  }

  async function changeSchedule(id, method, body) {
    const init = { method, headers: headers() };
    if (body) { init.headers = Object.assign({ "Content-Type": "application/json" }, init.headers); init.body = JSON.stringify(body); }
    const response = await fetch("api/schedules/" + encodeURIComponent(id), init).catch(() => null);
    if (!response || !response.ok) setStatus("the schedule could not be changed", false);
    loadSchedules();
  }

  /**
   * The memory panel, for an administrator: what the current session remembers (reflections, then
   * observations) and what the agent knows, shown only when the server has memory on.
   */
  async function loadMemory() {
    if (!me || !me.admin || !me.memory || !known.has(sessionKey)) return;
    const panel = $("memory");
    try {
      const response = await fetch("api/admin/memory/" + encodeURIComponent(sessionKey) + "?userId=" + encodeURIComponent(me.userId), { headers: headers() });
      if (!response.ok) return;
      const memory = await response.json();
      panel.hidden = !memory.status.enabled;
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

  async function loadKnowledge() {
    if (!me || !me.admin) return;
    try {
      const response = await fetch("api/admin/knowledge", { headers: headers() });
      if (!response.ok) return;
      const knowledge = (await response.json()).knowledge;
      $("memory-knowledge").replaceChildren(...knowledge.map((k) => el("li", "", "[" + k.category + "] " + k.key + ": " + k.content)));
      $("memory-knowledge-title").hidden = !knowledge.length;
      if (knowledge.length) $("memory").hidden = false;
    } catch (e) { /* offline: refreshed after the next turn */ }
  }

  function refreshMemory() {
    loadMemory();
    loadKnowledge();
    setTimeout(loadMemory, 3000);
  }

  function newSession() {
    sessionKey = newKey();
    rememberSession();
    messages.replaceChildren();
    loadSessions();
    showUsage();
  }

  /**
   * Shows a stored session: user text, answers, tool calls with their outcome, and each request for
   * approval as the card it was, in the state it ended in (or still waiting).
   */
  async function open(key) {
    sessionKey = key;
    rememberSession();
    messages.replaceChildren();
    for (const k of [...resumedTurns.keys()]) if (k !== key) resumedTurns.delete(k);
    running = null;
    showRunning();
    showUsage();
    list.querySelectorAll("li").forEach((li) => li.classList.toggle("active", li.querySelector(".session-title").title === key));
    if (!known.has(key)) { // a new chat: nothing stored yet
      outbox.filter((o) => !o.sessionKey || o.sessionKey === key).forEach((o) => messages.appendChild(o.box));
      return;
    }
    refreshMemory();
    const response = await fetch(userPath() + "/" + encodeURIComponent(key), { headers: headers() });
    if (!response.ok || key !== sessionKey) return;
    const session = await response.json();
    const outcome = outcomes(session.events);
    // what a Retry replaced stays stored, superseded ([from, to] ms of its messages): the new answer stands in its place
    const superseded = (session.state && session.state["lango:superseded"]) || [];
    const replaced = (e) => {
      const at = ms(e.timestamp);
      return superseded.some((r) => at >= r[0] && at <= r[1]);
    };
    // the range the newest compaction folded (it covers the older ones'): one line that opens to its summary and the originals
    const compaction = newestCompaction(session.events);
    const folded = (e) => compaction && ms(e.timestamp) >= compaction.from && ms(e.timestamp) <= compaction.to;
    let fold = null; // where in the page the folded range began, until it is wrapped in its line
    let box = null;
    for (const e of session.events) {
      if (replaced(e) || (e.actions && e.actions.compaction)) continue; // a compaction is the line, not a message
      if (folded(e) && !fold) {
        fold = { at: messages.childElementCount };
        box = null;
      } else if (!folded(e) && fold && !fold.done) {
        foldLine(fold, compaction);
        box = null;
      }
      const parts = (e.content && e.content.parts) || [];
      if (e.errorMessage && !parts.length) { addError(e.errorMessage); box = null; continue; } // how a turn ended
      if (e.author === "user") {
        if (parts.some((p) => p.text)) {
          const said = parts.map((p) => p.text || "").join("");
          addUser(said);
          lastMessage = said.replace(/^\[Scheduled [^\]]*\] /, ""); // Retry asks it as the user's own
          box = null;
        }
        continue; // a person's answer to a request is the card's state, not a message
      }
      if (!box) box = assistant(e.author);
      for (const part of parts) {
        const call = part.functionCall;
        if (call && call.name === "adk_request_confirmation") {
          const confirmation = (call.args && call.args.toolConfirmation) || {};
          const payload = confirmation.payload || {};
          const original = (call.args && call.args.originalFunctionCall) || {};
          if (payload.approvalId) approvalCard(box, payload, outcome(original.id, payload.expiresAt));
        } else if (call) {
          toolCall(box, { id: call.id, name: call.name, agent: e.author, args: call.args });
        }
        if (part.functionResponse && part.functionResponse.name !== "adk_request_confirmation") {
          toolResult(box, { id: part.functionResponse.id, result: part.functionResponse.response });
        }
        if (part.text) setText(box, box.text + part.text);
      }
    }
    if (fold && !fold.done) foldLine(fold, compaction);
    messages.querySelectorAll(".msg.assistant").forEach((b) => { if (!b.querySelector(".body").textContent && !b.querySelector("details, .approval, figure")) b.remove(); });
    const resumed = resumedTurns.get(key); // told while the history loaded: it comes after it
    if (resumed) messages.appendChild(resumed.box);
    outbox.filter((o) => !o.sessionKey || o.sessionKey === key).forEach((o) => messages.appendChild(o.box)); // still to be sent
    const answers = messages.querySelectorAll(".msg.assistant");
    if (answers.length && answers[answers.length - 1] === messages.lastElementChild) {
      const last = answers[answers.length - 1];
      const text = last.querySelector(".body").textContent;
      if (text) finishActions({ box: last, text });
    }
    scroll();
  }

  /** An event's time in milliseconds (ADK's Python writes seconds). */
  function ms(timestamp) { return timestamp < 1e11 ? Math.round(timestamp * 1000) : timestamp; }

  /** The range and summary of the session's newest compaction (the server's alone: it folds the previous ones in), or null. */
  function newestCompaction(events) {
    let newest = null;
    for (const e of events) {
      const c = e.actions && e.actions.compaction;
      if (c && (!newest || ms(c.endTimestamp) >= newest.to)) {
        const parts = (c.compactedContent && c.compactedContent.parts) || [];
        newest = { from: ms(c.startTimestamp), to: ms(c.endTimestamp), summary: parts.map((p) => p.text || "").join("") };
      }
    }
    return newest;
  }

  /**
   * What the page showed of a folded range (from {@code fold.at} on) becomes one collapsed line, "N earlier messages
   * summarised", that opens to the summary the model reads and the original messages, which stay stored.
   */
  function foldLine(fold, compaction) {
    const originals = el("div", "compacted-originals");
    while (messages.children.length > fold.at) originals.appendChild(messages.children[fold.at]);
    originals.querySelectorAll(".msg.assistant").forEach((b) => { if (!b.querySelector(".body").textContent && !b.querySelector("details, .approval, figure")) b.remove(); });
    const count = originals.querySelectorAll(".msg").length;
    const line = el("details", "compacted");
    line.appendChild(el("summary", "", count + " earlier message" + (count === 1 ? "" : "s") + " summarised"));
    line.appendChild(el("div", "compaction-summary", compaction.summary));
    line.appendChild(originals);
    messages.appendChild(line);
    fold.done = true;
  }

  /** How each call that asked for approval ended, from what its call was answered with last. */
  function outcomes(events) {
    const last = {};
    for (const e of events) {
      for (const part of (e.content && e.content.parts) || []) {
        const r = part.functionResponse;
        if (r && r.name !== "adk_request_confirmation") last[r.id] = r.response || {};
      }
    }
    return (callId, expiresAt) => {
      const r = last[callId];
      if (!r || r.status === "awaiting_approval") return Date.parse(expiresAt) > Date.now() ? "pending" : "expired";
      if (r.status === "denied" || r.status === "expired" || r.status === "superseded") return r.status;
      if (r.status === "not_approved" || r.status === "already_ran") return "denied";
      return "approved";
    };
  }

  tokenForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const entered = tokenInput.value.trim();
    if (!entered) return;
    sessionStorage.setItem("lango.token", entered);
    tokenInput.value = "";
    if (socket) { const old = socket; socket = null; old.close(); }
    start();
  });
  $("sign-out").onclick = () => {
    sessionStorage.removeItem("lango.token");
    fetch("api/signin", { method: "DELETE" }).catch(() => {});
    if (socket) { const old = socket; socket = null; old.close(); }
    me = null;
    list.replaceChildren();
    scheduleResults.clear();
    $("schedules").replaceChildren();
    $("schedules-box").hidden = true;
    messages.replaceChildren();
    askForToken("signed out");
  };
  $("composer").addEventListener("submit", submit);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) submit(e); });
  $("new-session").onclick = () => { newSession(); drawer(false); input.focus(); };
  $("menu").onclick = () => drawer(!$("sidebar").classList.contains("open"));
  setInterval(loadSchedules, 30000);
  start();
})();
