package ai.lango.adk.sessions;

import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.session.LocalTransactions;
import ai.lango.session.SessionLeases;
import ai.lango.session.SessionStore;
import ai.lango.turn.SessionRef;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A 300-turn conversation through the store's real code path (HSQLDB file database, the server's own store), once
 * with compaction and once with plain truncation at the same budget: the history each turn's model request carries
 * (estimated tokens) at turns 1, 100, 200 and 300, the time the turn's path spends reading it, and how many of the
 * facts planted every tenth turn ("remember fact N …") are still in the request. The summarizer is idealised — it
 * keeps every line that plants a fact and nothing else, within the summary's cap — so what is measured is the
 * mechanism (what the folds, boundaries, caps and truncation let through), not a model's summarising.
 */
public final class CompactionBenchmark {

    private static final int TURNS = 300;
    private static final int BUDGET = 4_000;
    private static final int[] MARKS = {1, 100, 200, 300};

    private CompactionBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/bench-compaction").toAbsolutePath();
        System.out.printf("%n300-turn conversation at a %,d-token budget (HSQLDB file database), facts planted every tenth"
                + " turn; the idealised summarizer keeps fact lines only%n", BUDGET);
        System.out.printf("%-11s %5s %15s %13s %12s %20s%n", "mode", "turn", "request tokens", "facts kept",
                "compactions*", "read per turn (ms)");
        for (boolean compacting : new boolean[] {true, false}) {
            try (LocalTransactions local = new LocalTransactions(dir.resolve(compacting ? "compaction" : "truncation"))) {
                run(local, dir, compacting);
            }
        }
    }

    private static void run(LocalTransactions local, Path dir, boolean compacting) {
        LangoSettings settings = TestSettings.of(dir, "lango.model", "bench-model", "lango.agent.token-budget",
                String.valueOf(BUDGET), "lango.agent.compaction.keep-recent-turns", "4",
                "lango.agent.compaction.enabled", String.valueOf(compacting));
        SessionStore store = local.serverStore(settings);
        JpaSessionService service = new JpaSessionService(store, settings);
        HistoryCompactor compactor = new HistoryCompactor();
        compactor.settings = settings;
        compactor.sessions = service;
        compactor.store = store;
        compactor.leases = new SessionLeases(settings);
        compactor.summarizer = (session, instruction, input) -> {
            Set<String> facts = new LinkedHashSet<>();
            input.lines().filter(l -> l.contains("remember fact")).forEach(l -> facts.add(l.substring(l.indexOf("remember fact"))));
            return "Facts given: " + String.join(" | ", facts);
        };
        if (compacting) {
            service.compactor = compactor;
        }
        SessionRef key = new SessionRef("lango", "bench", "bench-" + (compacting ? "compaction" : "truncation"));
        Random random = new Random(7);
        long clock = System.currentTimeMillis();
        int compactions = 0;
        long readNanos = 0; // since the last mark (the first turn's, which pays for the JIT, counted alone)
        int readTurns = 0;
        int mark = 0;
        for (int turn = 1; turn <= TURNS; turn++) {
            long started = System.nanoTime();
            Session session = compacting ? service.turnSession(key.appName(), key.userId(), key.key()).blockingGet()
                    : service.getSession(key.appName(), key.userId(), key.key(), Optional.empty()).blockingGet();
            readNanos += System.nanoTime() - started;
            readTurns++;
            String question = turn % 10 == 0
                    ? "Please remember fact " + turn + ": the value of K" + turn + " is V" + turn + "Q. " + words(random, 20)
                    : "Question " + turn + ": " + words(random, 20 + random.nextInt(60));
            if (turn == MARKS[mark]) {
                List<Event> request = new ArrayList<>(session.events());
                String sent = request.stream().map(CompactionBenchmark::text).reduce("", String::concat);
                long planted = 0;
                long kept = 0;
                for (int fact = 10; fact < turn; fact += 10) {
                    planted++;
                    kept += sent.contains("V" + fact + "Q") ? 1 : 0;
                }
                long stored = store.messages(key).stream().filter(m -> ai.lango.session.Roles.COMPACTION.equals(m.role())).count();
                System.out.printf("%-11s %5d %15d %13s %12s %20.2f%n", compacting ? "compaction" : "truncation", turn,
                        HistoryCompactor.tokens(request) + HistoryCompactor.tokens(List.of(user(question, clock))),
                        kept + " of " + planted, compactions + "+" + (stored - compactions), readNanos / 1e6 / readTurns);
                mark++;
                readNanos = 0;
                readTurns = 0;
            }
            List<Event> events = new ArrayList<>();
            events.add(user(question, ++clock));
            if (turn % 3 == 0) {
                String id = "call-" + turn;
                events.add(event(Content.builder().role("model").parts(List.of(Part.builder().functionCall(FunctionCall
                        .builder().id(id).name("fs_read").args(Map.of("path", "notes/" + turn + ".txt")).build()).build()))
                        .build(), ++clock));
                events.add(event(Content.builder().role("user").parts(List.of(Part.builder().functionResponse(
                        FunctionResponse.builder().id(id).name("fs_read").response(Map.of("content", words(random, 300)))
                                .build()).build())).build(), ++clock));
            }
            events.add(event(Content.builder().role("model").parts(List.of(Part.fromText("Answer " + turn + ": "
                    + words(random, 40 + random.nextInt(80))))).build(), ++clock));
            for (Event event : events) {
                service.appendEvent(session, event).blockingGet();
            }
            if (compacting && compactor.compact(key) == HistoryCompactor.Outcome.COMPACTED) {
                compactions++;
            }
        }
        System.out.printf("%-11s stored messages at the end: %d (none deleted)%n", compacting ? "compaction" : "truncation",
                store.messages(key).size());
        if (compacting) {
            System.out.println("* after a turn + before a turn (the synchronous tier)");
        }
    }

    private static Event user(String text, long at) {
        return Event.builder().id("u" + at).invocationId("i" + at).author("user").timestamp(at)
                .content(Content.builder().role("user").parts(List.of(Part.fromText(text))).build())
                .actions(EventActions.builder().build()).build();
    }

    private static Event event(Content content, long at) {
        return Event.builder().id("e" + at).invocationId("i" + at).author("lango-agent").timestamp(at).content(content)
                .actions(EventActions.builder().build()).build();
    }

    private static String text(Event event) {
        return event.content().flatMap(Content::parts).orElse(List.of()).stream()
                .map(p -> p.text().orElse("") + p.functionResponse().map(r -> String.valueOf(r.response())).orElse(""))
                .reduce("", String::concat);
    }

    private static final String[] WORDS = ("the of and to in is that for it as with was on be by this are at from or an"
            + " which have not but all were when we there can been has more if will one would so what about out up into"
            + " design figures report server turn model budget history").split(" ");

    private static String words(Random random, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        return text.toString();
    }
}
