package ai.lango.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The top of a flight recording's CPU profile, as docs/benchmarks.md shows it: the share of
 * execution samples per component (a sample counts once for every component on its stack) and per
 * method on top of the stack. {@code jfr print} fails on some of Liberty's generated methods, so
 * the recording is read here.
 *
 * <p>{@code java -cp target/test-classes ai.lango.load.ProfileTop <recording.jfr> [methods shown]};
 * the recording comes from the load benchmark run with
 * {@code -Dload.server.jvm-args=-XX:StartFlightRecording=filename=<recording.jfr>,settings=profile}.
 */
public final class ProfileTop {

    /** Components by package prefix, the first match wins. */
    private static final Map<String, String> COMPONENTS = components();

    private ProfileTop() {
    }

    private static Map<String, String> components() {
        Map<String, String> components = new LinkedHashMap<>();
        components.put("ai.lango.", "Lango");
        components.put("com.google.adk.", "ADK");
        components.put("com.google.genai.", "google-genai types");
        components.put("io.reactivex.", "RxJava");
        components.put("org.eclipse.persistence.", "EclipseLink");
        components.put("org.hsqldb.", "HSQLDB");
        components.put("org.postgresql.", "PostgreSQL driver");
        components.put("com.fasterxml.jackson.", "Jackson");
        components.put("com.ibm.tx.", "JTA (Liberty)");
        components.put("com.ibm.ws.rsadapter.", "connection pool (Liberty)");
        components.put("com.ibm.ejs.j2c.", "connection pool (Liberty)");
        components.put("com.ibm.ws.wsoc.", "WebSocket (Liberty)");
        components.put("com.ibm.ws.http.", "HTTP (Liberty)");
        components.put("com.ibm.ws.tcpchannel.", "TCP (Liberty)");
        components.put("io.opentelemetry.", "OpenTelemetry");
        components.put("java.net.http.", "HTTP client (JDK)");
        components.put("jdk.internal.net.http.", "HTTP client (JDK)");
        return components;
    }

    public static void main(String[] args) throws IOException {
        int shown = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        List<RecordedEvent> samples = RecordingFile.readAllEvents(Path.of(args[0])).stream()
                .filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample") && e.getStackTrace() != null)
                .toList();
        Map<String, Integer> byComponent = new TreeMap<>();
        Map<String, Integer> byTopMethod = new TreeMap<>();
        Map<String, Integer> byLangoMethod = new TreeMap<>();
        Map<String, Integer> selfByComponent = new TreeMap<>();
        for (RecordedEvent sample : samples) {
            // Frames of hidden methods (lambda forms) come without a method: they name no component.
            List<RecordedFrame> frames = sample.getStackTrace().getFrames().stream().filter(f -> f.getMethod() != null).toList();
            if (frames.isEmpty()) {
                continue;
            }
            byTopMethod.merge(name(frames.get(0)), 1, Integer::sum);
            // The JDK's frames count for whoever called them: the first frame of a known component.
            String owner = frames.stream().map(f -> component(f.getMethod().getType().getName()))
                    .filter(java.util.Objects::nonNull).findFirst().orElse("other (JDK, Liberty's threads)");
            selfByComponent.merge(owner, 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                if (frame.getMethod().getType().getName().startsWith("ai.lango.") && seen.add(name(frame))) {
                    byLangoMethod.merge(name(frame), 1, Integer::sum);
                }
                String component = component(frame.getMethod().getType().getName());
                if (component != null && seen.add(component)) {
                    byComponent.merge(component, 1, Integer::sum);
                }
            }
        }
        System.out.printf("%d execution samples in %s%n%nper component (on the stack, inclusive):%n", samples.size(), args[0]);
        print(byComponent, samples.size(), Integer.MAX_VALUE);
        System.out.printf("%nper component (self: the nearest component on the stack, the JDK's frames included):%n");
        print(selfByComponent, samples.size(), Integer.MAX_VALUE);
        System.out.printf("%nper method on top of the stack (self):%n");
        print(byTopMethod, samples.size(), shown);
        System.out.printf("%nper Lango method (on the stack, inclusive):%n");
        print(byLangoMethod, samples.size(), shown);
    }

    private static void print(Map<String, Integer> counts, int total, int limit) {
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(limit)
                .forEach(e -> System.out.printf("| %s | %.1f%% |%n", e.getKey(), 100.0 * e.getValue() / total));
    }

    private static String component(String type) {
        return COMPONENTS.entrySet().stream().filter(e -> type.startsWith(e.getKey())).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }
}
