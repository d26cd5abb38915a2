package ai.lango.config;

import ai.lango.config.LangoSettings.DbKind;
import ai.lango.provider.ProviderCatalog;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Turns raw configuration strings into {@link LangoSettings}. Pure: the lookup function is the
 * only input, so every rule is unit-tested without a server. The first invalid value stops the
 * start with one message naming the key, the value and what is accepted.
 */
public final class SettingsParser {

    public static final String HTTP_PORT = "lango.http.port";
    public static final String HTTP_HOST = "lango.http.host";
    public static final String DATA_DIR = "lango.data.dir";
    public static final String DB_KIND = "lango.db.kind";
    public static final String DB_URL = "lango.db.url";
    /** The embedded database of earlier versions, refused by name with what to do instead. */
    static final String RETIRED_EMBEDDED = "h2";
    public static final String DB_USER = "lango.db.user";
    public static final String DB_PASSWORD = "lango.db.password";
    public static final String MODEL = "lango.model";
    public static final String TOKEN_BUDGET = "lango.agent.token-budget";
    public static final String SESSION_TTL = "lango.session.ttl";
    public static final String SESSION_LEASE_TIMEOUT = "lango.session.lease-timeout";
    public static final String PROVIDER = "lango.provider";
    public static final String MULTI_AGENT = "lango.agent.multi-agent";
    public static final String MAX_TURNS = "lango.agent.max-turns";
    public static final String MAX_DELEGATION_ROUNDS = "lango.agent.max-delegation-rounds";
    public static final String ERROR_CORRECTION = "lango.agent.error-correction";
    public static final String REQUEST_TIMEOUT = "lango.agent.request-timeout";
    public static final String SHUTDOWN_GRACE = "lango.agent.shutdown-grace";
    /** Liberty waits this long for the application to stop (applicationManager stopTimeout in server.xml is above it). */
    static final Duration MAX_SHUTDOWN_GRACE = Duration.ofMinutes(5);
    public static final String TOOLS_WORKSPACE = "lango.tools.workspace";
    public static final String EXEC_ENABLED = "lango.tools.exec.enabled";
    public static final String EXEC_TIMEOUT = "lango.tools.exec.timeout";
    public static final String EXEC_ENV = "lango.tools.exec.env";
    public static final String MAX_BODY = "lango.http.max-body";
    public static final String ALLOWED_HOSTS = "lango.http.allowed-hosts";
    public static final String WS_AUTH_TIMEOUT = "lango.ws.auth-timeout";
    public static final String AUTH_TOKEN = "lango.auth.token";
    public static final String ALLOWED_ORIGINS = "lango.http.allowed-origins";
    public static final String A2A_ENABLED = "lango.a2a.enabled";
    public static final String A2A_REMOTE_AGENTS = "lango.a2a.remote-agents";
    public static final String MEMORY_ENABLED = "lango.memory.enabled";
    public static final String MEMORY_PROVIDER = "lango.memory.provider";
    public static final String MEMORY_MODEL = "lango.memory.model";
    public static final String MEMORY_OBSERVATION_THRESHOLD = "lango.memory.observation-threshold";
    public static final String MEMORY_REFLECTION_THRESHOLD = "lango.memory.reflection-threshold";
    public static final String MEMORY_META_REFLECTION_THRESHOLD = "lango.memory.meta-reflection-threshold";
    public static final String MEMORY_TOKEN_BUDGET = "lango.memory.token-budget";
    public static final String KNOWLEDGE_ENABLED = "lango.knowledge.enabled";
    public static final String KNOWLEDGE_CONTEXT_BUDGET = "lango.knowledge.context-budget";
    public static final String EMBEDDING_PROVIDER = "lango.embedding.provider";
    public static final String EMBEDDING_MODEL = "lango.embedding.model";
    public static final String EMBEDDING_RAG_ENABLED = "lango.embedding.rag.enabled";
    public static final String GRAPH_ENABLED = "lango.graph.enabled";

    /** The providers lango.provider accepts. */
    public static final int DEFAULT_MAX_TURNS = 25;
    public static final int DEFAULT_MAX_DELEGATION_ROUNDS = 10;

    public static final int DEFAULT_HTTP_PORT = 9080;
    public static final String DEFAULT_HTTP_HOST = "localhost";

    /** An environment variable's name. */
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** A host name or address as a Host header carries it, without the port. */
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(|B|KiB|MiB)", Pattern.CASE_INSENSITIVE);

    /** What an agent name may be: an ADK agent identifier. */
    private static final Pattern AGENT_NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final String REMOTE_AGENT_EXAMPLE = "helper=http://127.0.0.1:9090/.well-known/agent.json";

    private final Function<String, Optional<String>> lookup;
    private final Path home;

    /**
     * @param lookup raw value of a key, empty when unset
     * @param home   the user's home directory, for the default data directory
     */
    public SettingsParser(Function<String, Optional<String>> lookup, Path home) {
        this.lookup = lookup;
        this.home = home;
    }

    public LangoSettings parse() {
        int port = integer(HTTP_PORT, DEFAULT_HTTP_PORT, 1, 65535, "an integer from 1 to 65535");
        String host = value(HTTP_HOST).orElse(DEFAULT_HTTP_HOST);
        Optional<String> token = value(AUTH_TOKEN);
        if (!isLoopback(host) && token.isEmpty()) {
            throw new UnsafeBindingException(HTTP_HOST + " is \"" + host + "\", which is reachable from other machines,"
                    + " but " + AUTH_TOKEN + " is not set; set a token, or bind to localhost");
        }
        Path dataDir = dataDir();
        DbKind kind = dbKind();
        Optional<String> url = value(DB_URL);
        if (kind == DbKind.POSTGRESQL) {
            String jdbc = url.orElseThrow(() -> invalid(DB_URL, null,
                    "a jdbc:postgresql:// URL (required when " + DB_KIND + "=postgresql)"));
            if (!jdbc.startsWith("jdbc:postgresql:")) {
                throw invalid(DB_URL, Redaction.jdbcUrl(jdbc), "a URL starting with jdbc:postgresql:");
            }
        }
        int budget = integer(TOKEN_BUDGET, 0, 0, Integer.MAX_VALUE,
                "0 (derive from the model name) or a positive number of tokens");
        Duration ttl = duration(SESSION_TTL, Duration.ZERO);
        LangoSettings.Model model = new LangoSettings.Model(provider(), value(MODEL));
        return new LangoSettings(new LangoSettings.Http(port, host),
                new LangoSettings.Database(dataDir, kind, url, value(DB_USER), value(DB_PASSWORD)),
                model, new LangoSettings.Sessions(ttl, budget, leaseTimeout()),
                agentLimits(), tools(dataDir),
                new LangoSettings.Access(token, origins(), hosts(), maxBody(),
                        duration(WS_AUTH_TIMEOUT, LangoSettings.Access.DEFAULT_AUTH_TIMEOUT, true)), a2a(), memory(),
                knowledge(model), retrieval());
    }

    /** localhost, 127.0.0.0/8 and ::1: the interfaces only this machine reaches. */
    static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]");
    }

    private List<String> origins() {
        List<String> origins = new java.util.ArrayList<>();
        for (String origin : value(ALLOWED_ORIGINS).orElse("").split(",")) {
            String o = origin.trim();
            if (o.isEmpty()) {
                continue;
            }
            if (!o.equals("*") && !o.startsWith("http://") && !o.startsWith("https://")) {
                throw invalid(ALLOWED_ORIGINS, o, "a comma-separated list of origins such as https://chat.example.com, or *");
            }
            origins.add(o.replaceAll("/+$", ""));
        }
        return List.copyOf(origins);
    }

    /** lango.http.allowed-hosts: Host names (no port) HTTP and /ws answer to besides the loopback names, or *. */
    private List<String> hosts() {
        List<String> hosts = new java.util.ArrayList<>();
        for (String host : value(ALLOWED_HOSTS).orElse("").split(",")) {
            String h = host.trim().toLowerCase(Locale.ROOT);
            if (h.isEmpty()) {
                continue;
            }
            if (!h.equals("*") && !HOST_NAME.matcher(h).matches()) {
                throw invalid(ALLOWED_HOSTS, host.trim(), "a comma-separated list of host names or addresses without"
                        + " a port, such as chat.example.com,192.0.2.10, or *");
            }
            hosts.add(h);
        }
        return List.copyOf(hosts);
    }

    /** lango.http.max-body: bytes, or with KiB or MiB. */
    private long maxBody() {
        Optional<String> raw = value(MAX_BODY);
        if (raw.isEmpty()) {
            return LangoSettings.Access.DEFAULT_MAX_BODY;
        }
        String accepted = "a size from 1KiB to 1024MiB, in bytes or with KiB or MiB, such as 1048576 or 1MiB";
        java.util.regex.Matcher size = SIZE.matcher(raw.get());
        if (!size.matches()) {
            throw invalid(MAX_BODY, raw.get(), accepted);
        }
        long bytes;
        try {
            bytes = Long.parseLong(size.group(1)) * switch (size.group(2).toLowerCase(Locale.ROOT)) {
                case "kib" -> 1024L;
                case "mib" -> 1024L * 1024;
                default -> 1L;
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid(MAX_BODY, raw.get(), accepted);
        }
        if (bytes < 1024 || bytes > 1024L * 1024 * 1024) {
            throw invalid(MAX_BODY, raw.get(), accepted);
        }
        return bytes;
    }

    /** lango.a2a.*: whether this server speaks A2A, and the remote agents by name, in the order given. */
    private LangoSettings.A2a a2a() {
        Map<String, URI> remote = new LinkedHashMap<>();
        for (String entry : value(A2A_REMOTE_AGENTS).orElse("").split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int eq = e.indexOf('=');
            if (eq < 0) {
                throw invalid(A2A_REMOTE_AGENTS, e, "a comma-separated list of name=agentCardUrl pairs, such as "
                        + REMOTE_AGENT_EXAMPLE);
            }
            String name = e.substring(0, eq).trim();
            String url = e.substring(eq + 1).trim();
            if (!AGENT_NAME.matcher(name).matches()) {
                throw invalid(A2A_REMOTE_AGENTS, e, "name=agentCardUrl pairs whose names are made of letters, digits,"
                        + " '-' and '_', such as " + REMOTE_AGENT_EXAMPLE);
            }
            if (remote.containsKey(name)) {
                throw invalid(A2A_REMOTE_AGENTS, e, "each remote agent name once; \"" + name + "\" is given twice");
            }
            remote.put(name, httpUrl(url).orElseThrow(() -> invalid(A2A_REMOTE_AGENTS, e,
                    "name=agentCardUrl pairs whose URLs are absolute http:// or https:// URLs, such as "
                            + REMOTE_AGENT_EXAMPLE)));
        }
        return new LangoSettings.A2a(bool(A2A_ENABLED, false), Collections.unmodifiableMap(remote));
    }

    /** An absolute http(s) URL with a host, or empty. */
    private static Optional<URI> httpUrl(String raw) {
        try {
            URI uri = new URI(raw);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    ? Optional.of(uri) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /** The key of one provider setting: lango.providers.<id>.<name>. */
    private Optional<LangoSettings.ModelProvider> provider() {
        return provider(PROVIDER);
    }

    /** The provider named by {@code key}, with its lango.providers.<id>.* values. */
    private Optional<LangoSettings.ModelProvider> provider(String key) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        String id = raw.get().toLowerCase(Locale.ROOT);
        if (!ProviderCatalog.IDS.contains(id)) {
            throw invalid(key, raw.get(), String.join(", ", ProviderCatalog.IDS));
        }
        Optional<String> baseUrl = value(ProviderCatalog.configKey(id, ProviderCatalog.BASE_URL));
        baseUrl.ifPresent(u -> {
            if (!u.startsWith("http://") && !u.startsWith("https://")) {
                throw invalid(ProviderCatalog.configKey(id, ProviderCatalog.BASE_URL), u, "an http:// or https:// URL");
            }
        });
        return Optional.of(new LangoSettings.ModelProvider(id, baseUrl, value(ProviderCatalog.configKey(id, ProviderCatalog.API_KEY))));
    }

    /** lango.memory.*: off unless enabled; thresholds and budget positive (meta-reflection: 0 or less means 5). */
    private LangoSettings.Memory memory() {
        String positive = "a positive number of tokens";
        return new LangoSettings.Memory(bool(MEMORY_ENABLED, false), provider(MEMORY_PROVIDER), value(MEMORY_MODEL),
                integer(MEMORY_OBSERVATION_THRESHOLD, LangoSettings.Memory.DEFAULT_OBSERVATION_THRESHOLD, 1,
                        Integer.MAX_VALUE, positive),
                integer(MEMORY_REFLECTION_THRESHOLD, LangoSettings.Memory.DEFAULT_REFLECTION_THRESHOLD, 1,
                        Integer.MAX_VALUE, positive),
                integer(MEMORY_META_REFLECTION_THRESHOLD, 0, Integer.MIN_VALUE, Integer.MAX_VALUE,
                        "an integer (0 or less means 5)"),
                integer(MEMORY_TOKEN_BUDGET, LangoSettings.Memory.DEFAULT_TOKEN_BUDGET, 1, Integer.MAX_VALUE, positive));
    }

    /** lango.knowledge.*: on by default once a model is configured (its tools need one to call them). */
    private LangoSettings.Knowledge knowledge(LangoSettings.Model model) {
        boolean configured = model.provider().isPresent() && model.name().isPresent();
        return new LangoSettings.Knowledge(bool(KNOWLEDGE_ENABLED, configured),
                integer(KNOWLEDGE_CONTEXT_BUDGET, LangoSettings.Knowledge.DEFAULT_CONTEXT_BUDGET, 1, Integer.MAX_VALUE,
                        "a positive number of tokens"));
    }

    /** lango.embedding.*, lango.graph.enabled: a remote embedding provider takes its lango.providers.<id>.* URL and key. */
    private LangoSettings.Retrieval retrieval() {
        String raw = value(EMBEDDING_PROVIDER).orElse(LangoSettings.Retrieval.LOCAL);
        String id = raw.toLowerCase(Locale.ROOT);
        if (!LangoSettings.Retrieval.PROVIDERS.contains(id)) {
            throw invalid(EMBEDDING_PROVIDER, raw, String.join(", ", LangoSettings.Retrieval.PROVIDERS));
        }
        Optional<String> model = value(EMBEDDING_MODEL);
        if (id.equals(LangoSettings.Retrieval.LOCAL) && model.filter(m -> !m.equals(LangoSettings.Retrieval.LOCAL_MODEL)).isPresent()) {
            throw invalid(EMBEDDING_MODEL, model.get(), LangoSettings.Retrieval.LOCAL_MODEL
                    + " (the one model of the local provider; another needs lango.embedding.provider openai, gemini or ollama)");
        }
        Optional<LangoSettings.ModelProvider> remote = id.equals(LangoSettings.Retrieval.LOCAL) ? Optional.empty()
                : provider(EMBEDDING_PROVIDER);
        return new LangoSettings.Retrieval(id, model,
                remote.flatMap(LangoSettings.ModelProvider::baseUrl), remote.flatMap(LangoSettings.ModelProvider::apiKey),
                bool(EMBEDDING_RAG_ENABLED, false), bool(GRAPH_ENABLED, false));
    }

    /** lango.session.lease-timeout: PT1S to PT10M; a lease shorter than a second would expire under a live turn. */
    private Duration leaseTimeout() {
        Duration lease = duration(SESSION_LEASE_TIMEOUT, LangoSettings.Sessions.DEFAULT_LEASE_TIMEOUT);
        if (lease.compareTo(Duration.ofSeconds(1)) < 0 || lease.compareTo(Duration.ofMinutes(10)) > 0) {
            throw invalid(SESSION_LEASE_TIMEOUT, value(SESSION_LEASE_TIMEOUT).orElse(""), "an ISO-8601 duration from PT1S to PT10M");
        }
        return lease;
    }

    private LangoSettings.AgentLimits agentLimits() {
        int turns = integer(MAX_TURNS, 0, Integer.MIN_VALUE, Integer.MAX_VALUE, "an integer (0 or less means 25)");
        int rounds = integer(MAX_DELEGATION_ROUNDS, 0, Integer.MIN_VALUE, Integer.MAX_VALUE,
                "an integer (0 or less means 10)");
        Duration timeout = duration(REQUEST_TIMEOUT, Duration.ofMinutes(5));
        if (timeout.isZero()) {
            throw invalid(REQUEST_TIMEOUT, value(REQUEST_TIMEOUT).orElse(""), "a positive ISO-8601 duration such as PT5M");
        }
        Duration grace = duration(SHUTDOWN_GRACE, LangoSettings.AgentLimits.DEFAULT_SHUTDOWN_GRACE);
        if (grace.compareTo(MAX_SHUTDOWN_GRACE) > 0) {
            throw invalid(SHUTDOWN_GRACE, value(SHUTDOWN_GRACE).orElse(""), "an ISO-8601 duration from PT0S to PT5M");
        }
        return new LangoSettings.AgentLimits(bool(MULTI_AGENT, false),
                turns > 0 ? turns : DEFAULT_MAX_TURNS,
                rounds > 0 ? rounds : DEFAULT_MAX_DELEGATION_ROUNDS,
                bool(ERROR_CORRECTION, true), timeout, grace);
    }

    private LangoSettings.ToolSettings tools(Path dataDir) {
        Path workspace = value(TOOLS_WORKSPACE).map(p -> path(TOOLS_WORKSPACE, p)).orElse(dataDir.resolve("workspace"));
        Duration execTimeout = duration(EXEC_TIMEOUT, Duration.ofSeconds(60));
        return new LangoSettings.ToolSettings(workspace, bool(EXEC_ENABLED, false),
                execTimeout.isZero() ? Duration.ofSeconds(60) : execTimeout, execEnv());
    }

    /** lango.tools.exec.env: variable names; never LANGO_*, which hold the server's own keys and token. */
    private List<String> execEnv() {
        List<String> names = new java.util.ArrayList<>();
        for (String name : value(EXEC_ENV).orElse("").split(",")) {
            String n = name.trim();
            if (n.isEmpty()) {
                continue;
            }
            if (!ENV_NAME.matcher(n).matches() || n.toUpperCase(Locale.ROOT).startsWith("LANGO_")) {
                throw invalid(EXEC_ENV, n, "a comma-separated list of environment variable names such as"
                        + " JAVA_HOME,GOPATH; never LANGO_* (the server's own keys and token)");
            }
            if (!names.contains(n)) {
                names.add(n);
            }
        }
        return List.copyOf(names);
    }

    private boolean bool(String key, boolean fallback) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return fallback;
        }
        return switch (raw.get().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, raw.get(), "true or false");
        };
    }

    private Optional<String> value(String key) {
        return lookup.apply(key).map(String::trim).filter(v -> !v.isEmpty());
    }

    private int integer(String key, int fallback, int min, int max, String accepted) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(raw.get());
            if (parsed < min || parsed > max) {
                throw invalid(key, raw.get(), accepted);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw invalid(key, raw.get(), accepted);
        }
    }

    private Duration duration(String key, Duration fallback) {
        return duration(key, fallback, false);
    }

    private Duration duration(String key, Duration fallback, boolean positive) {
        Optional<String> raw = value(key);
        if (raw.isEmpty()) {
            return fallback;
        }
        String accepted = positive ? "a positive ISO-8601 duration such as PT10S"
                : "an ISO-8601 duration of zero or more, such as PT30M or P7D (PT0S = never)";
        try {
            Duration parsed = Duration.parse(raw.get().toUpperCase(Locale.ROOT));
            if (parsed.isNegative() || (positive && parsed.isZero())) {
                throw invalid(key, raw.get(), accepted);
            }
            return parsed;
        } catch (DateTimeParseException e) {
            throw invalid(key, raw.get(), accepted);
        }
    }

    private DbKind dbKind() {
        Optional<String> raw = value(DB_KIND);
        if (raw.isEmpty()) {
            return DbKind.HSQLDB;
        }
        if (raw.get().equalsIgnoreCase(RETIRED_EMBEDDED)) {
            throw invalid(DB_KIND, raw.get(), "hsqldb or postgresql (h2 lost acknowledged turns on a crash; "
                    + "unset the key or set hsqldb, and the first start imports what h2 kept in <data dir>/db/lango.mv.db)");
        }
        return Arrays.stream(DbKind.values())
                .filter(k -> k.key().equalsIgnoreCase(raw.get()))
                .findFirst()
                .orElseThrow(() -> invalid(DB_KIND, raw.get(), "hsqldb or postgresql"));
    }

    private Path dataDir() {
        return value(DATA_DIR).map(p -> path(DATA_DIR, p)).orElse(home.resolve(".lango").toAbsolutePath().normalize());
    }

    /** A directory path; "~" stands for the home directory. */
    private Path path(String key, String raw) {
        String path = raw.equals("~") || raw.startsWith("~/") ? home + raw.substring(1) : raw;
        try {
            return Path.of(path).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw invalid(key, raw, "a directory path");
        }
    }

    /** The data directory must not live inside the server directory (a packaged server would carry it). */
    public static void requireOutside(Path dataDir, Path serverDir) {
        if (serverDir != null && dataDir.startsWith(serverDir.toAbsolutePath().normalize())) {
            throw invalid(DATA_DIR, dataDir.toString(),
                    "a directory outside the server directory " + serverDir);
        }
    }

    static InvalidConfigurationException invalid(String key, String value, String accepted) {
        String shown = value == null ? "is not set" : "has the invalid value \"" + value + "\"";
        return new InvalidConfigurationException(key + " " + shown + "; accepted: " + accepted);
    }
}
