package ai.lango.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The WebSocket load benchmark: {@code sessions} concurrent chat sessions against the real Lango
 * server on Liberty, and the same agent and model on ADK's own API server (google-adk-dev) through
 * /run_sse, in alternating rounds. The fake model writes like a real one: {@code first} ms before
 * its first chunk, then {@code chunks} chunks {@code gap} ms apart ({@link ChunkingModel}).
 *
 * <p>Because every chunk carries when the model received the request and when it wrote the chunk,
 * the benchmark reports each server's own overhead: to the first chunk (the client's time to first
 * chunk minus the model's) and between chunks (the gap the client saw minus the gap the model
 * left), besides turns/s, errors and RSS, per round and as medians.
 *
 * <p>Run with {@code mvn -B -Pload -DskipTests verify}; -Dload.rounds, -Dload.sessions,
 * -Dload.turns, -Dload.warmup, -Dload.chunks, -Dload.first and -Dload.gap change the shape.
 */
public final class LoadBenchmark {

    static final int LANGO_PORT = 19180;
    static final int ADK_PORT = 19190;
    static final int MODEL_PORT = 19199;

    /** Concurrent sessions; a list ("100,200") runs the rounds once for each. */
    private static final List<Integer> SESSION_COUNTS = java.util.Arrays.stream(System.getProperty("load.sessions", "200")
            .split(",")).map(String::trim).map(Integer::valueOf).toList();
    static final int SESSIONS = SESSION_COUNTS.get(0);
    private static final int TURNS = Integer.getInteger("load.turns", 5);
    private static final int WARMUP = Integer.getInteger("load.warmup", 2);
    private static final int CHUNKS = Integer.getInteger("load.chunks", 50);
    static final int ROUNDS = Integer.getInteger("load.rounds", 6);
    /** The first warm round: the targets are judged on the rounds from it on (by default the second half). */
    static final int WARM_FROM = Integer.getInteger("load.warm-from", ROUNDS / 2 + 1);
    /** The model's own time to its first chunk and between chunks, in ms. */
    private static final int FIRST_MS = Integer.getInteger("load.first", 300);
    private static final int GAP_MS = Integer.getInteger("load.gap", 20);
    /**
     * What Lango is compared with: {@code adk} (ADK's API server), {@code memory} (Lango with memory
     * off against memory on), {@code telemetry} (tracing off against on, exporting over OTLP) or {@code scale}
     * (one server on PostgreSQL against two on the same one).
     */
    private static final String COMPARE = System.getProperty("load.compare", "adk");
    /** Idle /ws sockets to open on Lango before the rounds ({@link IdleSockets}); 0: none. */
    private static final int IDLE = Integer.getInteger("load.idle", 0);

    /**
     * What one side of the benchmark measured: time to first chunk and the gap between chunks as
     * the client saw them, and the server's overhead in each (unstamped chunks are not counted there).
     */
    record Result(String label, int turns, int errors, double seconds, Sample firstChunk, Sample chunkGap,
                  Sample firstChunkOverhead, Sample gapOverhead, Sample tail, double chunksPerTurn, long rssKb,
                  long cpuNanos, double load) {
        double turnsPerSecond() {
            return turns / seconds;
        }

        /** The server's own CPU time (user + system, every thread) per measured turn, in ms. */
        double cpuMillisPerTurn() {
            return turns == 0 ? Double.NaN : cpuNanos / 1e6 / turns;
        }
    }

    /** What run() reads off a server process: its RSS in KiB and its CPU time so far in ns. */
    record Probe(java.util.function.LongSupplier rssKb, java.util.function.LongSupplier cpuNanos) {
        static Probe of(Liberty server) {
            return new Probe(server::rssKb, server::cpuNanos);
        }

        static Probe of(long pid) {
            return new Probe(() -> Liberty.rssKb(pid), () -> Liberty.cpuNanos(pid));
        }

        Probe plus(Probe other) {
            return new Probe(() -> rssKb.getAsLong() + other.rssKb.getAsLong(),
                    () -> cpuNanos.getAsLong() + other.cpuNanos.getAsLong());
        }
    }

    interface DriverFactory {
        Driver open(int session) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Path wlp = Path.of(args[0]).toAbsolutePath();
        Path work = Path.of(args[1]).toAbsolutePath();
        Files.createDirectories(work);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(8)).build();
        System.out.printf("load: %d rounds of %s sessions x (%d warm-up + %d measured) turns, %d chunks per answer,"
                + " the model's first chunk after %d ms and then one every %d ms, %d cores%n",
                ROUNDS, SESSION_COUNTS.toString(), WARMUP, TURNS, CHUNKS, FIRST_MS, GAP_MS, Runtime.getRuntime().availableProcessors());
        List<Result> lango = new ArrayList<>();
        List<Result> adk = new ArrayList<>();
        IdleSockets.Result idle = null;
        try (ChunkingModel model = new ChunkingModel(MODEL_PORT, CHUNKS,
                Duration.ofMillis(FIRST_MS), Duration.ofMillis(GAP_MS))) {
            String modelUrl = "http://127.0.0.1:" + MODEL_PORT + "/v1";
            Map<String, String> environment = Map.of(
                    "LANGO_HTTP_PORT", String.valueOf(LANGO_PORT), "LANGO_DATA_DIR", work.resolve("lango-data").toString(),
                    "LANGO_PROVIDER", "openai", "LANGO_MODEL", "load-model",
                    "LANGO_PROVIDERS_OPENAI_BASE_URL", modelUrl, "LANGO_PROVIDERS_OPENAI_API_KEY", "sk-load",
                    "LANGO_TOOLS_WORKSPACE", work.resolve("workspace").toString(),
                    // Extra JVM options for the server only, e.g. a flight recording of the run.
                    "JVM_ARGS", System.getProperty("load.server.jvm-args", ""));
            if ("scale".equals(COMPARE)) {
                ScaleComparison.run(wlp, work, http, environment, lango, adk);
                print("one server on PostgreSQL", lango, "two servers on PostgreSQL", adk, false);
                System.exit(0);
            }
            if ("telemetry".equals(COMPARE)) {
                compareTelemetry(wlp, work, http, environment, lango, adk);
                print("Lango, tracing off", lango, "Lango, tracing on", adk, false);
                System.exit(0);
            }
            if ("memory".equals(COMPARE)) {
                compareMemory(wlp, work, http, environment, lango, adk);
                System.out.printf("the fake model answered %d requests, %d of them the memory's observer and reflector%n",
                        model.requests.get(), model.memoryRequests.get());
                print("Lango, memory off", lango, "Lango, memory on", adk, false);
                System.exit(0);
            }
            try (Liberty server = Liberty.start(wlp, "lango-load", environment)) {
                Process adkServer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), "ai.lango.adk.AdkApiServerMain",
                        String.valueOf(ADK_PORT), modelUrl, work.resolve("adk-workspace").toString())
                        .redirectErrorStream(true).redirectOutput(work.resolve("adk-server.log").toFile()).start();
                try {
                    URI ws = URI.create("ws://127.0.0.1:" + LANGO_PORT + "/ws");
                    URI base = URI.create("http://127.0.0.1:" + ADK_PORT + "/");
                    awaitUp(http, URI.create("http://127.0.0.1:" + LANGO_PORT + "/api/list-apps"), () -> true);
                    awaitUp(http, base.resolve("list-apps"), adkServer::isAlive);
                    if (IDLE > 0) { // on the server as started, before any round grew its heap
                        idle = IdleSockets.measure(http, LANGO_PORT, server.pid(), IDLE, work, () ->
                                new WebSocketDriver(http, ws, "idle-" + System.nanoTime()).turn("a turn beside idle sockets",
                                        (at, text) -> { }) > 0);
                        IdleSockets.print(idle);
                    }
                    // Both servers stay up and take turns, so a machine that speeds up or slows down
                    // during the run (this one does) weighs on both sides alike.
                    for (int sessions : SESSION_COUNTS) {
                        for (int round = 1; round <= ROUNDS; round++) {
                            lango.add(run("Lango, " + sessions + " sessions, round " + round, sessions,
                                    session -> new WebSocketDriver(http, ws, "load-" + System.nanoTime() + "-" + session),
                                    Probe.of(server)));
                            adk.add(run("ADK, " + sessions + " sessions, round " + round, sessions,
                                    session -> new SseDriver(http, base, "lango-agent", "load-" + System.nanoTime() + "-" + session),
                                    Probe.of(adkServer.pid())));
                        }
                    }
                } finally {
                    adkServer.destroy();
                    adkServer.waitFor();
                }
            }
        }
        if (ROUNDS > 0) {
            for (int i = 0; i < SESSION_COUNTS.size(); i++) {
                int from = i * ROUNDS;
                print("Lango", lango.subList(from, from + ROUNDS), "ADK", adk.subList(from, from + ROUNDS), true);
            }
            LoadTable.write(work, lango, adk, SESSION_COUNTS, ROUNDS, WARM_FROM, idle);
        } else if (idle != null) {
            IdleSockets.print(idle);
        }
        System.exit(0);
    }

    /**
     * Memory off against memory on: the same server twice (the second from a copy of its directory,
     * on the next port, with a database of its own), in alternating rounds. With memory on the
     * observer and reflector fire every few turns (low thresholds) and ask the same fake model.
     */
    private static void compareMemory(Path wlp, Path work, HttpClient http, Map<String, String> environment,
                                      List<Result> off, List<Result> on) throws Exception {
        copyServer(wlp, "lango-load-memory");
        Map<String, String> memoryOn = new java.util.HashMap<>(environment);
        memoryOn.put("LANGO_HTTP_PORT", String.valueOf(LANGO_PORT + 1));
        memoryOn.put("LANGO_DATA_DIR", work.resolve("lango-data-memory").toString());
        memoryOn.put("LANGO_MEMORY_ENABLED", "true");
        memoryOn.put("LANGO_MEMORY_OBSERVATION_THRESHOLD", "150");
        memoryOn.put("LANGO_MEMORY_REFLECTION_THRESHOLD", "300");
        try (Liberty plain = Liberty.start(wlp, "lango-load", environment);
             Liberty remembering = Liberty.start(wlp, "lango-load-memory", memoryOn)) {
            URI wsOff = URI.create("ws://127.0.0.1:" + LANGO_PORT + "/ws");
            URI wsOn = URI.create("ws://127.0.0.1:" + (LANGO_PORT + 1) + "/ws");
            awaitUp(http, URI.create("http://127.0.0.1:" + LANGO_PORT + "/api/list-apps"), () -> true);
            awaitUp(http, URI.create("http://127.0.0.1:" + (LANGO_PORT + 1) + "/api/list-apps"), () -> true);
            for (int round = 1; round <= ROUNDS; round++) {
                off.add(run("Lango, memory off, round " + round, session -> new WebSocketDriver(http, wsOff,
                        "load-" + System.nanoTime() + "-" + session), Probe.of(plain)));
                on.add(run("Lango, memory on, round " + round, session -> new WebSocketDriver(http, wsOn,
                        "load-" + System.nanoTime() + "-" + session), Probe.of(remembering)));
            }
        }
    }

    /**
     * Tracing off against tracing on (usage is recorded by both): the same server twice, the second exporting every
     * span and metric over OTLP (http/protobuf) to a receiver here that answers 200 and counts what it got.
     */
    private static void compareTelemetry(Path wlp, Path work, HttpClient http, Map<String, String> environment,
                                         List<Result> off, List<Result> on) throws Exception {
        copyServer(wlp, "lango-load-traced");
        com.sun.net.httpserver.HttpServer otlp = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        java.util.concurrent.atomic.AtomicLong exported = new java.util.concurrent.atomic.AtomicLong();
        otlp.createContext("/", exchange -> {
            try (exchange) {
                exported.addAndGet(exchange.getRequestBody().readAllBytes().length);
                exchange.sendResponseHeaders(200, -1);
            }
        });
        otlp.start();
        Map<String, String> traced = new java.util.HashMap<>(environment);
        traced.put("LANGO_HTTP_PORT", String.valueOf(LANGO_PORT + 1));
        traced.put("LANGO_DATA_DIR", work.resolve("lango-data-traced").toString());
        traced.put("OTEL_SDK_DISABLED", "false");
        traced.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
        traced.put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + otlp.getAddress().getPort());
        traced.put("OTEL_LOGS_EXPORTER", "none");
        try (Liberty plain = Liberty.start(wlp, "lango-load", environment);
             Liberty tracing = Liberty.start(wlp, "lango-load-traced", traced)) {
            URI wsOff = URI.create("ws://127.0.0.1:" + LANGO_PORT + "/ws");
            URI wsOn = URI.create("ws://127.0.0.1:" + (LANGO_PORT + 1) + "/ws");
            awaitUp(http, URI.create("http://127.0.0.1:" + LANGO_PORT + "/api/list-apps"), () -> true);
            awaitUp(http, URI.create("http://127.0.0.1:" + (LANGO_PORT + 1) + "/api/list-apps"), () -> true);
            for (int round = 1; round <= ROUNDS; round++) {
                off.add(run("Lango, tracing off, round " + round, session -> new WebSocketDriver(http, wsOff,
                        "load-" + System.nanoTime() + "-" + session), Probe.of(plain)));
                on.add(run("Lango, tracing on, round " + round, session -> new WebSocketDriver(http, wsOn,
                        "load-" + System.nanoTime() + "-" + session), Probe.of(tracing)));
            }
        } finally {
            otlp.stop(0);
        }
        System.out.printf("the OTLP receiver got %d KiB of spans and metrics%n", exported.get() / 1024);
    }

    /**
     * A second server from the load server's directory, as the README says to make one (without
     * its workarea and logs). Copied again every run: a copy kept from an earlier build would run
     * that build's application.
     */
    static void copyServer(Path wlp, String name) throws IOException {
        Path servers = wlp.resolve("usr/servers");
        Path copy = servers.resolve(name);
        try (var files = Files.walk(servers.resolve("lango-load"))) {
            for (Path source : (Iterable<Path>) files::iterator) {
                Path target = copy.resolve(servers.resolve("lango-load").relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else if (!source.toString().contains("/workarea/") && !source.toString().contains("/logs/")) {
                    Files.copy(source, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static Result run(String label, DriverFactory factory, Probe server) throws Exception {
        return run(label, SESSIONS, factory, server);
    }

    static Result run(String label, int sessionCount, DriverFactory factory, Probe server) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(sessionCount);
        Sample firstChunk = new Sample();
        Sample chunkGap = new Sample();
        Sample firstChunkOverhead = new Sample();
        Sample gapOverhead = new Sample();
        Sample tail = new Sample();
        AtomicInteger turns = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger chunks = new AtomicInteger();
        CyclicBarrier warmedUp = new CyclicBarrier(sessionCount + 1);
        CountDownLatch done = new CountDownLatch(sessionCount);
        List<Future<?>> sessions = new ArrayList<>();
        for (int s = 0; s < sessionCount; s++) {
            int session = s;
            sessions.add(threads.submit(() -> {
                try (Driver driver = factory.open(session)) {
                    for (int i = 0; i < WARMUP; i++) {
                        quietly(driver, "warm up " + i, errors, (at, text) -> { });
                    }
                    warmedUp.await();
                    for (int i = 0; i < TURNS; i++) {
                        long sent = System.nanoTime();
                        long[] last = {0, 0}; // arrival of the previous frame, and the model's write time of the previous chunk
                        Stamps stamps = new Stamps();
                        int got = quietly(driver, "question " + i + " from session " + session, errors, (at, text) -> {
                            if (last[0] == 0) {
                                firstChunk.add(at - sent);
                            } else {
                                chunkGap.add(at - last[0]);
                            }
                            last[0] = at;
                            // The overheads by the model's chunks, each from the frame its text begins in: Lango
                            // holds back a window of the latest text (secret masking), so its frames are not cut
                            // where the model's chunks are.
                            stamps.read(at, text, (shown, model) -> {
                                if (model[2] == 0) {
                                    firstChunkOverhead.add((shown - sent) - (model[1] - model[0]));
                                } else if (last[1] != 0) {
                                    gapOverhead.add((shown - stamps.previousShown) - (model[1] - last[1]));
                                }
                                last[1] = model[1];
                            });
                        });
                        if (got >= 0) {
                            if (last[0] != 0) {
                                tail.add(System.nanoTime() - last[0]);
                            }
                            turns.incrementAndGet();
                            chunks.addAndGet(got);
                        }
                    }
                } catch (Exception e) {
                    errors.incrementAndGet();
                    System.out.println(label + ": session " + session + " failed: " + e);
                } finally {
                    done.countDown();
                }
                return null;
            }));
        }
        warmedUp.await();
        long cpuBefore = server.cpuNanos().getAsLong();
        long start = System.nanoTime();
        done.await();
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpu = server.cpuNanos().getAsLong() - cpuBefore;
        long rssKb = server.rssKb().getAsLong();
        threads.shutdownNow();
        return new Result(label, turns.get(), errors.get(), seconds, firstChunk, chunkGap, firstChunkOverhead, gapOverhead,
                tail, turns.get() == 0 ? 0 : (double) chunks.get() / turns.get(), rssKb, cpu, loadAverage());
    }

    /**
     * The model's stamps ({@link ChunkingModel#stamp}) read from frames however they are cut: each stamp with when
     * the frame its text begins in arrived.
     */
    static final class Stamps {
        private final StringBuilder stamp = new StringBuilder();
        private long begun;
        private long shown;
        /** When the stamp before the one just read began to show. */
        long previousShown;

        interface Read {
            /** {@code model}: when the model got the request, when it wrote the chunk, and the chunk's number. */
            void stamp(long shown, long[] model);
        }

        void read(long at, String text, Read read) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (stamp.length() == 0) {
                    begun = at;
                }
                stamp.append(c);
                if (c == ' ') {
                    long[] model = ChunkingModel.stamps(stamp.toString());
                    stamp.setLength(0);
                    if (model != null) {
                        previousShown = shown;
                        shown = begun;
                        read.stamp(begun, model);
                    }
                }
            }
        }
    }

    private static int quietly(Driver driver, String message, AtomicInteger errors, Driver.Chunks chunk) {
        try {
            return driver.turn(message, chunk);
        } catch (Exception e) {
            if (errors.incrementAndGet() <= 5) {
                System.out.println("turn failed: " + e);
            }
            return -1;
        }
    }

    static void awaitUp(HttpClient http, URI probe, java.util.function.BooleanSupplier alive) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException("the server behind " + probe + " exited; see its log");
            }
            try {
                if (http.send(HttpRequest.newBuilder(probe).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(probe + " did not come up within 3 minutes");
    }

    private static void print(String ourName, List<Result> ours, String theirName, List<Result> theirs, boolean targets) {
        System.out.println();
        System.out.printf("%-42s %8s %7s %9s %9s %9s %9s %9s %9s %9s %7s %9s %7s %6s%n", "", "turns/s", "errors", "TTFC p50",
                "+ovh p50", "+ovh p99", "gap p50", "+ovh p50", "+ovh p99", "tail p50", "chunks", "CPU/turn", "RSS MB", "load");
        for (int i = 0; i < ours.size(); i++) {
            for (Result r : List.of(ours.get(i), theirs.get(i))) {
                System.out.printf("%-42s %8.1f %7d %9.1f %9.2f %9.2f %9.2f %9.3f %9.3f %9.2f %7.1f %9.2f %7.0f %6.2f%n",
                        r.label(), r.turnsPerSecond(), r.errors(), r.firstChunk().millis(50), r.firstChunkOverhead().millis(50),
                        r.firstChunkOverhead().millis(99), r.chunkGap().millis(50), r.gapOverhead().millis(50),
                        r.gapOverhead().millis(99), r.tail().millis(50), r.chunksPerTurn(), r.cpuMillisPerTurn(), r.rssKb() / 1024.0, r.load());
            }
        }
        System.out.printf("(times in ms; TTFC = request sent to first chunk received, the model's own first chunk at %d ms;"
                + " gap = time between two chunks of one answer as the client receives them, the model's %d ms;"
                + " +ovh = the server's overhead above the model's own time; tail = last chunk received to the turn's end; chunks = chunks per answer; CPU/turn = the server"
                + " process's CPU time per measured turn; load = the machine's 1-minute load average at the round's end)%n",
                FIRST_MS, GAP_MS);
        StringBuilder ratios = new StringBuilder();
        for (int i = 0; i < ours.size(); i++) {
            ratios.append(String.format(" %.2f", ours.get(i).turnsPerSecond() / theirs.get(i).turnsPerSecond()));
        }
        double a = median(ours.stream().mapToDouble(Result::turnsPerSecond).toArray());
        double b = median(theirs.stream().mapToDouble(Result::turnsPerSecond).toArray());
        System.out.printf("throughput, median of rounds: %s %.1f turns/s, %s %.1f turns/s, ratio %.3fx (per round:%s)%n",
                ourName, a, theirName, b, a / b, ratios);
        System.out.printf("overhead to first chunk p50, median of rounds: %s %.2f ms, %s %.2f ms%s%n",
                ourName, median(ours.stream().mapToDouble(r -> r.firstChunkOverhead().millis(50)).toArray()),
                theirName, median(theirs.stream().mapToDouble(r -> r.firstChunkOverhead().millis(50)).toArray()),
                targets ? " (target: Lango <= 10 ms and ahead)" : "");
        System.out.printf("chunk-gap overhead p99, median of rounds: %s %.3f ms, %s %.3f ms%s%n",
                ourName, median(ours.stream().mapToDouble(r -> r.gapOverhead().millis(99)).toArray()),
                theirName, median(theirs.stream().mapToDouble(r -> r.gapOverhead().millis(99)).toArray()),
                targets ? " (target: Lango <= 2 ms and ahead)" : "");
        System.out.printf("CPU per turn, median of rounds: %s %.2f ms, %s %.2f ms%s%n",
                ourName, median(ours.stream().mapToDouble(Result::cpuMillisPerTurn).toArray()),
                theirName, median(theirs.stream().mapToDouble(Result::cpuMillisPerTurn).toArray()),
                targets ? " (target: Lango <= ADK)" : "");
        if (!targets && ours.size() >= WARM_FROM) {
            // The difference beside the noise: how far apart the warm rounds of one and the same server are.
            double[] ourWarm = ours.subList(WARM_FROM - 1, ours.size()).stream().mapToDouble(Result::cpuMillisPerTurn).toArray();
            double[] theirWarm = theirs.subList(WARM_FROM - 1, theirs.size()).stream().mapToDouble(Result::cpuMillisPerTurn).toArray();
            double difference = median(theirWarm) - median(ourWarm);
            double noise = Math.max(spread(ourWarm), spread(theirWarm));
            System.out.printf("CPU per turn, warm rounds %d-%d: %s %.2f ms, %s %.2f ms, difference %+.2f ms (%+.1f%%);"
                    + " run-to-run noise (the widest spread of one server's warm rounds) %.2f ms: %s%n",
                    WARM_FROM, ours.size(), ourName, median(ourWarm), theirName, median(theirWarm), difference,
                    100 * difference / median(ourWarm), noise, Math.abs(difference) <= noise ? "within the noise" : "beyond the noise");
        }
    }

    private static double spread(double[] values) {
        return java.util.Arrays.stream(values).max().orElse(0) - java.util.Arrays.stream(values).min().orElse(0);
    }

    /** The machine's 1-minute load average, as /proc/loadavg gives it; NaN where it cannot tell. */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
