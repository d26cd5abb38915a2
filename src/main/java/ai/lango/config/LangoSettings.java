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
                            Browser browser, Payment payment, Mcp mcp, Pricing pricing, Telemetry telemetry,
                            Eval eval, Schedules schedules) {

    /** lango.schedules.*: whether schedules fire, how many a user may have, how often one may fire, how late a missed one runs. */
    public record Schedules(@Key("lango.schedules.enabled") boolean enabled, @Key("lango.schedules.max-per-user") int maxPerUser,
                            @Key("lango.schedules.min-interval") Duration minInterval,
                            @Key("lango.schedules.missed-grace") Duration missedGrace) {
    }

    /** lango.eval.*: the folder of shared eval sets, how long one run may take, how many run at once. */
    public record Eval(Path dir, @Key("lango.eval.timeout") Duration timeout, @Key("lango.eval.max-runs") int maxRuns) {
    }

    /** lango.telemetry.*: what traces may carry. */
    public record Telemetry(@Key("lango.telemetry.capture-content") boolean captureContent) {
    }

    /**
     * lango.mcp.*: the mcpServers file whose servers' tools the agent gets, how long one of their calls
     * may take, how long a turn waits for a server still starting, how many failed starts in a row make a
     * server failed, and whether Lango serves its agent as an MCP server at /mcp.
     */
    public record Mcp(Path config, @Key("lango.mcp.call-timeout") Duration callTimeout,
                      @Key("lango.mcp.start-wait") Duration startWait,
                      @Key("lango.mcp.start-attempts") int startAttempts,
                      @Key("lango.mcp.server.enabled") boolean serverEnabled) {
    }

    /**
     * lango.payment.*: whether the payment tools are on, the chain (its JSON-RPC endpoint, id and USDC
     * contract), the limits in USDC, and x402.
     */
    public record Payment(@Key("lango.payment.enabled") boolean enabled, Optional<URI> rpcUrl,
                          @Key("lango.payment.chain-id") long chainId, String usdcContract,
                          @Key("lango.payment.limits.max-per-tx") java.math.BigDecimal maxPerTx,
                          @Key("lango.payment.limits.max-daily") java.math.BigDecimal maxDaily,
                          @Key("lango.payment.limits.auto-approve-below") java.math.BigDecimal autoApproveBelow,
                          @Key("lango.payment.x402.enabled") boolean x402,
                          @Key("lango.payment.x402.max-auto-pay") java.math.BigDecimal x402MaxAutoPay) {

        public static final String BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
        public static final String BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

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
    public record Browser(@Key("lango.tools.browser.enabled") boolean enabled, Path executable, Path node,
                          @Key("lango.tools.browser.session-timeout") Duration sessionTimeout,
                          @Key("lango.tools.browser.max-contexts") int maxContexts,
                          @Key("lango.tools.browser.allowed-hosts") List<String> allowedHosts,
                          @Key("lango.tools.browser.blocked-hosts") List<String> blockedHosts,
                          @Key("lango.tools.browser.snapshot-max-chars") int snapshotMaxChars,
                          @Key("lango.tools.browser.timeout") Duration timeout) {

        public Browser {
            allowedHosts = List.copyOf(allowedHosts);
            blockedHosts = List.copyOf(blockedHosts);
        }
    }

    /** lango.skills.*: whether skills are on, their folder, and the prompt tokens their descriptions may take. */
    public record Skills(@Key("lango.skills.enabled") boolean enabled, Path dir,
                         @Key("lango.skills.prompt-budget") int promptBudget) {
    }

    /**
     * The vault: the passphrase that seals its key (lango.security.passphrase, or the file
     * lango.security.passphrase-file names), else the key file it is sealed with; and whether the
     * secrets_ and crypto_ tools are on.
     */
    public record Vault(Optional<String> passphrase, Path keyFile, @Key("lango.tools.secrets.enabled") boolean secretsTools,
                        @Key("lango.tools.crypto.enabled") boolean cryptoTools) {

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
    public record Approval(@Key("lango.security.approval.policy") Policy policy,
                           @Key("lango.security.approval.sensitive-tools") java.util.Set<String> sensitiveTools,
                           @Key("lango.security.approval.exempt-tools") java.util.Set<String> exemptTools,
                           @Key("lango.security.approval.timeout") Duration timeout) {

        /** dangerous: dangerous calls ask; all: every call asks; configured: only the sensitive tools ask; none: nothing asks. */
        public enum Policy { DANGEROUS, ALL, CONFIGURED, NONE }

        public Approval {
            sensitiveTools = java.util.Set.copyOf(sensitiveTools);
            exemptTools = java.util.Set.copyOf(exemptTools);
        }
    }

    /** lango.http.port and lango.http.host: where the server listens. */
    public record Http(@Key("lango.http.port") int port, @Key("lango.http.host") String host) {
    }

    /** lango.data.dir and lango.db.*: where the data lives. */
    public record Database(Path dataDir, DbKind kind, Optional<String> url, @Key("lango.db.user") Optional<String> user,
                           @Key("lango.db.password") Optional<String> password) {
        @Override
        public String toString() {
            return "Database[dataDir=" + dataDir + ", kind=" + kind.key() + ", url=" + url.map(Redaction::jdbcUrl).orElse("-")
                    + ", user=" + user.orElse("-") + ", password=" + password.map(p -> Redaction.MASK).orElse("-") + "]";
        }
    }

    /** lango.provider, lango.providers.<id>.* and lango.model: the agent's model. */
    public record Model(Optional<ModelProvider> provider, @Key("lango.model") Optional<String> name) {
    }

    /**
     * lango.session.ttl, lango.agent.token-budget (0: derived from the model's family) and
     * lango.session.lease-timeout: on PostgreSQL, how long a server that stopped answering (killed,
     * cut off) keeps the session whose turn it was running before another server may take it.
     */
    public record Sessions(@Key("lango.session.ttl") Duration ttl, @Key("lango.agent.token-budget") int tokenBudget,
                           @Key("lango.session.lease-timeout") Duration leaseTimeout) {
    }

    /**
     * lango.a2a.*: whether this server serves its agent card and the A2A JSON-RPC endpoint, how many tasks a
     * user keeps, and the remote A2A agents (name → agent card URL, in the order configured).
     */
    public record A2a(@Key("lango.a2a.enabled") boolean enabled, @Key("lango.a2a.tasks-per-user") int tasksPerUser,
                      Map<String, URI> remoteAgents) {
    }

    /**
     * What the edges let through: lango.auth.token, the origins allowed to open /ws besides the
     * server's own, the Host names HTTP and /ws answer to (loopback names when empty), the largest
     * request body on /api, and how long /ws waits for the auth frame.
     */
    public record Access(@Key("lango.auth.token") Optional<String> token,
                         @Key("lango.http.allowed-origins") List<String> allowedOrigins,
                         @Key("lango.http.allowed-hosts") List<String> allowedHosts, @Key("lango.http.max-body") long maxBody,
                         @Key("lango.ws.auth-timeout") Duration authTimeout, Optional<Jwt> jwt, Quotas quotas) {

        /** Whether callers must show a credential: the operator's token, or JWTs (users' API tokens need either). */
        public boolean authenticates() {
            return token.isPresent() || jwt.isPresent();
        }

        @Override
        public String toString() {
            return "Access[token=" + token.map(t -> Redaction.MASK).orElse("-") + ", allowedOrigins=" + allowedOrigins
                    + ", allowedHosts=" + allowedHosts + ", maxBody=" + maxBody + ", authTimeout=" + authTimeout
                    + ", jwt=" + jwt.map(Jwt::toString).orElse("-") + ", quotas=" + quotas + "]";
        }
    }

    /** lango.quota.*: what one user who does not administer may use; 0 is no limit. */
    public record Quotas(@Key("lango.quota.sessions-per-user") int sessionsPerUser,
                         @Key("lango.quota.requests-per-minute") int requestsPerMinute,
                         @Key("lango.quota.concurrent-turns") int concurrentTurns,
                         @Key("lango.quota.session-state-max") long sessionStateMax,
                         @Key("lango.quota.tokens-per-day") int tokensPerDay,
                         @Key("lango.quota.cost-per-day") java.math.BigDecimal costPerDay,
                         @Key("lango.quota.cost-per-month") java.math.BigDecimal costPerMonth,
                         @Key("lango.quota.admins") boolean budgetsBindAdmins) {
    }

    /** lango.pricing.&lt;model&gt;.*: the prices set for models, in USD per million tokens, over the built-in ones. */
    public record Pricing(Map<String, Price> prices) {

        public Pricing {
            prices = Map.copyOf(prices);
        }
    }

    /** A model's price in USD per million tokens: input, output, and cached input (null: the input price). */
    public record Price(java.math.BigDecimal input, java.math.BigDecimal output, java.math.BigDecimal cached) {
    }

    /**
     * lango.auth.jwt.*: JWTs from the team's identity provider, signed by {@code publicKey} (PEM or a
     * JWK set) or a key of {@code jwksUrl}; the user is the upn (else preferred_username, else sub),
     * an administrator when the groups claim holds {@code adminGroup}; one person with a user of an
     * issued API token of the same name only when {@code linkTokenUsers}.
     */
    public record Jwt(String issuer, @Key("lango.auth.jwt.public-key") Optional<String> publicKey, Optional<URI> jwksUrl,
                      @Key("lango.auth.jwt.audience") Optional<String> audience,
                      @Key("lango.auth.jwt.admin-group") String adminGroup,
                      @Key("lango.auth.jwt.link-token-users") boolean linkTokenUsers) {
    }

    /**
     * The provider chosen by lango.provider, with its lango.providers.<id>.* values and
     * lango.provider.read-timeout: the longest a model may stay silent, before its answer begins or
     * between two of its pieces.
     */
    public record ModelProvider(String id, Optional<String> baseUrl, Optional<String> apiKey, Duration readTimeout) {

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
    public record AgentLimits(@Key("lango.agent.multi-agent") boolean multiAgent, @Key("lango.agent.max-turns") int maxTurns,
                              @Key("lango.agent.max-delegation-rounds") int maxDelegationRounds,
                              @Key("lango.agent.error-correction") boolean errorCorrection,
                              @Key("lango.agent.request-timeout") Duration requestTimeout,
                              @Key("lango.agent.shutdown-grace") Duration shutdownGrace,
                              @Key("lango.agent.tool-io-max-chars") int toolIoMaxChars,
                              @Key("lango.agent.resume") boolean resume,
                              @Key("lango.agent.resume-attempts") int resumeAttempts, Compaction compaction) {
    }

    /** lango.agent.compaction.*: when a long history is folded into a summary, what stays whole, and the summary's model. */
    public record Compaction(@Key("lango.agent.compaction.enabled") boolean enabled,
                             @Key("lango.agent.compaction.threshold") double threshold,
                             @Key("lango.agent.compaction.keep-recent-turns") int keepRecentTurns,
                             @Key("lango.agent.compaction.model") Optional<String> model,
                             @Key("lango.agent.compaction.wait") Duration turnWait) {
    }

    /**
     * lango.tools.*: the workspace the file tools and exec work in, and exec's switch, timeout and
     * pass-through variables, its sandbox (the bubblewrap binary; empty: none, lango.tools.exec.sandbox=none)
     * and whether its commands reach the network. With {@code workspacePerUser} (authentication on) a user's
     * tools work in a folder of their own under the workspace ({@link #workspaceOf}).
     */
    public record ToolSettings(Path workspace, @Key("lango.tools.exec.enabled") boolean execEnabled, Duration execTimeout,
                               @Key("lango.tools.exec.env") List<String> execEnv, boolean workspacePerUser,
                               Optional<Path> execSandbox, @Key("lango.tools.exec.network") boolean execNetwork) {

        /** Where users' folders are, under the workspace. */
        public static final String USERS_FOLDER = "users";

        /**
         * The folder {@code userId}'s tools work in, in {@code sessionKey}: in a session an eval run replays a case
         * in, a scratch folder of that user's session, never a user's files (a client chooses its session ids, so the
         * user is part of the folder: two users with one such id never share it); else {@link #workspaceOf(String,
         * String)}.
         */
        public Path workspaceOf(String userId, String sessionKey, String operatorUser) {
            if (ai.lango.turn.Names.isEvalSession(sessionKey)) {
                String user = userId == null ? operatorUser : userId;
                return Path.of(System.getProperty("java.io.tmpdir"), "lango-eval", user, sessionKey);
            }
            return workspaceOf(userId, operatorUser);
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
    public record Memory(@Key("lango.memory.enabled") boolean enabled, Optional<ModelProvider> provider,
                         @Key("lango.memory.model") Optional<String> model,
                         @Key("lango.memory.observation-threshold") int observationThreshold,
                         @Key("lango.memory.reflection-threshold") int reflectionThreshold,
                         @Key("lango.memory.meta-reflection-threshold") int metaReflectionThreshold,
                         @Key("lango.memory.token-budget") int tokenBudget) {
    }

    /**
     * lango.knowledge.*: the knowledge store, the learning engine and their tools (on by default when
     * a model is configured), and the token budget of each prompt section they add.
     */
    public record Knowledge(boolean enabled, @Key("lango.knowledge.context-budget") int contextBudget,
                            @Key("lango.knowledge.max-entry-chars") int maxEntryChars) {
    }

    /**
     * lango.embedding.* and lango.graph.*: the embedding provider ({@code local}, in the server, by
     * default; {@code openai}, {@code gemini} or {@code ollama} with their lango.providers.* base URL
     * and key) and its model (empty: the provider's default), whether retrieved context goes into the
     * system prompt, and whether the knowledge graph is on.
     */
    public record Retrieval(@Key("lango.embedding.provider") String provider, @Key("lango.embedding.model") Optional<String> model,
                            Optional<String> baseUrl, Optional<String> apiKey,
                            @Key("lango.embedding.rag.enabled") boolean ragEnabled, @Key("lango.graph.enabled") boolean graphEnabled) {

        public static final String LOCAL = Keys.EMBEDDING_LOCAL;
        /** The local provider's one model: all-MiniLM-L6-v2, quantized, in the server. */
        public static final String LOCAL_MODEL = "all-minilm-l6-v2-q";

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
