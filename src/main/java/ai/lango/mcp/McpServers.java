package ai.lango.mcp;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import ai.lango.net.egress.HostPolicy;
import ai.lango.net.http.HttpPeers;
import ai.lango.tool.Caller;
import ai.lango.tool.Tool;
import ai.lango.tool.ToolException;
import ai.lango.tool.ToolSource;
import ai.lango.tool.exec.ExecSandbox;
import ai.lango.turn.Names;
import ai.lango.vault.SecretReferences;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The MCP servers of {@code mcp.json} while Lango runs. Each server is started in the background (a
 * slow one never holds up the start): a connection as the operator lists its tools (a stdio server's
 * in an empty scratch folder, since it calls nothing), which every user the entry allows is offered;
 * a call goes over the calling user's own connection — a stdio server's process per user, in that
 * user's workspace and sandbox with that user's secrets (a server named for some users never sees
 * the users' folders from the operator's workspace); an HTTP server's session per user. A server
 * whose connection ends or that does not start is started again with growing pauses (1 s up to 32 s),
 * and its calls fail with a tool error meanwhile; after {@code lango.mcp.start-attempts} failures in a
 * row it stays failed until an admin restarts it or its entry changes. What a stdio server last wrote
 * on stderr, and a hint when that (or its command) says why ({@link McpHints}), go with its failure.
 * A turn waits up to {@code lango.mcp.start-wait} for a server still starting. The file is read again
 * when it changes; a server that announces a changed tool list is listed again.
 */
@ApplicationScoped
public class McpServers implements ToolSource {

    private static final Logger LOG = MaskedLogs.of(McpServers.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration WATCH = Duration.ofSeconds(2);
    /** The longest pause before a failed server is started again: the pauses go 1, 2, 4, 8, 16, 32 s. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(32);
    /** Where the listers of stdio servers get their scratch folders. */
    private static final Path SCRATCH = Path.of(System.getProperty("java.io.tmpdir"), "lango-mcp");

    /** Where a server stands. */
    public enum State { STARTING, READY, FAILED, RESTARTING }

    /** A server as the admin API shows it. */
    public record Status(String name, String transport, State state, Optional<String> lastError, List<String> stderr,
                         Optional<String> hint, int failures, List<String> tools, List<String> users, int connections) {
    }

    @Inject
    LangoSettings.Mcp settings;

    @Inject
    LangoSettings.ToolSettings toolSettings;

    @Inject
    SecretReferences secrets;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    private final Map<String, Server> servers = new ConcurrentHashMap<>();
    private final HttpClient http = HttpPeers.client(Duration.ofSeconds(10), HttpClient.Redirect.NEVER);
    private volatile long fileStamp = Long.MIN_VALUE;
    private volatile List<String> fileProblems = List.of();
    private ScheduledFuture<?> watch;

    /** One server: its entry, where it stands, its tools, the connection that lists them, and the users' connections. */
    private final class Server implements McpSession.Listener {
        final McpServerEntry entry;
        /** The operator's connection made at start: it lists the tools and hears their changes; no call goes over it. */
        volatile McpSession lister;
        /** The transport of the latest attempt to connect as the operator: what its process wrote on stderr. */
        volatile McpTransport listerTransport;
        final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
        volatile State state = State.STARTING;
        volatile String lastError;
        volatile List<String> stderr = List.of();
        volatile String hint;
        volatile List<McpTool> tools = List.of();
        volatile boolean removed;
        /** Failed attempts since it was last ready. */
        volatile int failures;
        /** Which attempt is the current one: an older one that ends late (after a restart) changes nothing. */
        volatile long attempt;
        volatile ScheduledFuture<?> retry;
        /** Done when its first start ends, ready or not: what a turn that starts meanwhile waits for. */
        final java.util.concurrent.CompletableFuture<Void> started = new java.util.concurrent.CompletableFuture<>();

        Server(McpServerEntry entry) {
            this.entry = entry;
        }

        @Override
        public void toolsChanged() {
            scheduler.execute(() -> listTools(this));
        }

        @Override
        public void ended(String why) {
            // the lister's: the server is down; a user's: that user's connection is gone
        }

        int connections() {
            return sessions.size() + (lister == null ? 0 : 1);
        }
    }

    @PostConstruct
    void start() {
        watch = scheduler.scheduleWithFixedDelay(this::watch, 0, WATCH.toMillis(), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (watch != null) {
            watch.cancel(false);
        }
        // a connection or restart already scheduled runs after the application stopped: it must find its server gone
        servers.values().forEach(server -> server.removed = true);
        servers.values().forEach(server -> server.started.complete(null));
        servers.values().forEach(this::closeAll);
        servers.clear();
    }

    /** Reads the file again when it changed (or came, or went). */
    synchronized void watch() {
        try {
            Path file = settings.config();
            long stamp = Files.exists(file) ? Files.getLastModifiedTime(file).toMillis() ^ Files.size(file) : -1;
            if (stamp == fileStamp) {
                return;
            }
            fileStamp = stamp;
            apply(McpConfigFile.read(file));
        } catch (IOException | RuntimeException e) {
            LOG.warning(() -> "reading " + settings.config() + " failed: " + e.getMessage());
        }
    }

    /** The servers of a (new) file: the ones gone stop, the new and changed ones start, the same ones go on. */
    synchronized void apply(McpConfigFile.Parsed parsed) {
        if (!parsed.readable()) {
            // half saved, or broken as a whole: what runs goes on until the file reads again
            fileProblems = parsed.problems().stream().map(p -> p + " (the servers running go on until the file reads again)").toList();
            fileProblems.forEach(problem -> LOG.warning(() -> "MCP: " + problem));
            return;
        }
        fileProblems = parsed.problems();
        parsed.problems().forEach(problem -> LOG.warning(() -> "MCP: " + problem + " (the other servers start all the same)"));
        Map<String, McpServerEntry> wanted = new LinkedHashMap<>();
        parsed.servers().forEach(entry -> wanted.put(entry.name(), entry));
        for (String name : List.copyOf(servers.keySet())) {
            McpServerEntry now = wanted.get(name);
            Server running = servers.get(name);
            if (now == null || !now.equals(running.entry)) {
                running.removed = true;
                running.started.complete(null);
                servers.remove(name);
                closeAll(running);
            }
        }
        for (McpServerEntry entry : wanted.values()) {
            if (!servers.containsKey(entry.name())) {
                Server server = new Server(entry);
                servers.put(entry.name(), server);
                long attempt = server.attempt;
                scheduler.execute(() -> connect(server, attempt));
            }
        }
    }

    /** Connects as the operator and lists the server's tools; a failure is retried after a pause that grows. */
    private void connect(Server server, long attempt) {
        if (server.removed || server.attempt != attempt) {
            return;
        }
        try {
            McpSession session = open(server, operator(), true);
            if (server.removed || server.attempt != attempt) {
                session.close(); // restarted meanwhile: the newer attempt is the one that counts
                return;
            }
            McpSession previous = server.lister;
            server.lister = session;
            if (previous != null) {
                previous.close();
            }
            listTools(server);
            if (server.lister != session) {
                return; // listing failed, and said so
            }
            server.failures = 0;
            server.lastError = null;
            server.stderr = List.of();
            server.hint = null;
            server.state = State.READY;
            server.started.complete(null);
            LOG.info(() -> "MCP server \"" + server.entry.name() + "\" is ready (MCP " + session.protocol() + "): tools "
                    + server.tools.stream().map(Tool::name).toList());
        } catch (IOException | McpSession.CallFailed | ToolException | RuntimeException e) {
            if (server.attempt == attempt) {
                failed(server, e.getMessage());
            }
        }
    }

    /**
     * The current attempt failed, or the server's connection ended: it is started again after a pause
     * that doubles (1 s up to {@link #MAX_BACKOFF}) — or, after {@code lango.mcp.start-attempts} failures
     * in a row, stays failed until an admin restarts it.
     */
    private synchronized void failed(Server server, String why) {
        if (server.removed) {
            return;
        }
        McpSession gone = server.lister;
        server.lister = null;
        if (gone != null) {
            gone.close();
        }
        McpTransport transport = server.listerTransport;
        List<String> stderr = transport == null ? List.of() : transport.stderr();
        String hint = McpHints.of(server.entry, stderr, Files::exists).orElse(null);
        server.lastError = why;
        server.stderr = stderr;
        server.hint = hint;
        server.failures++;
        long attempt = ++server.attempt;
        String name = server.entry.name();
        String said = (hint == null ? "" : "; " + hint) + (stderr.isEmpty() ? "" : "; its last lines on stderr: "
                + String.join(" | ", stderr));
        if (server.failures >= settings.startAttempts()) {
            server.state = State.FAILED;
            LOG.warning(() -> "MCP server \"" + name + "\" failed " + server.failures + " times in a row and stays failed until"
                    + " POST /api/admin/mcp/" + name + "/restart or a change of its entry: " + why + said);
        } else {
            server.state = State.RESTARTING;
            long pause = backoff(server.failures - 1).toMillis();
            LOG.warning(() -> "MCP server \"" + name + "\" failed: " + why + said + "; starting it again in " + pause / 1000 + " s");
            server.retry = scheduler.schedule(() -> connect(server, attempt), pause, TimeUnit.MILLISECONDS);
        }
        server.started.complete(null);
    }

    /** The server's tools, as the lister lists them; names that clash are said and left out. */
    private void listTools(Server server) {
        McpSession session = server.lister;
        if (session == null) {
            return;
        }
        try {
            List<McpTool> tools = new ArrayList<>();
            Map<String, String> named = new LinkedHashMap<>();
            for (McpProtocol.ToolInfo tool : session.listTools(START_TIMEOUT)) {
                String name = McpTool.nameOf(server.entry.name(), tool.name());
                String clash = named.putIfAbsent(name, tool.name());
                if (clash == null) {
                    clash = otherServerWith(name, server.entry.name());
                }
                if (clash != null) {
                    String other = clash;
                    LOG.warning(() -> McpTool.describeClash(name, other, server.entry.name() + "/" + tool.name()));
                    continue;
                }
                tools.add(new McpTool(name, server.entry.name(), tool, McpTool.safetyOf(server.entry, tool), this,
                        settings.callTimeout()));
            }
            server.tools = List.copyOf(tools);
        } catch (IOException | McpSession.CallFailed e) {
            failed(server, "listing its tools failed: " + e.getMessage());
        }
    }

    private String otherServerWith(String toolName, String except) {
        for (Server other : servers.values()) {
            if (!other.entry.name().equals(except)) {
                for (McpTool tool : other.tools) {
                    if (tool.name().equals(toolName)) {
                        return other.entry.name() + "/" + tool.serverTool();
                    }
                }
            }
        }
        return null;
    }

    /** The pause before the next start after {@code failures} earlier failures in a row: 1 s doubling to {@link #MAX_BACKOFF}. */
    static Duration backoff(int failures) {
        return Duration.ofMillis(Math.min(MAX_BACKOFF.toMillis(), 1000L << Math.min(failures, 10)));
    }

    /** A new connection to the server for {@code caller}'s user (or, as the operator, the one that lists its tools), initialized. */
    private McpSession open(Server server, Caller caller, boolean lister) throws IOException, McpSession.CallFailed, ToolException {
        McpServerEntry entry = server.entry;
        String usedBy = "mcp_" + entry.name();
        McpTransport transport = switch (entry.transport()) {
            case STDIO -> stdio(entry, caller, secrets.resolveFor(usedBy, entry.env(), destination(entry), caller), lister);
            case HTTP -> new HttpTransport(entry.name(), entry.url().orElseThrow(),
                    secrets.resolveFor(usedBy, entry.headers(), destination(entry), caller), http);
            case SSE -> new SseTransport(entry.name(), entry.url().orElseThrow(),
                    secrets.resolveFor(usedBy, entry.headers(), destination(entry), caller), http);
        };
        if (lister) {
            server.listerTransport = transport;
        }
        java.util.concurrent.atomic.AtomicReference<McpSession> self = new java.util.concurrent.atomic.AtomicReference<>();
        McpSession session = new McpSession(entry.name(), transport, entry.elicitation(), new McpSession.Listener() {
            @Override
            public void toolsChanged() {
                server.toolsChanged();
            }

            @Override
            public void ended(String why) {
                if (!lister) {
                    server.sessions.remove(caller.userId());
                } else if (self.get() != null && server.lister == self.get()) {
                    failed(server, why); // a connection that ends while it starts is the attempt's failure, said once by connect
                }
            }
        });
        self.set(session);
        try {
            session.initialize(START_TIMEOUT);
        } catch (IOException | McpSession.CallFailed | RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    /**
     * A stdio server's process in exec's sandbox, with no environment of the server's: in the caller's workspace —
     * without the users' folders under the operator's when the server is named for some users — or, for the
     * lister, in an empty scratch folder of its own that stands where the operator's workspace is (so that
     * arguments naming the workspace still name a folder), deleted when the process ends.
     */
    private McpTransport stdio(McpServerEntry entry, Caller caller, Map<String, String> env, boolean lister) throws IOException {
        Path workspace = toolSettings.workspaceOf(caller.userId(), caller.sessionKey(), Names.DEFAULT_USER).toAbsolutePath().normalize();
        Path directory = workspace.resolve(entry.cwd()).normalize();
        if (!directory.startsWith(workspace)) {
            throw new IOException("\"cwd\": \"" + entry.cwd() + "\" leaves the workspace");
        }
        ExecSandbox sandbox = new ExecSandbox(toolSettings.execSandbox(), entry.network());
        if (sandbox.sandboxed() && !Files.isExecutable(toolSettings.execSandbox().get())) {
            throw new IOException("a stdio server runs in exec's sandbox, and " + toolSettings.execSandbox().get()
                    + " is not there: install Debian's bubblewrap (apt-get install bubblewrap), or set"
                    + " lango.tools.exec.sandbox=none (unsafe)");
        }
        Path root = toolSettings.workspace().toAbsolutePath().normalize();
        List<Path> hidden = !lister && !entry.users().isEmpty() && workspace.equals(root)
                ? List.of(Files.createDirectories(root.resolve(LangoSettings.ToolSettings.USERS_FOLDER))) : List.of();
        Path scratch = lister ? Files.createTempDirectory(Files.createDirectories(SCRATCH), entry.name() + "-") : null;
        ExecSandbox.Writable writable = new ExecSandbox.Writable(lister ? scratch : workspace, workspace, hidden);
        Path onHost = writable.folder().resolve(workspace.relativize(directory));
        Files.createDirectories(onHost);
        List<String> command = new ArrayList<>();
        command.add(entry.command().orElseThrow());
        command.addAll(entry.args());
        List<Path> readOnly = entry.readOnly().stream().map(Path::of).toList();
        Map<String, String> environment = new TreeMap<>();
        environment.put("PATH", Optional.ofNullable(System.getenv("PATH")).orElse("/usr/local/bin:/usr/bin:/bin"));
        environment.put("HOME", sandbox.home(writable.folder()));
        environment.put("LANG", "C.UTF-8");
        environment.putAll(env);
        return new StdioTransport(entry.name(), sandbox.wrap(writable, readOnly, directory, command), environment, onHost, scratch);
    }

    /** Where what a server is given goes: an HTTP server's host, anywhere from a stdio server with network. */
    private static Optional<String> destination(McpServerEntry entry) {
        if (entry.url().isPresent()) {
            return Optional.of(HostPolicy.destination(entry.url().get().toString()).orElse("*"));
        }
        return entry.network() ? Optional.of("*") : Optional.empty();
    }

    Optional<String> destinationOf(String name) {
        Server server = servers.get(name);
        return server == null ? Optional.empty() : destination(server.entry);
    }

    private static Caller operator() {
        return new Caller(Names.DEFAULT_USER, null, true, false);
    }

    @Override
    public String name() {
        return "mcp";
    }

    /**
     * The tools of the ready servers {@code userId} may use, once those that are still starting (their first
     * attempt) are ready or have failed, or {@code lango.mcp.start-wait} has passed.
     */
    @Override
    public List<Tool> tools(String userId) {
        if (fileStamp == Long.MIN_VALUE && servers.isEmpty()) {
            watch(); // asked before the watch first read the file: the servers it names are waited for too
        }
        String user = userId == null ? Names.DEFAULT_USER : userId;
        long deadline = System.nanoTime() + settings.startWait().toNanos();
        for (Server server : servers.values()) {
            if (server.state == State.STARTING && server.entry.offeredTo(user)) {
                try {
                    server.started.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    LOG.info(() -> "MCP server \"" + server.entry.name() + "\" is still starting after " + settings.startWait()
                            + ": this model call goes without its tools");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } catch (java.util.concurrent.ExecutionException e) {
                    // never completed exceptionally
                }
            }
        }
        List<Tool> tools = new ArrayList<>();
        for (Server server : servers.values()) {
            if (server.state == State.READY && server.entry.offeredTo(user)) {
                tools.addAll(server.tools);
            }
        }
        return tools;
    }

    /** Calls a server's tool for {@code caller}'s user, over that user's connection (made on first use). */
    JsonNode call(String name, String tool, Map<String, Object> args, Caller caller) throws Exception {
        Server server = servers.get(name);
        if (server == null) {
            throw new ToolException("the MCP server \"" + name + "\" is no longer configured");
        }
        String user = caller == null || caller.userId() == null ? Names.DEFAULT_USER : caller.userId();
        if (!server.entry.offeredTo(user)) {
            throw new ToolException("the MCP server \"" + name + "\" is not offered to \"" + user + "\"");
        }
        if (server.state != State.READY) {
            throw new ToolException("the MCP server \"" + name + "\" is " + server.state.name().toLowerCase(java.util.Locale.ROOT)
                    + Optional.ofNullable(server.lastError).map(e -> " (" + e + ")").orElse("")
                    + (server.state == State.FAILED ? "; an admin can start it again" : "; try again shortly"));
        }
        McpSession session;
        synchronized (server) {
            session = server.sessions.get(user);
            if (session == null) {
                try {
                    session = open(server, caller == null ? operator() : caller, false);
                } catch (IOException | McpSession.CallFailed e) {
                    throw new ToolException("the MCP server \"" + name + "\" cannot be reached for \"" + user + "\": "
                            + e.getMessage());
                }
                server.sessions.put(user, session);
            }
        }
        try {
            return session.callTool(tool, args, settings.callTimeout(),
                    progress -> {
                        if (caller != null) { // the turn that called hears how far its tool got
                            caller.turn().progress().accept(new ai.lango.turn.TurnEvent.ToolProgress("", McpTool.nameOf(name, tool),
                                    progress.progress(), progress.total(), progress.message()));
                        }
                    });
        } catch (McpSession.CallFailed | IOException e) {
            throw new ToolException("the MCP server \"" + name + "\": " + e.getMessage());
        }
    }

    /** Closes the server's connections and starts it again; false when there is no such server. */
    public boolean restart(String name) {
        Server server = servers.get(name);
        if (server == null) {
            return false;
        }
        long attempt;
        synchronized (this) {
            attempt = ++server.attempt; // a retry already scheduled, or an attempt under way, no longer counts
            ScheduledFuture<?> retry = server.retry;
            if (retry != null) {
                retry.cancel(false);
            }
            closeAll(server);
            server.failures = 0;
            server.state = State.RESTARTING;
        }
        scheduler.execute(() -> connect(server, attempt));
        return true;
    }

    /** Every configured server, and the problems of the file. */
    public List<Status> status() {
        return servers.values().stream().sorted(java.util.Comparator.comparing(s -> s.entry.name()))
                .map(s -> new Status(s.entry.name(), s.entry.transport().name().toLowerCase(java.util.Locale.ROOT), s.state,
                        Optional.ofNullable(s.lastError), s.stderr, Optional.ofNullable(s.hint), s.failures,
                        s.tools.stream().map(Tool::name).toList(), s.entry.users(), s.connections()))
                .toList();
    }

    public List<String> problems() {
        return fileProblems;
    }

    public Path file() {
        return settings.config();
    }

    private void closeAll(Server server) {
        McpSession lister = server.lister;
        server.lister = null;
        if (lister != null) {
            lister.close();
        }
        server.sessions.values().forEach(McpSession::close);
        server.sessions.clear();
    }
}
