package ai.lango.config;

import ai.lango.provider.ProviderCatalog;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Every configuration key, in one place: name, type, default and description. {@link
 * SettingsParser} reads the keys through these declarations, {@code GET /api/admin/config} lists
 * them with the values in force, and {@code config/lango.properties} and the configuration
 * reference ({@code docs/configuration.md}) are rendered from them (ConfigDocsTest fails when
 * either file disagrees: a run of that test rewrites them). Every default is here, and nowhere
 * else. A new key is its declaration here, the settings record's component that carries it
 * ({@link Key}), and the code that uses it.
 */
public final class Keys {

    private Keys() {
    }

    /** A group of keys, as the properties file and the docs present them. */
    public static final class Group {
        private final String title;
        private final String comment;
        private final List<Setting<?>> settings = new ArrayList<>();

        private Group(String title, String comment) {
            this.title = title;
            this.comment = comment;
            GROUPS.add(this);
        }

        public String title() {
            return title;
        }

        /** What the group is for, as a comment above its keys. */
        public String comment() {
            return comment;
        }

        public List<Setting<?>> settings() {
            return Collections.unmodifiableList(settings);
        }

        <T> Setting<T> add(Setting<T> setting) {
            settings.add(setting);
            return setting;
        }
    }

    private static final List<Group> GROUPS = new ArrayList<>();

    /** The declaration of {@code key} (a key of a family by its pattern: lango.providers.&lt;id&gt;.api-key). */
    public static Setting<?> named(String key) {
        return all().stream().filter(setting -> setting.key().equals(key)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no key " + key + " is declared in Keys"));
    }

    /** The groups in the order the docs present them, each with its keys in order. */
    public static List<Group> groups() {
        return Collections.unmodifiableList(GROUPS);
    }

    /** Every key, in order. */
    public static List<Setting<?>> all() {
        return GROUPS.stream().<Setting<?>>flatMap(g -> g.settings.stream()).toList();
    }

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]");
    private static final Duration NO_MAX = null;
    /** Liberty waits this long for the application to stop (applicationManager stopTimeout in server.xml is above it). */
    private static final Duration MAX_SHUTDOWN_GRACE = Duration.ofMinutes(5);
    /** The embedding provider in the server: all-MiniLM-L6-v2, no network. */
    public static final String EMBEDDING_LOCAL = "local";

    // ---------------------------------------------------------------------------------------------
    public static final Group SERVER = new Group("Server",
            "Where the server listens and keeps its data. The port, host, data directory and database are read by"
                    + " Liberty as well: set those in the environment (LANGO_HTTP_PORT, …) or in liberty/server.env.");

    public static final Setting<Integer> HTTP_PORT = SERVER.add(Setting.integer("lango.http.port",
            9080, 1, 65535, "an integer from 1 to 65535", "The HTTP port."));
    public static final Setting<String> HTTP_HOST = SERVER.add(Setting.text("lango.http.host",
            "localhost", "The interface to bind; beyond loopback only with lango.auth.token set."));
    public static final Setting<Path> DATA_DIR = SERVER.add(Setting.path("lango.data.dir", "~/.lango",
            "Where the embedded database, the workspace and prompt overrides live; never inside the server directory."));
    public static final Setting<String> DB_KIND = SERVER.add(Setting.text("lango.db.kind", "hsqldb",
            "hsqldb (embedded, every commit fsynced; the default) or postgresql. A database an earlier version kept"
                    + " in H2 (<data dir>/db/lango.mv.db) is imported at the first start."));
    public static final Setting<String> DB_URL = SERVER.add(Setting.text("lango.db.url", null,
            "The JDBC URL, for postgresql.").example("jdbc:postgresql://localhost:5432/lango"));
    public static final Setting<String> DB_USER = SERVER.add(Setting.text("lango.db.user", null,
            "The database user, for postgresql.").example("lango"));
    public static final Setting<String> DB_PASSWORD = SERVER.add(Setting.secret("lango.db.password",
            "The database password, for postgresql."));
    public static final Setting<Boolean> TURN_VIRTUAL_THREADS = SERVER.add(Setting.bool("lango.turn.virtual-threads", false,
            "Turns run on virtual threads (Jakarta Concurrency 3.1's virtual managed threads, read by Liberty): Java 21 or"
                    + " later only (JAVA_HOME), Liberty refuses it on Java 17. What it measured: docs/benchmarks.md."));

    // ---------------------------------------------------------------------------------------------
    public static final Group MODEL = new Group("Model",
            "The model provider and model. Unset: the server still runs, and a turn answers with an error naming"
                    + " these keys.");

    public static final Setting<String> PROVIDER = MODEL.add(Setting.choice("lango.provider", null, ProviderCatalog.IDS,
            "The model provider (ollama and any OpenAI-compatible server: openai with its base URL).").example("openai"));
    public static final Setting<String> MODEL_NAME = MODEL.add(Setting.text("lango.model", null,
            "The model; also sets the history budget when lango.agent.token-budget is 0.").example("gpt-4o-mini"));
    public static final Setting<String> PROVIDER_BASE_URL = MODEL.add(Setting.text(
            ProviderCatalog.configKey("<id>", ProviderCatalog.BASE_URL), null,
            "Where provider <id> answers (its public endpoint when unset).").accepting(Keys::httpUrl)
            .example("https://api.openai.com/v1"));
    public static final Setting<String> PROVIDER_API_KEY = MODEL.add(Setting.secret(
            ProviderCatalog.configKey("<id>", ProviderCatalog.API_KEY), "The API key of provider <id>."));
    public static final Setting<Duration> PROVIDER_READ_TIMEOUT = MODEL.add(Setting.duration("lango.provider.read-timeout",
            Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofMinutes(10),
            "The longest a model may stay silent, before its answer begins or between two pieces of it; then the call"
                    + " fails with an error saying so (a long answer that keeps coming never times out)."));

    // ---------------------------------------------------------------------------------------------
    public static final Group AGENT = new Group("Agent",
            "One run of the agent. System prompts are built from config/prompts/*.md (shipped in the WAR); a file of"
                    + " the same name in <data dir>/prompts/ replaces one, e.g. <data dir>/prompts/safety.md.");

    public static final Setting<Boolean> MULTI_AGENT = AGENT.add(Setting.bool("lango.agent.multi-agent", false,
            "The orchestrator lango-orchestrator delegates to executor, researcher, planner, memory-manager (and"
                    + " remote A2A agents) instead of the single agent lango-agent."));
    public static final Setting<Integer> MAX_TURNS = AGENT.add(Setting.positiveOrDefault("lango.agent.max-turns",
            25, "Tool-calling turns of one run at most."));
    public static final Setting<Integer> MAX_DELEGATION_ROUNDS = AGENT.add(Setting.positiveOrDefault(
            "lango.agent.max-delegation-rounds", 10,
            "Delegations of one run at most (multi-agent mode)."));
    public static final Setting<Boolean> ERROR_CORRECTION = AGENT.add(Setting.bool("lango.agent.error-correction", true,
            "A failed run with a confident learned fix is retried once with it."));
    public static final Setting<Duration> REQUEST_TIMEOUT = AGENT.add(Setting.duration("lango.agent.request-timeout",
            Duration.ofMinutes(5), Duration.ofSeconds(1), NO_MAX, "The longest one user turn may take, end to end."));
    public static final Setting<Duration> SHUTDOWN_GRACE = AGENT.add(Setting.duration("lango.agent.shutdown-grace",
            Duration.ofSeconds(30), Duration.ZERO, MAX_SHUTDOWN_GRACE,
            "On server stop, how long turns in flight may still run (new ones are refused); a turn still running"
                    + " then ends with an error stored in its session."));
    public static final Setting<Boolean> RESUME = AGENT.add(Setting.bool("lango.agent.resume", true,
            "A turn cut off by a crash (kill -9, a power cut) goes on by itself when its server starts again, or on"
                    + " another server of the cluster once its lease ran out: a model call is made again, a read-only tool"
                    + " call is run again, and any other call waits for a person; false: such a turn ends failed, saying so."));
    public static final Setting<Integer> RESUME_ATTEMPTS = AGENT.add(Setting.integer("lango.agent.resume-attempts", 3, 1, 100,
            "an integer from 1 to 100", "How many times one turn is resumed after crashes; past that it ends failed."));
    public static final Setting<Integer> TOKEN_BUDGET = AGENT.add(Setting.integer("lango.agent.token-budget", 0, 0,
            Integer.MAX_VALUE, "0 (derive from the model name) or a positive number of tokens",
            "The history a model request carries, in tokens; 0 derives it from the model's family (about half its"
                    + " context window)."));
    public static final Setting<Boolean> COMPACTION_ENABLED = AGENT.add(Setting.bool("lango.agent.compaction.enabled", true,
            "Long conversations: once a session's history passes the threshold of the token budget, its oldest part is"
                    + " folded into a summary the model reads instead (stored as an ADK compaction event; the original"
                    + " events stay); false: the history is only cut to the budget, oldest first."));
    public static final Setting<Double> COMPACTION_THRESHOLD = AGENT.add(Setting.fraction("lango.agent.compaction.threshold",
            0.7, "After a turn, the share of the token budget the next request may fill before its oldest part is folded"
                    + " into a summary (in the background); the request is measured by the prompt size the provider reported"
                    + " for the session's latest call, else by the history's estimate."));
    public static final Setting<Integer> COMPACTION_KEEP_RECENT_TURNS = AGENT.add(Setting.integer(
            "lango.agent.compaction.keep-recent-turns", 4, 1, 1000, "an integer from 1 to 1000",
            "The newest turns a compaction always keeps whole (never summarised)."));
    public static final Setting<Duration> COMPACTION_WAIT = AGENT.add(Setting.duration("lango.agent.compaction.wait",
            Duration.ofSeconds(30), Duration.ZERO, Duration.ofMinutes(10),
            "Before a turn whose history would not fit the token budget, how long it waits for its oldest part to be"
                    + " folded into a summary; past that (or at 0) the request is cut to the budget, that once."));
    public static final Setting<String> COMPACTION_MODEL = AGENT.add(Setting.text("lango.agent.compaction.model", null,
            "The model that writes the summary, through the agent's provider (unset: the agent's model).")
            .example("gpt-4o-mini"));
    public static final Setting<Integer> TOOL_IO_MAX_CHARS = AGENT.add(Setting.integer("lango.agent.tool-io-max-chars",
            16_000, 1000, 10_000_000, "an integer from 1000 to 10000000",
            "The most characters of one tool call's arguments, and of one tool result, that go into a model request;"
                    + " the rest is cut with a note saying so (the session keeps what it stored)."));

    // ---------------------------------------------------------------------------------------------
    public static final Group SESSIONS = new Group("Sessions", "How long sessions live and how servers share them.");

    public static final Setting<Duration> SESSION_TTL = SESSIONS.add(Setting.duration("lango.session.ttl", Duration.ZERO,
            Duration.ZERO, NO_MAX, "Renew an idle session empty after this long; PT0S = never."));
    public static final Setting<Duration> SESSION_LEASE_TIMEOUT = SESSIONS.add(Setting.duration(
            "lango.session.lease-timeout", Duration.ofSeconds(30), Duration.ofSeconds(1),
            Duration.ofMinutes(10), "Several servers on one PostgreSQL: how long a server that stopped answering"
                    + " (killed, cut off) keeps the session of the turn it was running before another may take it."));

    // ---------------------------------------------------------------------------------------------
    public static final Group TOOLS = new Group("Tools", "The built-in tools and where they may act.");

    public static final Setting<Path> TOOLS_WORKSPACE = TOOLS.add(Setting.path("lango.tools.workspace",
            "<data dir>/workspace", "The folder the file and exec tools are confined to. With authentication on, a user's"
                    + " tools work in users/<userId> under it (the operator's in it)."));
    public static final Setting<Boolean> EXEC_ENABLED = TOOLS.add(Setting.bool("lango.tools.exec.enabled", false,
            "The exec tool: shell commands in the workspace."));
    public static final Setting<Duration> EXEC_TIMEOUT = TOOLS.add(Setting.duration("lango.tools.exec.timeout",
            Duration.ofSeconds(60), Duration.ZERO, NO_MAX, "The longest one command may run (PT0S: the default)."));
    public static final Setting<List<String>> EXEC_ENV = TOOLS.add(Setting.list("lango.tools.exec.env",
            "a comma-separated list of environment variable names such as JAVA_HOME,GOPATH; never LANGO_* (the"
                    + " server's own keys and token)", name -> {
                if (!ENV_NAME.matcher(name).matches() || name.toUpperCase(Locale.ROOT).startsWith("LANGO_")) {
                    throw new IllegalArgumentException(name);
                }
                return name;
            }, "exec's commands get PATH, HOME (a fresh folder of the sandbox) and LANG only; the server's environment"
                    + " variables named here are passed too.").example("JAVA_HOME,GOPATH"));
    public static final Setting<String> EXEC_SANDBOX = TOOLS.add(Setting.choice("lango.tools.exec.sandbox", "bubblewrap",
            List.of("bubblewrap", "none"), "bubblewrap: every command runs in a sandbox of its own (its own processes, the"
                    + " system read-only, only the caller's workspace writable, no network unless lango.tools.exec.network);"
                    + " none: commands run as the server, seeing its files, processes and network (unsafe)."));
    public static final Setting<String> EXEC_BWRAP = TOOLS.add(Setting.text("lango.tools.exec.bwrap", null,
            "The bubblewrap binary (Debian's package bubblewrap). Unset: bwrap on the PATH.").example("/usr/bin/bwrap"));
    public static final Setting<Boolean> EXEC_NETWORK = TOOLS.add(Setting.bool("lango.tools.exec.network", false,
            "Whether commands in the sandbox reach the network; a secret may then go to exec only if its binding names"
                    + " the host *."));

    // ---------------------------------------------------------------------------------------------
    public static final Group ACCESS = new Group("Access", "Who may call, and what the edges let through.");

    public static final Setting<String> AUTH_TOKEN = ACCESS.add(Setting.secret("lango.auth.token",
            "A token every endpoint but /health, /openapi and the agent card requires (Authorization: Bearer …;"
                    + " on /ws the auth frame); needed to bind beyond loopback."));
    public static final Setting<List<String>> ALLOWED_ORIGINS = ACCESS.add(Setting.list("lango.http.allowed-origins",
            "a comma-separated list of origins such as https://chat.example.com, or *", origin -> {
                if (!origin.equals("*") && !origin.startsWith("http://") && !origin.startsWith("https://")) {
                    throw new IllegalArgumentException(origin);
                }
                return origin.replaceAll("/+$", "");
            }, "Origins besides the server's own whose pages may open /ws and /mcp and send requests that change state, or *."));
    public static final Setting<List<String>> ALLOWED_HOSTS = ACCESS.add(Setting.list("lango.http.allowed-hosts",
            "a comma-separated list of host names or addresses without a port, such as chat.example.com,192.0.2.10,"
                    + " or *", host -> {
                String h = host.toLowerCase(Locale.ROOT);
                if (!h.equals("*") && !HOST_NAME.matcher(h).matches()) {
                    throw new IllegalArgumentException(host);
                }
                return h;
            }, "Host names the server answers to besides localhost, 127.x.x.x, [::1] and the bound interface; other"
                    + " Host headers get 403 (DNS rebinding).").example("chat.example.com"));
    public static final Setting<Long> MAX_BODY = ACCESS.add(Setting.size("lango.http.max-body",
            1024 * 1024, 1024, 1024L * 1024 * 1024, "1MiB",
            "The largest request body on /api; larger is 413."));
    public static final Setting<String> JWT_ISSUER = ACCESS.add(Setting.text("lango.auth.jwt.issuer", null,
            "Accept JWTs from the team's identity provider: the issuer (iss) they must name. With this set, callers"
                    + " are told apart by JWTs (and by API tokens issued with POST /api/admin/users).")
            .example("https://login.example.com/realms/team"));
    public static final Setting<String> JWT_PUBLIC_KEY = ACCESS.add(Setting.text("lango.auth.jwt.public-key", null,
            "The key that signs the JWTs: a PEM public key (RSA or EC) or a JWK set as JSON; or give lango.auth.jwt.jwks-url."));
    public static final Setting<String> JWT_JWKS_URL = ACCESS.add(Setting.text("lango.auth.jwt.jwks-url", null,
            "Where the identity provider publishes its signing keys (a JWK set), fetched and cached.")
            .example("https://login.example.com/realms/team/protocol/openid-connect/certs"));
    public static final Setting<String> JWT_AUDIENCE = ACCESS.add(Setting.text("lango.auth.jwt.audience", null,
            "The audience (aud) a JWT must name; unset: any.").example("lango"));
    public static final Setting<String> JWT_ADMIN_GROUP = ACCESS.add(Setting.text("lango.auth.jwt.admin-group", "admin",
            "Members of this group (the JWT's groups claim) administer the server."));
    public static final Setting<Boolean> JWT_LINK_TOKEN_USERS = ACCESS.add(Setting.bool("lango.auth.jwt.link-token-users",
            false, "Whether a JWT whose user has the name of a user with an issued API token is that same person (their"
                    + " sessions and data are one). false: a name belongs to one kind of credential; the first that uses it"
                    + " keeps it, a JWT for a token user's name is refused and no token is issued for a JWT user's name."));
    public static final Setting<Duration> WS_AUTH_TIMEOUT = ACCESS.add(Setting.duration("lango.ws.auth-timeout",
            Duration.ofSeconds(10), Duration.ofMillis(1), NO_MAX,
            "With a token: how long /ws waits for the auth frame before it closes the socket."));

    // ---------------------------------------------------------------------------------------------
    public static final Group APPROVAL = new Group("Approval",
            "Which tool calls wait for a person's decision. Every tool declares its safety: safe (reading, the agent's own"
                    + " knowledge and memory), moderate (writing files), dangerous (deleting, exec).");

    public static final Setting<String> APPROVAL_POLICY = APPROVAL.add(Setting.choice("lango.security.approval.policy",
            "dangerous", List.of("dangerous", "all", "configured", "none"),
            "dangerous: calls of dangerous tools ask; all: every call asks; configured: only the sensitive tools ask;"
                    + " none: nothing asks (logged as a warning at start when exec is enabled)."));
    public static final Setting<List<String>> APPROVAL_SENSITIVE = APPROVAL.add(Setting.list(
            "lango.security.approval.sensitive-tools", "a comma-separated list of tool names", name -> name,
            "Tools that always ask, whatever the policy (but none).").example("fs_write,fs_edit"));
    public static final Setting<List<String>> APPROVAL_EXEMPT = APPROVAL.add(Setting.list(
            "lango.security.approval.exempt-tools", "a comma-separated list of tool names", name -> name,
            "Tools that never ask.").example("fs_mkdir"));
    public static final Setting<Duration> APPROVAL_TIMEOUT = APPROVAL.add(Setting.duration("lango.security.approval.timeout",
            Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofDays(1),
            "How long a request for approval waits; unanswered, it counts as denied (expired) and the model is told."));

    // ---------------------------------------------------------------------------------------------
    public static final Group VAULT = new Group("Secrets",
            "The vault: secrets and keys kept encrypted in the database, used by tools as {{secret:NAME}} and masked"
                    + " as [SECRET:NAME] in everything that leaves the server.");

    public static final Setting<String> PASSPHRASE = VAULT.add(Setting.secret("lango.security.passphrase",
            "The passphrase whose key (PBKDF2-HMAC-SHA256, 600,000 iterations) seals the vault's data key. Unset: a random"
                    + " key file, <data dir>/vault.key, does (back it up). Several servers on one database need the same one."));
    public static final Setting<String> PASSPHRASE_FILE = VAULT.add(Setting.text("lango.security.passphrase-file", null,
            "A file holding the passphrase (its first line), instead of " + "lango.security.passphrase.")
            .example("/run/secrets/lango-passphrase"));
    public static final Setting<Boolean> SECRETS_TOOLS = VAULT.add(Setting.bool("lango.tools.secrets.enabled", true,
            "The secrets_ tools: the model stores, lists and deletes its user's secrets, and uses them by reference."));
    public static final Setting<Boolean> CRYPTO_TOOLS = VAULT.add(Setting.bool("lango.tools.crypto.enabled", false,
            "The crypto_ tools: keys kept in the vault, encryption, signatures and hashes."));

    // ---------------------------------------------------------------------------------------------
    public static final Group SKILLS = new Group("Skills",
            "Skills in the Agent Skills format: a folder per skill with a SKILL.md, read at every turn.");

    public static final Setting<Boolean> SKILLS_ENABLED = SKILLS.add(Setting.bool("lango.skills.enabled", true,
            "The skill tools (list_skills, load_skill, load_skill_resource, create_skill, import_skill) and the Skills"
                    + " section of the prompt."));
    public static final Setting<Path> SKILLS_DIR = SKILLS.add(Setting.path("lango.skills.dir", "<data dir>/skills",
            "The folder of skills: one folder per skill, named as the skill, holding its SKILL.md."));
    public static final Setting<Integer> SKILLS_PROMPT_BUDGET = SKILLS.add(Setting.integer("lango.skills.prompt-budget", 1000,
            0, 100_000, "an integer number of tokens", "The most tokens the skills' names and descriptions take in the prompt."));

    // ---------------------------------------------------------------------------------------------
    public static final Group MCP = new Group("MCP",
            "The Model Context Protocol both ways: the tools of the MCP servers a file names, and Lango as an MCP server at /mcp.");

    public static final Setting<Path> MCP_CONFIG = MCP.add(Setting.path("lango.mcp.config", "<data dir>/mcp.json",
            "The mcpServers file (the format Claude Desktop, Cursor and VS Code share): each server's tools are offered to"
                    + " the agent as mcp_<server>_<tool>. Read again when it changes; no file: no servers."));
    public static final Setting<Duration> MCP_CALL_TIMEOUT = MCP.add(Setting.duration("lango.mcp.call-timeout",
            Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(1),
            "The longest one call of an MCP server's tool may take; then it is cancelled on the server and is a tool error."));
    public static final Setting<Duration> MCP_START_WAIT = MCP.add(Setting.duration("lango.mcp.start-wait",
            Duration.ofSeconds(10), Duration.ZERO, Duration.ofMinutes(5),
            "How long a turn that starts while an MCP server it may use is still starting waits for it (then it goes on"
                    + " without that server's tools)."));
    public static final Setting<Integer> MCP_START_ATTEMPTS = MCP.add(Setting.integer("lango.mcp.start-attempts", 7, 1, 100,
            "an integer from 1 to 100", "How many times in a row an MCP server may fail to start (pauses of 1, 2, 4 … up"
                    + " to 32 s between them) before it stays failed until an admin starts it again or its entry changes."));
    public static final Setting<Boolean> MCP_SERVER_ENABLED = MCP.add(Setting.bool("lango.mcp.server.enabled", true,
            "Serve Lango's agent as an MCP server at /mcp (streamable HTTP), to the same callers and credentials as /api."));

    // ---------------------------------------------------------------------------------------------
    public static final Group BROWSER = new Group("Browser",
            "The browser_ tools: a headless Chromium the agent reads and acts on web pages with, one context per session,"
                    + " kept off this machine and its private networks.");

    public static final Setting<Boolean> BROWSER_ENABLED = BROWSER.add(Setting.bool("lango.tools.browser.enabled", false,
            "The browser_ tools (navigate, snapshot, click, type, press_key, select_option, wait_for, screenshot, back,"
                    + " close). Needs a Chromium and Node.js on the machine; nothing is downloaded."));
    public static final Setting<String> BROWSER_EXECUTABLE = BROWSER.add(Setting.text("lango.tools.browser.executable", null,
            "The Chromium or Chrome binary. Unset: the first of /usr/bin/chromium, /usr/bin/chromium-browser,"
                    + " /usr/bin/google-chrome, /usr/bin/google-chrome-stable that exists.").example("/opt/chrome/chrome"));
    public static final Setting<String> BROWSER_NODE = BROWSER.add(Setting.text("lango.tools.browser.node", null,
            "The Node.js binary (18 or later) that runs Playwright's driver. Unset: node on the PATH.")
            .example("/usr/local/bin/node"));
    public static final Setting<Duration> BROWSER_SESSION_TIMEOUT = BROWSER.add(Setting.duration(
            "lango.tools.browser.session-timeout", Duration.ofMinutes(10), Duration.ofSeconds(1), null,
            "A session's browser context (its pages, cookies and storage) is closed after this long unused; the browser"
                    + " itself when no context is left."));
    public static final Setting<Integer> BROWSER_MAX_CONTEXTS = BROWSER.add(Setting.integer("lango.tools.browser.max-contexts",
            8, 1, 1000, "an integer from 1 to 1000", "Sessions with a browser context at once; one more closes the least"
                    + " recently used (it reopens its last page when used again)."));
    public static final Setting<List<String>> BROWSER_ALLOWED_HOSTS = BROWSER.add(Setting.list(
            "lango.tools.browser.allowed-hosts", "a comma-separated list of host names or addresses, each with an optional"
                    + " :port, or *.domain", Keys::browserHost,
            "Hosts the browser may open although they are on this machine or a private network (loopback, private,"
                    + " link-local, unique local). Everything else public is open.").example("intranet.example.com,10.0.0.5:8080"));
    public static final Setting<List<String>> BROWSER_BLOCKED_HOSTS = BROWSER.add(Setting.list(
            "lango.tools.browser.blocked-hosts", "a comma-separated list of host names or addresses, each with an optional"
                    + " :port, or *.domain", Keys::browserHost, "Hosts the browser never opens, public or not.")
            .example("*.tracker.example,203.0.113.7"));
    public static final Setting<Integer> BROWSER_SNAPSHOT_MAX_CHARS = BROWSER.add(Setting.integer(
            "lango.tools.browser.snapshot-max-chars", 12_000, 500, 1_000_000, "an integer from 500 to 1000000",
            "The most characters of a page snapshot a tool result carries (about a quarter as many tokens); a longer one"
                    + " is cut, with a note on reading one part by its ref or a CSS selector."));
    public static final Setting<Duration> BROWSER_TIMEOUT = BROWSER.add(Setting.duration("lango.tools.browser.timeout",
            Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(10),
            "The longest one browser action (a navigation, a click, a wait) may take; a browser that does not answer in"
                    + " twice this is restarted."));

    // ---------------------------------------------------------------------------------------------
    public static final Group PAYMENT = new Group("Payments",
            "The payment_ tools: USDC on an EVM chain (Base Sepolia by default) from a wallet kept in the vault, held to"
                    + " limits in code; x402 for HTTP resources that ask to be paid.");

    public static final Setting<Boolean> PAYMENT_ENABLED = PAYMENT.add(Setting.bool("lango.payment.enabled", false,
            "The payment_ tools. Needs lango.payment.rpc-url."));
    public static final Setting<String> PAYMENT_RPC_URL = PAYMENT.add(Setting.secret("lango.payment.rpc-url",
            "The chain's JSON-RPC endpoint (http or https), required when payments are on; often holds an API key, so it is"
                    + " never shown.").example("https://sepolia.base.org"));
    public static final Setting<Integer> PAYMENT_CHAIN_ID = PAYMENT.add(Setting.integer("lango.payment.chain-id", 84532, 1,
            Integer.MAX_VALUE, "a chain id such as 84532 (Base Sepolia) or 8453 (Base)", "The chain the wallet pays on;"
                    + " the RPC endpoint must serve it."));
    public static final Setting<String> PAYMENT_USDC_CONTRACT = PAYMENT.add(Setting.text("lango.payment.usdc-contract", null,
            "USDC's contract on that chain. Unset: Circle's on Base Sepolia (0x036CbD53842c5426634e7929541eC2318f3dCF7e)"
                    + " or Base (0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913); required on another chain."));
    public static final Setting<BigDecimal> PAYMENT_MAX_PER_TX = PAYMENT.add(Setting.decimal("lango.payment.limits.max-per-tx",
            "1.00", "The most one payment may be, in USDC; more is refused."));
    public static final Setting<BigDecimal> PAYMENT_MAX_DAILY = PAYMENT.add(Setting.decimal("lango.payment.limits.max-daily",
            "10.00", "The most all payments of a day (UTC) may add up to, sent and in flight, across restarts and servers."));
    public static final Setting<BigDecimal> PAYMENT_AUTO_APPROVE_BELOW = PAYMENT.add(Setting.decimal(
            "lango.payment.limits.auto-approve-below", "0.10", "A payment_send of this much or more waits for a person's"
                    + " approval whatever the approval policy says; less runs on its own."));
    public static final Setting<Boolean> PAYMENT_X402_ENABLED = PAYMENT.add(Setting.bool("lango.payment.x402.enabled", false,
            "payment_x402_fetch: fetches a URL and pays what its HTTP 402 asks (x402 v2, scheme exact)."));
    public static final Setting<BigDecimal> PAYMENT_X402_MAX_AUTO_PAY = PAYMENT.add(Setting.decimal(
            "lango.payment.x402.max-auto-pay", "0.50", "An x402 payment up to this much runs on its own; more waits for a"
                    + " person's approval. Always within the day's limit."));

    // ---------------------------------------------------------------------------------------------
    public static final Group QUOTAS = new Group("Quotas",
            "Limits per user, for users who do not administer (administrators and the operator have none); 0: no limit."
                    + " Rates and concurrent turns are counted per server.");

    public static final Setting<Integer> QUOTA_SESSIONS = QUOTAS.add(Setting.integer("lango.quota.sessions-per-user",
            1000, 0, Integer.MAX_VALUE, "an integer, 0 for no limit",
            "Sessions one user may have; a new one beyond is 429 quota_exceeded."));
    public static final Setting<Integer> QUOTA_REQUESTS = QUOTAS.add(Setting.integer("lango.quota.requests-per-minute",
            600, 0, Integer.MAX_VALUE, "an integer, 0 for no limit",
            "Requests to /api and /ws frames one user may send per minute; more is 429 rate_limited with Retry-After."));
    public static final Setting<Integer> QUOTA_TURNS = QUOTAS.add(Setting.integer("lango.quota.concurrent-turns",
            4, 0, Integer.MAX_VALUE, "an integer, 0 for no limit",
            "Turns of one user running at once; another is 429 too_many_turns with Retry-After."));
    public static final Setting<Long> QUOTA_STATE = QUOTAS.add(Setting.size("lango.quota.session-state-max",
            64L * 1024, 1024, 1024L * 1024 * 1024, "64KiB",
            "The largest state (as JSON) a user may give a session they create; larger is 413 state_too_large."));

    public static final Setting<Integer> QUOTA_TOKENS_PER_DAY = QUOTAS.add(Setting.integer("lango.quota.tokens-per-day",
            0, 0, Integer.MAX_VALUE, "an integer, 0 for no limit",
            "Model tokens (input and output, the background calls for the user's sessions included) one user may spend per"
                    + " day (UTC); a turn beyond is 429 budget_exceeded, refused before the model is called. Per user"
                    + " through /api/admin/users."));
    public static final Setting<java.math.BigDecimal> QUOTA_COST_PER_DAY = QUOTAS.add(Setting.decimal("lango.quota.cost-per-day",
            "0", "US dollars (by lango.pricing) one user's model calls may cost per day (UTC); 0 for no limit."));
    public static final Setting<java.math.BigDecimal> QUOTA_COST_PER_MONTH = QUOTAS.add(Setting.decimal(
            "lango.quota.cost-per-month", "0", "US dollars one user's model calls may cost per calendar month (UTC); 0 for"
                    + " no limit."));
    public static final Setting<Boolean> QUOTA_ADMINS = QUOTAS.add(Setting.bool("lango.quota.admins", false,
            "Whether the token and cost budgets bind administrators too (the other quotas never do)."));

    // ---------------------------------------------------------------------------------------------
    public static final Group PRICING = new Group("Pricing",
            "What model calls cost, in US dollars per million tokens, for usage and the cost budgets: built-in estimates for"
                    + " common models (docs/operations.md lists them), overridden or added per model (<id>: the model name"
                    + " as lango.model names it, e.g. lango.pricing.gpt-4o-mini.input; a longer name such as a dated"
                    + " version takes the price of its longest known prefix). A model without a price costs 0, said so.");

    public static final Setting<java.math.BigDecimal> PRICE_INPUT = PRICING.add(Setting.decimal("lango.pricing.<id>.input",
            "0", "USD per million input tokens of model <id>.").example("0.15"));
    public static final Setting<java.math.BigDecimal> PRICE_OUTPUT = PRICING.add(Setting.decimal("lango.pricing.<id>.output",
            "0", "USD per million output tokens of model <id>.").example("0.60"));
    public static final Setting<java.math.BigDecimal> PRICE_CACHED = PRICING.add(Setting.decimal("lango.pricing.<id>.cached",
            "0", "USD per million cached input tokens of model <id> (the input price when unset).").example("0.075"));

    // ---------------------------------------------------------------------------------------------
    public static final Group TELEMETRY = new Group("Telemetry",
            "Traces and metrics in OpenTelemetry's GenAI conventions, exported by Liberty's mpTelemetry when the standard"
                    + " variables turn it on (OTEL_SDK_DISABLED=false, OTEL_EXPORTER_OTLP_ENDPOINT, …; docs/operations.md).");

    public static final Setting<Boolean> TELEMETRY_CAPTURE_CONTENT = TELEMETRY.add(Setting.bool("lango.telemetry.capture-content",
            false, "Whether spans carry the messages a model is sent and answers, and tools' arguments and results (masked);"
                    + " off, no conversation text leaves in a trace."));

    // ---------------------------------------------------------------------------------------------
    public static final Group EVAL = new Group("Evaluation",
            "Eval sets (ADK's *.evalset.json format) replayed against the agent as configured now: from ADK's dev UI,"
                    + " /api/eval and CI (docs/evaluation.md).");

    public static final Setting<Path> EVAL_DIR = EVAL.add(Setting.path("lango.eval.dir", "<data dir>/evals",
            "The folder of shared eval sets: every *.evalset.json (and ADK's older *.test.json) in it is loaded when it"
                    + " changes, and a shared set changed through the API is written back to <set id>.evalset.json."));
    public static final Setting<Duration> EVAL_TIMEOUT = EVAL.add(Setting.duration("lango.eval.timeout",
            Duration.ofMinutes(30), Duration.ofSeconds(1), NO_MAX, "The longest one run of an eval set may take; cases not reached by then are not"
                    + " evaluated (each turn is bounded by lango.agent.request-timeout as well)."));
    public static final Setting<Integer> EVAL_MAX_RUNS = EVAL.add(Setting.integer("lango.eval.max-runs", 2, 1, 64,
            "an integer from 1 to 64", "How many eval runs one server runs at once; one more is refused (429)."));

    // ---------------------------------------------------------------------------------------------
    public static final Group SCHEDULES = new Group("Schedules",
            "Scheduled turns: a user's message run in their session at cron, every or at times, once per time across"
                    + " servers (docs/api.md, docs/scale-out.md).");

    public static final Setting<Boolean> SCHEDULES_ENABLED = SCHEDULES.add(Setting.bool("lango.schedules.enabled", true,
            "Whether schedules may be made (/api/schedules, the schedule_* tools) and fire; off, none fires and the API"
                    + " answers 404."));
    public static final Setting<Integer> SCHEDULES_MAX_PER_USER = SCHEDULES.add(Setting.integer("lango.schedules.max-per-user",
            20, 1, 10_000, "an integer from 1 to 10000", "How many schedules one user may have; one more is refused (409)."));
    public static final Setting<Duration> SCHEDULES_MIN_INTERVAL = SCHEDULES.add(Setting.duration(
            "lango.schedules.min-interval", Duration.ofMinutes(1), Duration.ofSeconds(1), NO_MAX,
            "The shortest time between two fires a schedule may have (its every, or its cron's closest times)."));
    public static final Setting<Duration> SCHEDULES_MISSED_GRACE = SCHEDULES.add(Setting.duration(
            "lango.schedules.missed-grace", Duration.ofHours(1), Duration.ZERO, NO_MAX,
            "A fire missed while no server ran (or none could) still runs once when a server starts if it came due at"
                    + " most this long ago; an older one is skipped (recorded) and the schedule goes on at its next time."));

    // ---------------------------------------------------------------------------------------------
    public static final Group A2A = new Group("A2A", "The agent-to-agent protocol, both ways.");

    public static final Setting<Boolean> A2A_ENABLED = A2A.add(Setting.bool("lango.a2a.enabled", false,
            "Serve this agent's card at /.well-known/agent.json and the JSON-RPC endpoint POST /api/a2a."));
    public static final Setting<Integer> A2A_TASKS_PER_USER = A2A.add(Setting.integer("lango.a2a.tasks-per-user", 1000, 1,
            Integer.MAX_VALUE, "an integer of 1 or more", "The A2A tasks kept per user: as a new task starts beyond it,"
                    + " the user's finished tasks that changed longest ago are deleted (their conversation stays in its"
                    + " session); tasks still working or waiting for input are kept."));
    public static final Setting<String> A2A_REMOTE_AGENTS = A2A.add(Setting.text("lango.a2a.remote-agents", null,
            "Remote A2A agents the orchestrator may delegate to, as comma-separated name=agentCardUrl pairs (names of"
                    + " letters, digits, '-' and '_').")
            .example("helper=http://127.0.0.1:9090/.well-known/agent.json"));

    // ---------------------------------------------------------------------------------------------
    public static final Group MEMORY = new Group("Memory",
            "Observational memory: after each turn, off the request path, the session's messages not yet observed"
                    + " are compressed into an observation once they reach the observation threshold (tokens);"
                    + " observations into a reflection at the reflection threshold; and that many reflections into"
                    + " one of the next generation. The observer and reflector use lango.memory.provider/model when"
                    + " set, else the agent's.");

    public static final Setting<Boolean> MEMORY_ENABLED = MEMORY.add(Setting.bool("lango.memory.enabled", false,
            "Observational memory and its prompt section."));
    public static final Setting<String> MEMORY_PROVIDER = MEMORY.add(Setting.choice("lango.memory.provider", null,
            ProviderCatalog.IDS, "The observer's and reflector's provider (unset: the agent's).").example("openai"));
    public static final Setting<String> MEMORY_MODEL = MEMORY.add(Setting.text("lango.memory.model", null,
            "The observer's and reflector's model (unset: the agent's).").example("gpt-4o-mini"));
    public static final Setting<Integer> MEMORY_OBSERVATION_THRESHOLD = MEMORY.add(Setting.integer(
            "lango.memory.observation-threshold", 1000, 1,
            Integer.MAX_VALUE, "a positive number of tokens", "Unobserved messages (tokens) that make an observation."));
    public static final Setting<Integer> MEMORY_REFLECTION_THRESHOLD = MEMORY.add(Setting.integer(
            "lango.memory.reflection-threshold", 2000, 1,
            Integer.MAX_VALUE, "a positive number of tokens", "Observations (tokens) that make a reflection."));
    public static final Setting<Integer> MEMORY_META_REFLECTION_THRESHOLD = MEMORY.add(Setting.positiveOrDefault(
            "lango.memory.meta-reflection-threshold", 5,
            "Reflections that make one of the next generation."));
    public static final Setting<Integer> MEMORY_TOKEN_BUDGET = MEMORY.add(Setting.integer("lango.memory.token-budget",
            4000, 1, Integer.MAX_VALUE, "a positive number of tokens",
            "The memory section of the system prompt keeps within this many tokens."));

    // ---------------------------------------------------------------------------------------------
    public static final Group KNOWLEDGE = new Group("Knowledge and learning",
            "save_knowledge/search_knowledge, the learning engine (fixes learned from tool errors) and its tools, the"
                    + " User Knowledge and Known Solutions prompt sections, and self-correction's learned fixes.");

    public static final Setting<Boolean> KNOWLEDGE_ENABLED = KNOWLEDGE.add(Setting.bool("lango.knowledge.enabled", null,
            "Knowledge and learning; on by default once a model is configured.").shown("true with a model")
            .example("true"));
    public static final Setting<Integer> KNOWLEDGE_CONTEXT_BUDGET = KNOWLEDGE.add(Setting.integer(
            "lango.knowledge.context-budget", 1000, 1, Integer.MAX_VALUE,
            "a positive number of tokens", "Each of their prompt sections keeps within this many tokens."));
    public static final Setting<Integer> KNOWLEDGE_MAX_ENTRY_CHARS = KNOWLEDGE.add(Setting.integer(
            "lango.knowledge.max-entry-chars", 10_000, 100, 1_000_000,
            "an integer from 100 to 1000000", "The longest knowledge entry or learning (characters); save_knowledge"
                    + " refuses a longer one with an error naming this limit."));

    // ---------------------------------------------------------------------------------------------
    public static final Group RETRIEVAL = new Group("Retrieval and the knowledge graph",
            "What is stored (knowledge, learnings, observations, reflections) is embedded off the request path and"
                    + " searched by meaning and keywords (rag_retrieve). Changing the model re-embeds everything at"
                    + " the next start.");

    public static final Setting<String> EMBEDDING_PROVIDER = RETRIEVAL.add(Setting.choice("lango.embedding.provider",
            EMBEDDING_LOCAL, List.of(EMBEDDING_LOCAL, "openai", "gemini", "ollama"), "local = all-MiniLM-L6-v2 in the server,"
                    + " no network; openai, gemini and ollama use lango.providers.<id>.base-url and api-key."));
    public static final Setting<String> EMBEDDING_MODEL = RETRIEVAL.add(Setting.text("lango.embedding.model", null,
            "The embedding model (unset: the provider's default).").example("text-embedding-3-small"));
    public static final Setting<Boolean> EMBEDDING_RAG_ENABLED = RETRIEVAL.add(Setting.bool("lango.embedding.rag.enabled",
            false, "A Semantic Context (RAG) section in every turn's system prompt."));
    public static final Setting<Boolean> GRAPH_ENABLED = RETRIEVAL.add(Setting.bool("lango.graph.enabled", false,
            "The knowledge graph: triples from saved knowledge and memory, graph_query/graph_traverse, and a"
                    + " Graph-Expanded Context section."));

    private static boolean httpUrl(String url) {
        return url.startsWith("http://") || url.startsWith("https://");
    }

    private static String browserHost(String host) {
        HostRule.problem(host).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        return host.toLowerCase(Locale.ROOT);
    }
}
