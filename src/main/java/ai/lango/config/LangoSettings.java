package ai.lango.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The validated configuration, one small record per subsystem, each a CDI bean of its own (see
 * {@link ConfigProducer}). Built by {@link SettingsParser}; secrets are held here but never printed.
 */
public record LangoSettings(Http http, Database database, Model model, Sessions sessions, AgentLimits agent,
                            ToolSettings tools, Access access, A2a a2a, Memory memory,
                            Knowledge knowledge, Retrieval retrieval, Approval approval, Vault vault, Skills skills,
                            Browser browser, Payment payment) {

    /**
     * lango.payment.*: whether the payment tools are on, the chain (its JSON-RPC endpoint, id and USDC
     * contract), the limits in USDC, and x402.
     */
    public record Payment(boolean enabled, Optional<URI> rpcUrl, long chainId, String usdcContract,
                          java.math.BigDecimal maxPerTx, java.math.BigDecimal maxDaily, java.math.BigDecimal autoApproveBelow,
                          boolean x402, java.math.BigDecimal x402MaxAutoPay) {

        public static final String BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
        public static final String BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

        public static final Payment OFF = new Payment(false, Optional.empty(), 84532, BASE_SEPOLIA_USDC,
                new java.math.BigDecimal("1.00"), new java.math.BigDecimal("10.00"), new java.math.BigDecimal("0.10"), false,
                new java.math.BigDecimal("0.50"));

        @Override
        public String toString() {
            return "Payment[enabled=" + enabled + ", rpcUrl=" + rpcUrl.map(u -> Redaction.MASK).orElse("-") + ", chainId=" + chainId
                    + ", usdcContract=" + usdcContract + ", maxPerTx=" + maxPerTx + ", maxDaily=" + maxDaily
                    + ", autoApproveBelow=" + autoApproveBelow + ", x402=" + x402 + ", x402MaxAutoPay=" + x402MaxAutoPay + "]";
        }
    }

    /**
     * lango.tools.browser.*: whether the browser tools are on, the Chromium and Node.js they run, how long
     * a session's context lives unused and how many there may be, where the browser may go, how much of
     * a snapshot a result carries, and how long one action may take.
     */
    public record Browser(boolean enabled, Path executable, Path node, Duration sessionTimeout, int maxContexts,
                          List<String> allowedHosts, List<String> blockedHosts, int snapshotMaxChars, Duration timeout) {

        public static final Browser OFF = new Browser(false, Path.of("chromium"), Path.of("node"), Duration.ofMinutes(10), 8,
                List.of(), List.of(), 12_000, Duration.ofSeconds(30));

        public Browser {
            allowedHosts = List.copyOf(allowedHosts);
            blockedHosts = List.copyOf(blockedHosts);
        }
    }

    /** lango.skills.*: whether skills are on, their folder, and the prompt tokens their descriptions may take. */
    public record Skills(boolean enabled, Path dir, int promptBudget) {

        public static Skills in(Path dataDir) {
            return new Skills(true, dataDir.resolve("skills"), 1000);
        }
    }

    /**
     * The vault: the passphrase that seals its key (lango.security.passphrase, or the file
     * lango.security.passphrase-file names), else the key file it is sealed with; and whether the
     * secrets_ and crypto_ tools are on.
     */
    public record Vault(Optional<String> passphrase, Path keyFile, boolean secretsTools, boolean cryptoTools) {

        /** The key file in {@code dataDir}. */
        public static Path keyFileIn(Path dataDir) {
            return dataDir.resolve("vault.key");
        }

        @Override
        public String toString() {
            return "Vault[passphrase=" + passphrase.map(p -> Redaction.MASK).orElse("-") + ", keyFile=" + keyFile
                    + ", secretsTools=" + secretsTools + ", cryptoTools=" + cryptoTools + "]";
        }
    }

    /**
     * lango.security.approval.*: which tool calls wait for a person (by the tool's declared safety,
     * or the sensitive tools named), which never do, and how long a request waits before it counts as denied.
     */
    public record Approval(Policy policy, java.util.Set<String> sensitiveTools, java.util.Set<String> exemptTools,
                           Duration timeout) {

        /** dangerous: dangerous calls ask; all: every call asks; configured: only the sensitive tools ask; none: nothing asks. */
        public enum Policy { DANGEROUS, ALL, CONFIGURED, NONE }

        public static final Approval DEFAULT = new Approval(Policy.DANGEROUS, java.util.Set.of(), java.util.Set.of(),
                Duration.ofSeconds(30));

        public Approval {
            sensitiveTools = java.util.Set.copyOf(sensitiveTools);
            exemptTools = java.util.Set.copyOf(exemptTools);
        }
    }

    /** lango.http.port and lango.http.host: where the server listens. */
    public record Http(int port, String host) {
    }

    /** lango.data.dir and lango.db.*: where the data lives. */
    public record Database(Path dataDir, DbKind kind, Optional<String> url, Optional<String> user,
                           Optional<String> password) {
        @Override
        public String toString() {
            return "Database[dataDir=" + dataDir + ", kind=" + kind.key() + ", url=" + url.map(Redaction::jdbcUrl).orElse("-")
                    + ", user=" + user.orElse("-") + ", password=" + password.map(p -> Redaction.MASK).orElse("-") + "]";
        }
    }

    /** lango.provider, lango.providers.<id>.* and lango.model: the agent's model. */
    public record Model(Optional<ModelProvider> provider, Optional<String> name) {
    }

    /**
     * lango.session.ttl, lango.agent.token-budget (0: derived from the model's family) and
     * lango.session.lease-timeout: on PostgreSQL, how long a server that stopped answering (killed,
     * cut off) keeps the session whose turn it was running before another server may take it.
     */
    public record Sessions(Duration ttl, int tokenBudget, Duration leaseTimeout) {

        public static final Duration DEFAULT_LEASE_TIMEOUT = Duration.ofSeconds(30);

        public Sessions(Duration ttl, int tokenBudget) {
            this(ttl, tokenBudget, DEFAULT_LEASE_TIMEOUT);
        }
    }

    /**
     * lango.a2a.*: whether this server serves its agent card and the A2A JSON-RPC endpoint, and the
     * remote A2A agents (name → agent card URL, in the order configured).
     */
    public record A2a(boolean enabled, Map<String, URI> remoteAgents) {

        /** lango.a2a.* unset: A2A off, no remote agents. */
        public static final A2a DISABLED = new A2a(false, Map.of());
    }

    /**
     * What the edges let through: lango.auth.token, the origins allowed to open /ws besides the
     * server's own, the Host names HTTP and /ws answer to (loopback names when empty), the largest
     * request body on /api, and how long /ws waits for the auth frame.
     */
    public record Access(Optional<String> token, List<String> allowedOrigins, List<String> allowedHosts,
                         long maxBody, Duration authTimeout, Optional<Jwt> jwt, Quotas quotas) {

        /** The token and limits, without JWTs, with the default quotas. */
        public Access(Optional<String> token, List<String> allowedOrigins, List<String> allowedHosts, long maxBody,
                      Duration authTimeout) {
            this(token, allowedOrigins, allowedHosts, maxBody, authTimeout, Optional.empty(), Quotas.DEFAULT);
        }

        /** Whether callers must show a credential: the operator's token, or JWTs (users' API tokens need either). */
        public boolean authenticates() {
            return token.isPresent() || jwt.isPresent();
        }

        /** lango.http.max-body's default: 1 MiB. */
        public static final long DEFAULT_MAX_BODY = 1024 * 1024;
        /** lango.ws.auth-timeout's default. */
        public static final Duration DEFAULT_AUTH_TIMEOUT = Duration.ofSeconds(10);

        /** The token and origins with every other limit at its default. */
        public Access(Optional<String> token, List<String> allowedOrigins) {
            this(token, allowedOrigins, List.of(), DEFAULT_MAX_BODY, DEFAULT_AUTH_TIMEOUT);
        }

        @Override
        public String toString() {
            return "Access[token=" + token.map(t -> Redaction.MASK).orElse("-") + ", allowedOrigins=" + allowedOrigins
                    + ", allowedHosts=" + allowedHosts + ", maxBody=" + maxBody + ", authTimeout=" + authTimeout
                    + ", jwt=" + jwt.map(Jwt::toString).orElse("-") + ", quotas=" + quotas + "]";
        }
    }

    /** lango.quota.*: what one user who does not administer may use; 0 is no limit. */
    public record Quotas(int sessionsPerUser, int requestsPerMinute, int concurrentTurns, long sessionStateMax) {

        public static final Quotas DEFAULT = new Quotas(1000, 600, 4, 64 * 1024);
    }

    /**
     * lango.auth.jwt.*: JWTs from the team's identity provider, signed by {@code publicKey} (PEM or a
     * JWK set) or a key of {@code jwksUrl}; the user is the upn (else preferred_username, else sub),
     * an administrator when the groups claim holds {@code adminGroup}.
     */
    public record Jwt(String issuer, Optional<String> publicKey, Optional<URI> jwksUrl, Optional<String> audience,
                      String adminGroup) {
    }

    /**
     * The provider chosen by lango.provider, with its lango.providers.<id>.* values and
     * lango.provider.read-timeout: the longest a model may stay silent, before its answer begins or
     * between two of its pieces.
     */
    public record ModelProvider(String id, Optional<String> baseUrl, Optional<String> apiKey, Duration readTimeout) {

        /** lango.provider.read-timeout when unset. */
        public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);

        public ModelProvider(String id, Optional<String> baseUrl, Optional<String> apiKey) {
            this(id, baseUrl, apiKey, DEFAULT_READ_TIMEOUT);
        }

        @Override
        public String toString() {
            return "ModelProvider[id=" + id + ", baseUrl=" + baseUrl.orElse("-") + ", apiKey="
                    + apiKey.map(k -> Redaction.MASK).orElse("-") + ", readTimeout=" + readTimeout + "]";
        }
    }

    /**
     * lango.agent.*: the bounds of one run, and how long a stopping server lets the turns in flight
     * finish before it ends them with a stored error.
     */
    public record AgentLimits(boolean multiAgent, int maxTurns, int maxDelegationRounds, boolean errorCorrection,
                              Duration requestTimeout, Duration shutdownGrace, int toolIoMaxChars) {

        /** lango.agent.shutdown-grace when unset. */
        public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);
        /** lango.agent.tool-io-max-chars when unset: about 4,000 tokens per tool call and per result. */
        public static final int DEFAULT_TOOL_IO_MAX_CHARS = 16_000;

        /** The bounds of a run with the default shutdown grace and tool input bound. */
        public AgentLimits(boolean multiAgent, int maxTurns, int maxDelegationRounds, boolean errorCorrection,
                           Duration requestTimeout) {
            this(multiAgent, maxTurns, maxDelegationRounds, errorCorrection, requestTimeout, DEFAULT_SHUTDOWN_GRACE,
                    DEFAULT_TOOL_IO_MAX_CHARS);
        }
    }

    /**
     * lango.tools.*: the workspace the file tools and exec work in, and exec's switch, timeout and
     * pass-through variables. With {@code workspacePerUser} (authentication on) a user's tools work
     * in a folder of their own under the workspace ({@link #workspaceOf}).
     */
    public record ToolSettings(Path workspace, boolean execEnabled, Duration execTimeout, List<String> execEnv,
                               boolean workspacePerUser) {

        /** Where users' folders are, under the workspace. */
        public static final String USERS_FOLDER = "users";

        /** Without pass-through variables, one workspace for every caller. */
        public ToolSettings(Path workspace, boolean execEnabled, Duration execTimeout) {
            this(workspace, execEnabled, execTimeout, List.of(), false);
        }

        /**
         * The folder {@code userId}'s tools work in: the workspace itself for the operator (the user
         * {@code operatorUser}, who administers and so reaches every user's files) and while every
         * caller is the operator; else {@code users/<userId>} under it (a user id holds no '/').
         */
        public Path workspaceOf(String userId, String operatorUser) {
            if (!workspacePerUser || userId == null || userId.equals(operatorUser)) {
                return workspace;
            }
            return workspace.resolve(USERS_FOLDER).resolve(userId);
        }
    }

    /**
     * lango.memory.*: observational memory. The observer and reflector use their own provider and
     * model when set, else the agent's; the thresholds are in tokens (the meta-reflection threshold
     * in reflections), the budget is the memory section's.
     */
    public record Memory(boolean enabled, Optional<ModelProvider> provider, Optional<String> model,
                         int observationThreshold, int reflectionThreshold, int metaReflectionThreshold,
                         int tokenBudget) {

        public static final int DEFAULT_OBSERVATION_THRESHOLD = 1000;
        public static final int DEFAULT_REFLECTION_THRESHOLD = 2000;
        public static final int DEFAULT_META_REFLECTION_THRESHOLD = 5;
        public static final int DEFAULT_TOKEN_BUDGET = 4000;

        /** lango.memory.* unset: memory off. */
        public static final Memory DISABLED = new Memory(false, Optional.empty(), Optional.empty(),
                DEFAULT_OBSERVATION_THRESHOLD, DEFAULT_REFLECTION_THRESHOLD, DEFAULT_META_REFLECTION_THRESHOLD,
                DEFAULT_TOKEN_BUDGET);
    }

    /**
     * lango.knowledge.*: the knowledge store, the learning engine and their tools (on by default when
     * a model is configured), and the token budget of each prompt section they add.
     */
    public record Knowledge(boolean enabled, int contextBudget, int maxEntryChars) {

        public static final int DEFAULT_CONTEXT_BUDGET = 1000;
        public static final int DEFAULT_MAX_ENTRY_CHARS = 10_000;

        public static final Knowledge DISABLED = new Knowledge(false, DEFAULT_CONTEXT_BUDGET, DEFAULT_MAX_ENTRY_CHARS);

        public Knowledge(boolean enabled, int contextBudget) {
            this(enabled, contextBudget, DEFAULT_MAX_ENTRY_CHARS);
        }
    }

    /**
     * lango.embedding.* and lango.graph.*: the embedding provider ({@code local}, in the server, by
     * default; {@code openai}, {@code gemini} or {@code ollama} with their lango.providers.* base URL
     * and key) and its model (empty: the provider's default), whether retrieved context goes into the
     * system prompt, and whether the knowledge graph is on.
     */
    public record Retrieval(String provider, Optional<String> model, Optional<String> baseUrl, Optional<String> apiKey,
                            boolean ragEnabled, boolean graphEnabled) {

        public static final String LOCAL = "local";
        /** The local provider's one model: all-MiniLM-L6-v2, quantized, in the server. */
        public static final String LOCAL_MODEL = "all-minilm-l6-v2-q";
        public static final java.util.List<String> PROVIDERS = java.util.List.of(LOCAL, "openai", "gemini", "ollama");

        /** Out of the box: the local model, no RAG section, no graph. */
        public static final Retrieval DEFAULTS = new Retrieval(LOCAL, Optional.empty(), Optional.empty(), Optional.empty(),
                false, false);

        @Override
        public String toString() {
            return "Retrieval[provider=" + provider + ", model=" + model.orElse("-") + ", baseUrl=" + baseUrl.orElse("-")
                    + ", apiKey=" + apiKey.map(k -> Redaction.MASK).orElse("-") + ", ragEnabled=" + ragEnabled
                    + ", graphEnabled=" + graphEnabled + "]";
        }
    }

    /** Every configured secret by its configuration key, for masking wherever text leaves the server or is stored. */
    public Map<String, String> secrets() {
        Map<String, String> secrets = new java.util.LinkedHashMap<>();
        access.token().ifPresent(t -> secrets.put(Keys.AUTH_TOKEN.key(), t));
        database.password().ifPresent(p -> secrets.put(Keys.DB_PASSWORD.key(), p));
        for (Optional<ModelProvider> provider : List.of(model.provider(), memory.provider())) {
            provider.ifPresent(p -> p.apiKey().ifPresent(k -> secrets.putIfAbsent(
                    ai.lango.provider.ProviderCatalog.configKey(p.id(), ai.lango.provider.ProviderCatalog.API_KEY), k)));
        }
        retrieval.apiKey().ifPresent(k -> secrets.putIfAbsent(
                ai.lango.provider.ProviderCatalog.configKey(retrieval.provider(), ai.lango.provider.ProviderCatalog.API_KEY), k));
        vault.passphrase().ifPresent(p -> secrets.put(Keys.PASSPHRASE.key(), p));
        payment.rpcUrl().ifPresent(u -> secrets.put(Keys.PAYMENT_RPC_URL.key(), u.toString()));
        // A remote agent's URL may carry a credential: user:password@ or a token parameter.
        a2a.remoteAgents().forEach((name, uri) -> {
            String userInfo = uri.getRawUserInfo();
            if (userInfo != null && userInfo.contains(":")) {
                secrets.putIfAbsent("lango.a2a.remote-agents." + name + ".password", userInfo.substring(userInfo.indexOf(':') + 1));
            }
            if (uri.getRawQuery() != null) {
                for (String parameter : uri.getRawQuery().split("&")) {
                    int eq = parameter.indexOf('=');
                    if (eq > 0 && parameter.substring(0, eq).toLowerCase(java.util.Locale.ROOT).matches(".*(token|key|secret|password).*")) {
                        secrets.putIfAbsent("lango.a2a.remote-agents." + name + "." + parameter.substring(0, eq), parameter.substring(eq + 1));
                    }
                }
            }
        });
        return secrets;
    }

    /** The databases Lango runs on: the embedded HSQLDB file database (the default) or PostgreSQL. */
    public enum DbKind {
        HSQLDB("hsqldb"), POSTGRESQL("postgresql");

        private final String key;

        DbKind(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        /**
         * Whether this server is the database's only user (the embedded file database, which one
         * process opens): what the server remembers of its rows is then exact.
         */
        public boolean exclusive() {
            return this == HSQLDB;
        }
    }

    @Override
    public String toString() {
        return "LangoSettings[http=" + http + ", database=" + database + ", model=" + model + ", sessions=" + sessions
                + ", agent=" + agent + ", tools=" + tools + ", access=" + access + ", a2a=" + a2a + ", retrieval=" + retrieval + "]";
    }
}
