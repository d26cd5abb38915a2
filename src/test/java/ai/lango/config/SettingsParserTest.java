package ai.lango.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsParserTest {

    private static final Path HOME = Path.of("/home/ann");

    private static LangoSettings parse(Map<String, String> values) {
        return new SettingsParser(key -> Optional.ofNullable(values.get(key)), values.keySet(), HOME).parse();
    }

    private static String error(Map<String, String> values) {
        return assertThrows(InvalidConfigurationException.class, () -> parse(values)).getMessage();
    }

    @Test
    void defaultsApplyWhenNothingIsSet() {
        LangoSettings settings = parse(Map.of());
        assertEquals(9080, settings.http().port());
        assertEquals("localhost", settings.http().host());
        assertEquals(Path.of("/home/ann/.lango"), settings.database().dataDir());
        assertEquals(LangoSettings.DbKind.HSQLDB, settings.database().kind());
        assertEquals(0, settings.sessions().tokenBudget());
        assertEquals(Duration.ZERO, settings.sessions().ttl());
    }

    @Test
    void pricesAreReadPerModelAsPropertiesOrEnvironmentVariablesName() {
        Map<String, String> values = new java.util.HashMap<>(Map.of("lango.pricing.gpt-4o-mini.input", "1",
                "lango.pricing.gpt-4o-mini.output", "2", "lango.pricing.gemini-2.5-flash.cached", "0.01"));
        // MicroProfile Config finds LANGO_PRICING_MY_LLAMA_INPUT for the key lango.pricing.my_llama.input
        values.put("LANGO_PRICING_MY_LLAMA_INPUT", "0.5");
        values.put("lango.pricing.my_llama.input", "0.5");
        Map<String, LangoSettings.Price> prices = parse(values).pricing().prices();
        assertEquals(new java.math.BigDecimal("1"), prices.get("gpt-4o-mini").input());
        assertEquals(new java.math.BigDecimal("2"), prices.get("gpt-4o-mini").output());
        assertEquals(null, prices.get("gpt-4o-mini").cached());
        assertEquals(new java.math.BigDecimal("0.01"), prices.get("gemini-2.5-flash").cached());
        assertEquals(new java.math.BigDecimal("0.5"), prices.get("my_llama").input());
        assertEquals("lango.pricing.gpt-4o-mini.input (LANGO_PRICING_GPT_4O_MINI_INPUT) has the invalid value \"cheap\"; accepted: "
                + "a decimal of zero or more with at most 6 places, such as 0", error(Map.of("lango.pricing.gpt-4o-mini.input", "cheap")));
    }

    @Test
    void execWithoutBubblewrapRefusesToEnableAndNamesThePackageUnlessTheSandboxIsTurnedOff() {
        String message = error(Map.of("lango.tools.exec.enabled", "true", "lango.tools.exec.bwrap", "/nowhere/bwrap"));
        assertTrue(message.contains("lango.tools.exec.bwrap") && message.contains("apt-get install bubblewrap")
                && message.contains("lango.tools.exec.sandbox=none"), message);
        assertTrue(parse(Map.of("lango.tools.exec.enabled", "true", "lango.tools.exec.bwrap", "/nowhere/bwrap",
                "lango.tools.exec.sandbox", "none")).tools().execSandbox().isEmpty(), "sandbox=none runs without it");
        assertTrue(parse(Map.of("lango.tools.exec.bwrap", "/nowhere/bwrap")).tools().execSandbox().isPresent(),
                "exec off: nothing is checked");
    }

    @Test
    void negativePortStopsTheStartNamingKeyAndAcceptedValues() {
        String message = error(Map.of("lango.http.port", "-1"));
        assertEquals("lango.http.port (LANGO_HTTP_PORT) has the invalid value \"-1\"; accepted: an integer from 1 to 65535", message);
    }

    @Test
    void compactionIsOnAtSevenTenthsKeepingFourTurnsAndAThresholdPastOneIsRefused() {
        LangoSettings.Compaction compaction = parse(Map.of()).agent().compaction();
        assertEquals(new LangoSettings.Compaction(true, 0.7, 4, java.util.Optional.empty(),
                java.time.Duration.ofSeconds(30)), compaction);
        assertEquals(0.5, parse(Map.of("lango.agent.compaction.threshold", "0.5")).agent().compaction().threshold());
        assertTrue(error(Map.of("lango.agent.compaction.threshold", "1.5")).contains("lango.agent.compaction.threshold"));
        assertTrue(error(Map.of("lango.agent.compaction.threshold", "0")).contains("a decimal above 0 and at most 1"));
    }

    @Test
    void nonNumericTokenBudgetIsRefused() {
        assertTrue(error(Map.of("lango.agent.token-budget", "lots")).startsWith("lango.agent.token-budget (LANGO_AGENT_TOKEN_BUDGET) has the invalid value \"lots\""));
    }

    @Test
    void unknownDatabaseKindIsRefused() {
        assertEquals("lango.db.kind (LANGO_DB_KIND) has the invalid value \"mysql\"; accepted: hsqldb or postgresql",
                error(Map.of("lango.db.kind", "mysql")));
    }

    @Test
    void shutdownGraceDefaultsToThirtySecondsAndIsBoundedByFiveMinutes() {
        assertEquals(Duration.ofSeconds(30), parse(Map.of()).agent().shutdownGrace());
        assertEquals(Duration.ofSeconds(5), parse(Map.of("lango.agent.shutdown-grace", "PT5S")).agent().shutdownGrace());
        assertEquals("lango.agent.shutdown-grace (LANGO_AGENT_SHUTDOWN_GRACE) has the invalid value \"PT6M\"; accepted: an ISO-8601 duration from PT0S to PT5M",
                error(Map.of("lango.agent.shutdown-grace", "PT6M")));
    }

    @Test
    void retiredH2KindIsRefusedSayingWhatToDoInstead() {
        String message = error(Map.of("lango.db.kind", "h2"));
        assertTrue(message.startsWith("lango.db.kind (LANGO_DB_KIND) has the invalid value \"h2\"; accepted: hsqldb or postgresql"), message);
        assertTrue(message.contains("imports what h2 kept in <data dir>/db/lango.mv.db"), message);
    }

    @Test
    void postgresqlNeedsAPostgresqlUrl() {
        assertTrue(error(Map.of("lango.db.kind", "postgresql")).startsWith("lango.db.url (LANGO_DB_URL) is not set"));
        assertTrue(error(Map.of("lango.db.kind", "postgresql", "lango.db.url", "jdbc:h2:mem:x"))
                .contains("jdbc:postgresql:"));
        LangoSettings pg = parse(Map.of("lango.db.kind", "POSTGRESQL", "lango.db.url", "jdbc:postgresql://db/lango"));
        assertEquals(LangoSettings.DbKind.POSTGRESQL, pg.database().kind());
    }

    @Test
    void malformedSessionTtlIsRefused() {
        assertTrue(error(Map.of("lango.session.ttl", "3 days")).startsWith("lango.session.ttl (LANGO_SESSION_TTL) has the invalid value \"3 days\""));
        assertEquals(Duration.ofDays(7), parse(Map.of("lango.session.ttl", "P7D")).sessions().ttl());
    }

    @Test
    void dataDirExpandsTildeToHome() {
        assertEquals(Path.of("/home/ann/lango-data"), parse(Map.of("lango.data.dir", "~/lango-data")).database().dataDir());
    }

    @Test
    void dataDirInsideTheServerDirectoryIsRefused() {
        String message = assertThrows(InvalidConfigurationException.class, () -> SettingsParser.requireOutside(
                Path.of("/opt/wlp/usr/servers/lango/data"), Path.of("/opt/wlp/usr/servers/lango"))).getMessage();
        assertTrue(message.startsWith("lango.data.dir (LANGO_DATA_DIR) has the invalid value"), message);
        SettingsParser.requireOutside(Path.of("/home/ann/.lango"), Path.of("/opt/wlp/usr/servers/lango"));
    }

    @Test
    void settingsNeverPrintThePassword() {
        LangoSettings pg = parse(Map.of("lango.db.kind", "postgresql",
                "lango.db.url", "jdbc:postgresql://db/lango?password=hunter2", "lango.db.password", "s3cret"));
        assertFalse(pg.toString().contains("s3cret"));
        assertFalse(pg.toString().contains("hunter2"));
    }

    @Test
    void unknownProviderIsRefusedNamingTheAcceptedOnes() {
        assertEquals("lango.provider (LANGO_PROVIDER) has the invalid value \"openia\"; accepted: openai, anthropic, gemini, ollama",
                error(Map.of("lango.provider", "openia")));
    }

    @Test
    void providerSettingsAreReadForTheChosenProvider() {
        LangoSettings settings = parse(Map.of("lango.provider", "openai",
                "lango.providers.openai.base-url", "http://127.0.0.1:8000/v1", "lango.providers.openai.api-key", "sk-1"));
        LangoSettings.ModelProvider provider = settings.model().provider().orElseThrow();
        assertEquals("openai", provider.id());
        assertEquals(Optional.of("http://127.0.0.1:8000/v1"), provider.baseUrl());
        assertFalse(settings.toString().contains("sk-1"), "the API key is never printed");
    }

    @Test
    void noProviderMeansNoModel() {
        assertTrue(parse(Map.of()).model().provider().isEmpty());
    }

    @Test
    void turnLimitOfZeroOrLessMeans25() {
        assertEquals(25, parse(Map.of("lango.agent.max-turns", "0")).agent().maxTurns());
        assertEquals(25, parse(Map.of("lango.agent.max-turns", "-3")).agent().maxTurns());
        assertEquals(7, parse(Map.of("lango.agent.max-turns", "7")).agent().maxTurns());
        assertEquals(10, parse(Map.of("lango.agent.max-delegation-rounds", "0")).agent().maxDelegationRounds());
    }

    @Test
    void malformedRequestTimeoutIsRefused() {
        assertTrue(error(Map.of("lango.agent.request-timeout", "5 minutes")).startsWith("lango.agent.request-timeout"));
    }

    @Test
    void execIsOffByDefaultAndWorkspaceLivesInTheDataDir() {
        LangoSettings settings = parse(Map.of());
        assertFalse(settings.tools().execEnabled());
        assertEquals(Path.of("/home/ann/.lango/workspace"), settings.tools().workspace());
        assertTrue(error(Map.of("lango.tools.exec.enabled", "yes")).endsWith("accepted: true or false"));
    }

    @Test
    void bindingBeyondLoopbackWithoutATokenRefusesToStart() {
        String message = error(Map.of("lango.http.host", "0.0.0.0"));
        assertTrue(message.contains("lango.auth.token is not set"), message);
        assertTrue(parse(Map.of("lango.http.host", "0.0.0.0", "lango.auth.token", "t")).access().token().isPresent());
        assertTrue(parse(Map.of("lango.http.host", "127.0.0.1")).access().token().isEmpty());
    }

    @Test
    void allowedOriginsMustBeOrigins() {
        assertTrue(error(Map.of("lango.http.allowed-origins", "evil.example")).startsWith("lango.http.allowed-origins"));
        assertEquals(java.util.List.of("https://a.example", "http://b.example:8080"),
                parse(Map.of("lango.http.allowed-origins", "https://a.example/, http://b.example:8080")).access().allowedOrigins());
    }

    @Test
    void authTokenIsNeverPrinted() {
        assertFalse(parse(Map.of("lango.auth.token", "tok-123")).toString().contains("tok-123"));
    }

    @Test
    void a2aIsOffWithNoRemoteAgentsByDefault() {
        LangoSettings.A2a a2a = parse(Map.of()).a2a();
        assertFalse(a2a.enabled());
        assertTrue(a2a.remoteAgents().isEmpty());
    }

    @Test
    void a2aEnabledMustBeTrueOrFalse() {
        assertTrue(parse(Map.of("lango.a2a.enabled", "TRUE")).a2a().enabled());
        assertEquals("lango.a2a.enabled (LANGO_A2A_ENABLED) has the invalid value \"on\"; accepted: true or false",
                error(Map.of("lango.a2a.enabled", "on")));
    }

    @Test
    void remoteAgentsKeepTheirConfiguredOrder() {
        LangoSettings.A2a a2a = parse(Map.of("lango.a2a.remote-agents",
                " zeta=http://127.0.0.1:9090/.well-known/agent.json, alpha_1=https://agents.example/a/agent-card.json,"
                        + "mid-2=http://[::1]:8080/card ,")).a2a();
        assertEquals(java.util.List.of("zeta", "alpha_1", "mid-2"), java.util.List.copyOf(a2a.remoteAgents().keySet()));
        assertEquals(java.net.URI.create("http://127.0.0.1:9090/.well-known/agent.json"), a2a.remoteAgents().get("zeta"));
        assertEquals(java.net.URI.create("http://[::1]:8080/card"), a2a.remoteAgents().get("mid-2"));
    }

    @Test
    void remoteAgentWithoutAnEqualsSignIsRefusedNamingKeyValueAndFormat() {
        String message = error(Map.of("lango.a2a.remote-agents", "http://127.0.0.1:9090/.well-known/agent.json"));
        assertEquals("lango.a2a.remote-agents (LANGO_A2A_REMOTE_AGENTS) has the invalid value \"http://127.0.0.1:9090/.well-known/agent.json\";"
                + " accepted: a comma-separated list of name=agentCardUrl pairs, such as"
                + " helper=http://127.0.0.1:9090/.well-known/agent.json", message);
    }

    @Test
    void remoteAgentNameMustBeAnAgentIdentifier() {
        for (String name : new String[] {"", "my agent", "agent.v2", "héllo"}) {
            String message = error(Map.of("lango.a2a.remote-agents", name + "=http://127.0.0.1:9090/card"));
            assertTrue(message.startsWith("lango.a2a.remote-agents (LANGO_A2A_REMOTE_AGENTS) has the invalid value \"" + name + "=http://127.0.0.1:9090/card\""),
                    message);
            assertTrue(message.contains("letters, digits, '-' and '_'"), message);
        }
    }

    @Test
    void remoteAgentUrlMustBeAbsoluteHttpOrHttps() {
        for (String url : new String[] {"ftp://host/card", "/.well-known/agent.json", "http://", "not a url", ""}) {
            String message = error(Map.of("lango.a2a.remote-agents", "helper=" + url));
            assertTrue(message.startsWith("lango.a2a.remote-agents (LANGO_A2A_REMOTE_AGENTS) has the invalid value \"helper=" + url + "\""), message);
            assertTrue(message.contains("absolute http:// or https:// URLs"), message);
        }
    }

    @Test
    void remoteAgentNamedTwiceIsRefused() {
        String message = error(Map.of("lango.a2a.remote-agents", "a=http://h/1,a=http://h/2"));
        assertTrue(message.contains("\"a\" is given twice"), message);
    }

    @Test
    void execPassThroughNamesVariablesAndNeverLangoOnes() {
        assertEquals(java.util.List.of("JAVA_HOME", "GOPATH"),
                parse(Map.of("lango.tools.exec.env", "JAVA_HOME, GOPATH,JAVA_HOME")).tools().execEnv());
        assertTrue(parse(Map.of()).tools().execEnv().isEmpty());
        for (String name : new String[] {"LANGO_PROVIDERS_OPENAI_API_KEY", "lango_auth_token", "A-B", "1X"}) {
            String message = error(Map.of("lango.tools.exec.env", name));
            assertTrue(message.startsWith("lango.tools.exec.env (LANGO_TOOLS_EXEC_ENV) has the invalid value \"" + name + "\""), message);
        }
    }

    @Test
    void maxBodyDefaultsToOneMebibyteAndTakesBytesOrUnits() {
        assertEquals(1024 * 1024, parse(Map.of()).access().maxBody());
        assertEquals(2048, parse(Map.of("lango.http.max-body", "2048")).access().maxBody());
        assertEquals(512 * 1024, parse(Map.of("lango.http.max-body", "512KiB")).access().maxBody());
        assertEquals(4L * 1024 * 1024, parse(Map.of("lango.http.max-body", "4MiB")).access().maxBody());
        for (String bad : new String[] {"-1", "1GB", "lots", "100", "99999MiB"}) {
            assertTrue(error(Map.of("lango.http.max-body", bad)).startsWith("lango.http.max-body (LANGO_HTTP_MAX_BODY) has the invalid value"), bad);
        }
    }

    @Test
    void allowedHostsAreHostNamesOrAStar() {
        assertEquals(java.util.List.of("chat.example.com", "192.0.2.10", "[::1]"),
                parse(Map.of("lango.http.allowed-hosts", "Chat.Example.com, 192.0.2.10,[::1]")).access().allowedHosts());
        assertTrue(error(Map.of("lango.http.allowed-hosts", "http://x.example")).startsWith("lango.http.allowed-hosts (LANGO_HTTP_ALLOWED_HOSTS) has the invalid value"));
        assertTrue(error(Map.of("lango.http.allowed-hosts", "x.example:8080")).contains("without a port"));
    }

    @Test
    void authTimeoutIsAPositiveDuration() {
        assertEquals(Duration.ofSeconds(10), parse(Map.of()).access().authTimeout());
        assertEquals(Duration.ofSeconds(2), parse(Map.of("lango.ws.auth-timeout", "PT2S")).access().authTimeout());
        assertTrue(error(Map.of("lango.ws.auth-timeout", "PT0S")).startsWith("lango.ws.auth-timeout (LANGO_WS_AUTH_TIMEOUT) has the invalid value"));
    }

    @Test
    void secretsAreTheTokenTheDatabasePasswordAndTheProviderKey() {
        LangoSettings settings = parse(Map.of("lango.auth.token", "tok-123456789", "lango.db.password", "pw-123456789",
                "lango.provider", "openai", "lango.providers.openai.api-key", "sk-123456789"));
        assertEquals(java.util.Set.of("tok-123456789", "pw-123456789", "sk-123456789"), java.util.Set.copyOf(settings.secrets().values()));
    }

    @Test
    void embeddingsAreLocalAndOfflineByDefaultWithRagAndGraphOff() {
        LangoSettings.Retrieval retrieval = parse(Map.of()).retrieval();
        assertEquals("local", retrieval.provider());
        assertTrue(retrieval.model().isEmpty());
        assertTrue(retrieval.apiKey().isEmpty());
        assertFalse(retrieval.ragEnabled());
        assertFalse(retrieval.graphEnabled());
    }

    @Test
    void unknownEmbeddingProviderIsRefusedNamingTheAcceptedOnes() {
        String message = error(Map.of("lango.embedding.provider", "anthropic"));
        assertTrue(message.contains("lango.embedding.provider") && message.contains("local, openai, gemini, ollama"), message);
    }

    @Test
    void theLocalProviderRefusesAnotherModel() {
        String message = error(Map.of("lango.embedding.model", "bge-small"));
        assertTrue(message.contains("lango.embedding.model") && message.contains("all-minilm-l6-v2-q"), message);
    }

    @Test
    void aRemoteEmbeddingProviderTakesItsProvidersUrlAndKeyWhichStaySecret() {
        LangoSettings settings = parse(Map.of("lango.embedding.provider", "OpenAI", "lango.embedding.model", "text-embedding-3-large",
                "lango.providers.openai.api-key", "sk-embed", "lango.providers.openai.base-url", "http://127.0.0.1:8080/v1",
                "lango.embedding.rag.enabled", "true", "lango.graph.enabled", "true"));
        LangoSettings.Retrieval retrieval = settings.retrieval();
        assertEquals("openai", retrieval.provider());
        assertEquals(Optional.of("text-embedding-3-large"), retrieval.model());
        assertEquals(Optional.of("http://127.0.0.1:8080/v1"), retrieval.baseUrl());
        assertEquals(Optional.of("sk-embed"), retrieval.apiKey());
        assertTrue(retrieval.ragEnabled() && retrieval.graphEnabled());
        assertTrue(settings.secrets().containsValue("sk-embed"));
        assertFalse(settings.toString().contains("sk-embed"), settings.toString());
    }

    @Test
    void paymentsOnWithoutAnRpcUrlRefuseTheStartNamingTheKey() {
        String message = error(Map.of("lango.payment.enabled", "true"));
        assertTrue(message.startsWith("lango.payment.rpc-url "), message);
        assertTrue(message.contains("required when lango.payment.enabled=true"), message);
    }

    @Test
    void paymentLimitsAreExactDecimalsAndTheRpcUrlIsASecret() {
        LangoSettings settings = parse(Map.of("lango.payment.enabled", "true", "lango.payment.rpc-url",
                "https://base-sepolia.example/v2/key-abc123", "lango.payment.limits.max-per-tx", "0.25"));
        assertEquals(new java.math.BigDecimal("0.25"), settings.payment().maxPerTx());
        assertEquals(new java.math.BigDecimal("10.00"), settings.payment().maxDaily());
        assertEquals(84532, settings.payment().chainId());
        assertEquals(LangoSettings.Payment.BASE_SEPOLIA_USDC, settings.payment().usdcContract());
        assertTrue(settings.secrets().containsValue("https://base-sepolia.example/v2/key-abc123"));
        assertFalse(settings.toString().contains("key-abc123"), settings.toString());
        assertTrue(error(Map.of("lango.payment.limits.max-daily", "1e3")).startsWith("lango.payment.limits.max-daily (LANGO_PAYMENT_LIMITS_MAX_DAILY) has the"
                + " invalid value \"1e3\""));
        assertTrue(error(Map.of("lango.payment.limits.max-per-tx", "0.0000001")).contains("at most 6 places"));
        assertTrue(error(Map.of("lango.payment.enabled", "true", "lango.payment.rpc-url", "http://x:8545", "lango.payment.chain-id",
                "1")).startsWith("lango.payment.usdc-contract "));
    }
}
