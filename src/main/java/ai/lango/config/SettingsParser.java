package ai.lango.config;

import ai.lango.config.LangoSettings.DbKind;
import ai.lango.provider.ProviderCatalog;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
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
 * Turns raw configuration strings into {@link LangoSettings}, reading every key through its
 * declaration in {@link Keys}. Pure: the lookup function is the only input, so every rule is
 * unit-tested without a server. The first invalid value stops the start with one message naming
 * the key, the value and what is accepted. {@link #effective()} then says what is in force, key by
 * key, defaults included and secrets masked.
 */
public final class SettingsParser {

    /** The embedded database of earlier versions, refused by name with what to do instead. */
    static final String RETIRED_EMBEDDED = "h2";

    /** What an agent name may be: an ADK agent identifier. */
    private static final Pattern AGENT_NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final String REMOTE_AGENT_EXAMPLE = "helper=http://127.0.0.1:9090/.well-known/agent.json";

    private final Function<String, Optional<String>> lookup;
    private final Iterable<String> names;
    private final Path home;
    /** Key → the value in force, as shown to operators; filled by {@link #parse()}. */
    private final Map<String, Object> effective = new LinkedHashMap<>();

    /**
     * @param lookup raw value of a key, empty when unset
     * @param home   the user's home directory, for the default data directory
     */
    public SettingsParser(Function<String, Optional<String>> lookup, Path home) {
        this(lookup, List.of(), home);
    }

    /**
     * @param names every key the configuration has, for the families of keys whose ids are not known beforehand
     *              (lango.pricing.&lt;model&gt;.*; as properties or as LANGO_PRICING_&lt;MODEL&gt;_INPUT variables)
     */
    public SettingsParser(Function<String, Optional<String>> lookup, Iterable<String> names, Path home) {
        this.lookup = lookup;
        this.names = names;
        this.home = home;
    }

    /** The values in force after {@link #parse()}, in the order of {@link Keys}: defaults included, secrets masked. */
    public Map<String, Object> effective() {
        Map<String, Object> ordered = new LinkedHashMap<>();
        for (Setting<?> setting : Keys.all()) {
            if (effective.containsKey(setting.key())) {
                ordered.put(setting.key(), effective.get(setting.key()));
            }
        }
        effective.forEach(ordered::putIfAbsent); // per-provider keys
        return Collections.unmodifiableMap(ordered);
    }

    public LangoSettings parse() {
        LangoSettings.Http http = bind(LangoSettings.Http.class);
        Optional<String> token = find(Keys.AUTH_TOKEN);
        Optional<LangoSettings.Jwt> jwt = jwt();
        if (!isLoopback(http.host()) && token.isEmpty() && jwt.isEmpty()) {
            throw new UnsafeBindingException(Keys.HTTP_HOST + " is \"" + http.host() + "\", which is reachable from other"
                    + " machines, but " + Keys.AUTH_TOKEN + " is not set; set a token (or accept JWTs: " + Keys.JWT_ISSUER
                    + "), or bind to localhost");
        }
        Path dataDir = directory(Keys.DATA_DIR).orElse(home.resolve(".lango").toAbsolutePath().normalize());
        shown(Keys.DATA_DIR, dataDir.toString());
        DbKind kind = dbKind();
        Optional<String> url = find(Keys.DB_URL);
        if (kind == DbKind.POSTGRESQL) {
            String jdbc = url.orElseThrow(() -> invalid(Keys.DB_URL.key(), null,
                    "a jdbc:postgresql:// URL (required when " + Keys.DB_KIND + "=postgresql)"));
            if (!jdbc.startsWith("jdbc:postgresql:")) {
                throw invalid(Keys.DB_URL.key(), Redaction.jdbcUrl(jdbc), "a URL starting with jdbc:postgresql:");
            }
        }
        url.ifPresent(u -> shown(Keys.DB_URL, Redaction.jdbcUrl(u)));
        get(Keys.TURN_VIRTUAL_THREADS); // Liberty's to act on (server.xml); checked and shown here like the port
        LangoSettings.Model model = bind(LangoSettings.Model.class, "provider", provider(Keys.PROVIDER));
        LangoSettings.Sessions sessions = bind(LangoSettings.Sessions.class);
        if (sessions.tokenBudget() == 0) {
            ProviderCatalog.historyBudget(model.name().orElse(null)).ifPresent(derived -> shown(Keys.TOKEN_BUDGET, derived));
        }
        return new LangoSettings(http, bind(LangoSettings.Database.class, "dataDir", dataDir, "kind", kind, "url", url),
                model, sessions, bind(LangoSettings.AgentLimits.class, "compaction", bind(LangoSettings.Compaction.class)), tools(dataDir, token.isPresent() || jwt.isPresent()),
                bind(LangoSettings.Access.class, "jwt", jwt, "quotas", bind(LangoSettings.Quotas.class)), a2a(), memory(),
                knowledge(model), retrieval(), bind(LangoSettings.Approval.class), vault(dataDir), skills(dataDir), browser(),
                payment(), mcp(dataDir), pricing(), bind(LangoSettings.Telemetry.class), eval(dataDir),
                bind(LangoSettings.Schedules.class));
    }

    /** The models priced by lango.pricing.&lt;model&gt;.input|output|cached (or LANGO_PRICING_&lt;MODEL&gt;_INPUT…). */
    private LangoSettings.Pricing pricing() {
        Map<String, String> models = new LinkedHashMap<>();
        Pattern property = Pattern.compile("lango\\.pricing\\.(.+)\\.(input|output|cached)");
        Pattern variable = Pattern.compile("LANGO_PRICING_(.+)_(INPUT|OUTPUT|CACHED)");
        for (String name : names) {
            java.util.regex.Matcher p = property.matcher(name);
            java.util.regex.Matcher v = variable.matcher(name);
            if (p.matches()) {
                models.putIfAbsent(p.group(1), p.group(1));
            } else if (v.matches()) {
                // a variable names the model in capitals with '_' for what is not a letter or digit
                models.putIfAbsent(v.group(1).toLowerCase(Locale.ROOT), v.group(1).toLowerCase(Locale.ROOT));
            }
        }
        Map<String, LangoSettings.Price> prices = new LinkedHashMap<>();
        for (String model : models.keySet()) {
            java.math.BigDecimal input = get(Keys.PRICE_INPUT.forId(model));
            java.math.BigDecimal output = get(Keys.PRICE_OUTPUT.forId(model));
            java.math.BigDecimal cached = find(Keys.PRICE_CACHED.forId(model)).orElse(null);
            prices.put(model, new LangoSettings.Price(input, output, cached));
        }
        return new LangoSettings.Pricing(prices);
    }

    /**
     * A settings record from its components' keys ({@link Key}): a component gets its key's value,
     * or its default (an {@code Optional} one only the value: empty when unset), as the component's
     * type wants it (a list as a set, a choice as an enum); {@code derived} gives, as name, value,
     * name, value, …, the components that no one key carries.
     */
    <R extends Record> R bind(Class<R> type, Object... derived) {
        Map<String, Object> given = new java.util.HashMap<>();
        for (int i = 0; i < derived.length; i += 2) {
            given.put((String) derived[i], derived[i + 1]);
        }
        java.lang.reflect.RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            java.lang.reflect.RecordComponent component = components[i];
            if (given.containsKey(component.getName())) {
                values[i] = given.remove(component.getName());
                continue;
            }
            Key key = component.getAnnotation(Key.class);
            if (key == null) {
                throw new IllegalStateException(type.getName() + "." + component.getName() + " has no @Key and was not given");
            }
            Setting<?> setting = Keys.named(key.value());
            values[i] = component.getType() == Optional.class ? find(setting) : as(get(setting), component.getType());
        }
        if (!given.isEmpty()) {
            throw new IllegalStateException(type.getName() + " has no components " + given.keySet());
        }
        try {
            return type.getDeclaredConstructor(java.util.Arrays.stream(components).map(java.lang.reflect.RecordComponent::getType)
                    .toArray(Class<?>[]::new)).newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getName(), e);
        }
    }

    /** A parsed value as a component of type {@code type} takes it. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object as(Object value, Class<?> type) {
        if (type == java.util.Set.class && value instanceof List<?> list) {
            return java.util.Set.copyOf(list);
        }
        if (type.isEnum() && value instanceof String text) {
            return Enum.valueOf((Class<? extends Enum>) type, text.toUpperCase(Locale.ROOT));
        }
        return value;
    }

    /** The payment settings; switched on, they need an RPC endpoint, and a USDC contract off Base. */
    private LangoSettings.Payment payment() {
        boolean enabled = get(Keys.PAYMENT_ENABLED);
        Optional<String> rpc = find(Keys.PAYMENT_RPC_URL);
        if (enabled && rpc.isEmpty()) {
            throw invalid(Keys.PAYMENT_RPC_URL.key(), null, "the chain's JSON-RPC URL (required when " + Keys.PAYMENT_ENABLED
                    + "=true)");
        }
        Optional<URI> url = Optional.empty();
        if (rpc.isPresent()) {
            try {
                URI uri = new URI(rpc.get());
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                    throw new URISyntaxException(rpc.get(), "not http(s)");
                }
                url = Optional.of(uri);
            } catch (URISyntaxException e) {
                throw invalid(Keys.PAYMENT_RPC_URL.key(), Redaction.MASK, "an http or https URL");
            }
        }
        long chain = get(Keys.PAYMENT_CHAIN_ID);
        Optional<String> contract = find(Keys.PAYMENT_USDC_CONTRACT);
        String usdc = contract.orElse(chain == 84532 ? LangoSettings.Payment.BASE_SEPOLIA_USDC
                : chain == 8453 ? LangoSettings.Payment.BASE_USDC : "");
        if (contract.isPresent() && !usdc.matches("0x[0-9a-fA-F]{40}")) {
            throw invalid(Keys.PAYMENT_USDC_CONTRACT.key(), usdc, "a contract address: 0x and 40 hexadecimal digits");
        }
        if (enabled && usdc.isEmpty()) {
            throw invalid(Keys.PAYMENT_USDC_CONTRACT.key(), null, "USDC's contract address on chain " + chain
                    + " (known only for Base and Base Sepolia)");
        }
        shown(Keys.PAYMENT_USDC_CONTRACT, usdc);
        return bind(LangoSettings.Payment.class, "rpcUrl", url, "usdcContract", usdc);
    }

    /** The browser settings; switched on, it needs a Chromium and a Node.js, named or found. */
    private LangoSettings.Browser browser() {
        boolean enabled = get(Keys.BROWSER_ENABLED);
        Path executable = executable(Keys.BROWSER_EXECUTABLE, enabled, List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
                "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"), "a Chromium or Chrome binary", Keys.BROWSER_ENABLED);
        Path node = executable(Keys.BROWSER_NODE, enabled, onPath("node"), "the Node.js binary", Keys.BROWSER_ENABLED);
        return bind(LangoSettings.Browser.class, "executable", executable, "node", node);
    }

    /** {@code name} in each folder of the PATH, in order. */
    private static List<String> onPath(String name) {
        return Arrays.stream(Optional.ofNullable(System.getenv("PATH")).orElse("/usr/local/bin:/usr/bin:/bin")
                .split(java.io.File.pathSeparator)).filter(dir -> !dir.isBlank()).map(dir -> dir + "/" + name).toList();
    }

    /**
     * The binary {@code setting} names, else the first of {@code candidates} that can run; checked only
     * when needed (when {@code neededBy} is on).
     */
    private Path executable(Setting<String> setting, boolean needed, List<String> candidates, String what,
                            Setting<Boolean> neededBy) {
        Optional<String> named = find(setting);
        if (named.isPresent()) {
            Path path = Path.of(named.get());
            if (needed && !java.nio.file.Files.isExecutable(path)) {
                throw invalid(setting.key(), named.get(), what + " that exists and can run");
            }
            return path;
        }
        Optional<Path> found = candidates.stream().map(Path::of).filter(java.nio.file.Files::isExecutable).findFirst();
        if (needed && found.isEmpty()) {
            throw invalid(setting.key(), null, "the path of " + what + " (none found at " + String.join(", ", candidates)
                    + "; " + neededBy + "=true needs one)");
        }
        Path path = found.orElse(Path.of(candidates.get(0)));
        shown(setting, path.toString());
        return path;
    }

    private LangoSettings.Mcp mcp(Path dataDir) {
        Path config = directory(Keys.MCP_CONFIG).orElse(dataDir.resolve("mcp.json"));
        shown(Keys.MCP_CONFIG, config.toString());
        return bind(LangoSettings.Mcp.class, "config", config);
    }

    private LangoSettings.Eval eval(Path dataDir) {
        Path dir = directory(Keys.EVAL_DIR).orElse(dataDir.resolve("evals"));
        shown(Keys.EVAL_DIR, dir.toString());
        return bind(LangoSettings.Eval.class, "dir", dir);
    }

    private LangoSettings.Skills skills(Path dataDir) {
        Path dir = directory(Keys.SKILLS_DIR).orElse(dataDir.resolve("skills"));
        shown(Keys.SKILLS_DIR, dir.toString());
        return bind(LangoSettings.Skills.class, "dir", dir);
    }

    /** The vault's passphrase, from the key or the file it names (not both), else its key file in the data directory. */
    private LangoSettings.Vault vault(Path dataDir) {
        Optional<String> passphrase = find(Keys.PASSPHRASE);
        Optional<String> file = find(Keys.PASSPHRASE_FILE);
        if (passphrase.isPresent() && file.isPresent()) {
            throw invalid(Keys.PASSPHRASE_FILE.key(), file.get(), "unset when " + Keys.PASSPHRASE + " is set (one of them)");
        }
        if (file.isPresent()) {
            try {
                String first = java.nio.file.Files.readAllLines(Path.of(file.get())).stream().findFirst().orElse("").strip();
                if (first.isEmpty()) {
                    throw invalid(Keys.PASSPHRASE_FILE.key(), file.get(), "a file whose first line is the passphrase (it is empty)");
                }
                passphrase = Optional.of(first);
            } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
                throw invalid(Keys.PASSPHRASE_FILE.key(), file.get(), "a readable file whose first line is the passphrase ("
                        + e.getMessage() + ")");
            }
        }
        if (passphrase.isPresent() && passphrase.get().length() < 12) {
            throw invalid(Keys.PASSPHRASE.key(), "(set)", "a passphrase of at least 12 characters");
        }
        return bind(LangoSettings.Vault.class, "passphrase", passphrase, "keyFile", LangoSettings.Vault.keyFileIn(dataDir));
    }

    /** lango.auth.jwt.*: off without an issuer; with one, a key or a JWKS URL is required. */
    private Optional<LangoSettings.Jwt> jwt() {
        Optional<String> issuer = find(Keys.JWT_ISSUER);
        Optional<String> key = find(Keys.JWT_PUBLIC_KEY);
        Optional<URI> jwks = find(Keys.JWT_JWKS_URL).map(url -> httpUrl(url).orElseThrow(() -> invalid(Keys.JWT_JWKS_URL.key(), url,
                "an absolute http:// or https:// URL")));
        if (issuer.isEmpty()) {
            // Read all the same, so that the admin API shows every key with its value in force.
            find(Keys.JWT_AUDIENCE);
            get(Keys.JWT_ADMIN_GROUP);
            get(Keys.JWT_LINK_TOKEN_USERS);
            if (key.isPresent() || jwks.isPresent()) {
                throw invalid(Keys.JWT_ISSUER.key(), null, "the issuer the JWTs name (required with " + Keys.JWT_PUBLIC_KEY
                        + " or " + Keys.JWT_JWKS_URL + ")");
            }
            return Optional.empty();
        }
        if (key.isEmpty() == jwks.isEmpty()) {
            throw invalid(Keys.JWT_PUBLIC_KEY.key(), key.isPresent() ? "(set)" : null,
                    "either " + Keys.JWT_PUBLIC_KEY + " or " + Keys.JWT_JWKS_URL + " (one of them) with " + Keys.JWT_ISSUER);
        }
        return Optional.of(bind(LangoSettings.Jwt.class, "issuer", issuer.get(), "jwksUrl", jwks));
    }

    /** localhost, 127.0.0.0/8 and ::1: the interfaces only this machine reaches. */
    static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]");
    }

    /** The value of {@code setting}, or its default when unset. */
    private <T> T get(Setting<T> setting) {
        T value = find(setting).or(setting::fallback).orElseThrow(
                () -> new IllegalStateException(setting.key() + " has no default"));
        effective.putIfAbsent(setting.key(), shownValue(value));
        return value;
    }

    /** The value of {@code setting}, empty when it is unset (its default is not applied). */
    private <T> Optional<T> find(Setting<T> setting) {
        Optional<T> value = raw(setting).map(setting::parse);
        effective.put(setting.key(), setting.secret() ? value.map(v -> (Object) Redaction.MASK).orElse(null)
                : value.map(v -> (Object) shownValue(v)).orElse(null));
        return value;
    }

    private static Object shownValue(Object value) {
        return value instanceof Duration || value instanceof Path ? value.toString() : value;
    }

    /** What operators see as the value in force when it differs from what was parsed (derived defaults). */
    private void shown(Setting<?> setting, Object value) {
        effective.put(setting.key(), value);
    }

    private Optional<String> raw(Setting<?> setting) {
        return lookup.apply(setting.key()).map(String::trim).filter(v -> !v.isEmpty());
    }

    /** lango.a2a.*: whether this server speaks A2A, and the remote agents by name, in the order given. */
    private LangoSettings.A2a a2a() {
        Map<String, URI> remote = new LinkedHashMap<>();
        String key = Keys.A2A_REMOTE_AGENTS.key();
        for (String entry : raw(Keys.A2A_REMOTE_AGENTS).orElse("").split(",")) {
            String e = entry.trim();
            if (e.isEmpty()) {
                continue;
            }
            int eq = e.indexOf('=');
            if (eq < 0) {
                throw invalid(key, e, "a comma-separated list of name=agentCardUrl pairs, such as " + REMOTE_AGENT_EXAMPLE);
            }
            String name = e.substring(0, eq).trim();
            String url = e.substring(eq + 1).trim();
            if (!AGENT_NAME.matcher(name).matches()) {
                throw invalid(key, e, "name=agentCardUrl pairs whose names are made of letters, digits,"
                        + " '-' and '_', such as " + REMOTE_AGENT_EXAMPLE);
            }
            if (remote.containsKey(name)) {
                throw invalid(key, e, "each remote agent name once; \"" + name + "\" is given twice");
            }
            remote.put(name, httpUrl(url).orElseThrow(() -> invalid(key, e,
                    "name=agentCardUrl pairs whose URLs are absolute http:// or https:// URLs, such as "
                            + REMOTE_AGENT_EXAMPLE)));
        }
        Map<String, String> shownRemote = new LinkedHashMap<>();
        remote.forEach((name, uri) -> shownRemote.put(name, Redaction.url(uri.toString())));
        shown(Keys.A2A_REMOTE_AGENTS, shownRemote);
        return bind(LangoSettings.A2a.class, "remoteAgents", Collections.unmodifiableMap(remote));
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

    /** The provider named by {@code setting}, with its lango.providers.<id>.* values. */
    private Optional<LangoSettings.ModelProvider> provider(Setting<String> setting) {
        Duration readTimeout = get(Keys.PROVIDER_READ_TIMEOUT);
        return find(setting).map(id -> new LangoSettings.ModelProvider(id, find(Keys.PROVIDER_BASE_URL.forId(id)),
                find(Keys.PROVIDER_API_KEY.forId(id)), readTimeout));
    }

    /** lango.memory.*: off unless enabled. */
    private LangoSettings.Memory memory() {
        return bind(LangoSettings.Memory.class, "provider", provider(Keys.MEMORY_PROVIDER));
    }

    /** lango.knowledge.*: on by default once a model is configured (its tools need one to call them). */
    private LangoSettings.Knowledge knowledge(LangoSettings.Model model) {
        boolean configured = model.provider().isPresent() && model.name().isPresent();
        boolean enabled = find(Keys.KNOWLEDGE_ENABLED).orElse(configured);
        shown(Keys.KNOWLEDGE_ENABLED, enabled);
        return bind(LangoSettings.Knowledge.class, "enabled", enabled);
    }

    /** lango.embedding.*, lango.graph.enabled: a remote embedding provider takes its lango.providers.<id>.* URL and key. */
    private LangoSettings.Retrieval retrieval() {
        String id = get(Keys.EMBEDDING_PROVIDER);
        Optional<String> model = find(Keys.EMBEDDING_MODEL);
        if (id.equals(LangoSettings.Retrieval.LOCAL) && model.filter(m -> !m.equals(LangoSettings.Retrieval.LOCAL_MODEL)).isPresent()) {
            throw invalid(Keys.EMBEDDING_MODEL.key(), model.get(), LangoSettings.Retrieval.LOCAL_MODEL
                    + " (the one model of the local provider; another needs lango.embedding.provider openai, gemini or ollama)");
        }
        Optional<String> baseUrl = Optional.empty();
        Optional<String> apiKey = Optional.empty();
        if (!id.equals(LangoSettings.Retrieval.LOCAL)) {
            baseUrl = find(Keys.PROVIDER_BASE_URL.forId(id));
            apiKey = find(Keys.PROVIDER_API_KEY.forId(id));
        }
        return bind(LangoSettings.Retrieval.class, "provider", id, "model", model, "baseUrl", baseUrl, "apiKey", apiKey);
    }

    private LangoSettings.ToolSettings tools(Path dataDir, boolean authenticates) {
        Path workspace = directory(Keys.TOOLS_WORKSPACE).orElse(dataDir.resolve("workspace"));
        shown(Keys.TOOLS_WORKSPACE, workspace.toString());
        Duration execTimeout = get(Keys.EXEC_TIMEOUT);
        if (execTimeout.isZero()) {
            execTimeout = Keys.EXEC_TIMEOUT.fallback().orElseThrow();
            shown(Keys.EXEC_TIMEOUT, execTimeout.toString());
        }
        boolean execEnabled = get(Keys.EXEC_ENABLED);
        Optional<Path> sandbox = Optional.empty();
        if (get(Keys.EXEC_SANDBOX).equals("bubblewrap")) {
            sandbox = Optional.of(executable(Keys.EXEC_BWRAP, execEnabled, onPath("bwrap"), "bubblewrap's bwrap (Debian's"
                    + " package bubblewrap: apt-get install bubblewrap; or " + Keys.EXEC_SANDBOX + "=none, which runs"
                    + " commands unsandboxed, as the server)", Keys.EXEC_ENABLED));
        }
        return bind(LangoSettings.ToolSettings.class, "workspace", workspace, "execTimeout", execTimeout,
                "workspacePerUser", authenticates, "execSandbox", sandbox);
    }

    private DbKind dbKind() {
        String raw = get(Keys.DB_KIND);
        if (raw.equalsIgnoreCase(RETIRED_EMBEDDED)) {
            throw invalid(Keys.DB_KIND.key(), raw, "hsqldb or postgresql (h2 lost acknowledged turns on a crash; "
                    + "unset the key or set hsqldb, and the first start imports what h2 kept in <data dir>/db/lango.mv.db)");
        }
        DbKind kind = Arrays.stream(DbKind.values())
                .filter(k -> k.key().equalsIgnoreCase(raw))
                .findFirst()
                .orElseThrow(() -> invalid(Keys.DB_KIND.key(), raw, "hsqldb or postgresql"));
        shown(Keys.DB_KIND, kind.key());
        return kind;
    }

    /** A path setting (a directory's or a file's), absolute; "~" stands for the home directory. */
    private Optional<Path> directory(Setting<Path> setting) {
        return find(setting).map(path -> {
            String raw = path.toString();
            String expanded = raw.equals("~") || raw.startsWith("~/") ? home + raw.substring(1) : raw;
            return Path.of(expanded).toAbsolutePath().normalize();
        });
    }

    /** The data directory must not live inside the server directory (a packaged server would carry it). */
    public static void requireOutside(Path dataDir, Path serverDir) {
        if (serverDir != null && dataDir.startsWith(serverDir.toAbsolutePath().normalize())) {
            throw invalid(Keys.DATA_DIR.key(), dataDir.toString(),
                    "a directory outside the server directory " + serverDir);
        }
    }

    static InvalidConfigurationException invalid(String key, String value, String accepted) {
        String shown = value == null ? "is not set" : "has the invalid value \"" + value + "\"";
        return new InvalidConfigurationException(key + " (" + Setting.environmentVariable(key) + ") " + shown + "; accepted: "
                + accepted);
    }
}
