package ai.lango.adk.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.adk.events.Event;
import org.junit.jupiter.api.Test;

/** The answer's text from a run's events. */
class TextCollectorTest {

    @Test
    void textOfEachAgentInOneRunIsItsOwnParagraph() {
        TextCollector collector = new TextCollector();
        for (String[] spoken : new String[][] {{"executor", "The file "}, {"executor", "is written."},
                {"lango-orchestrator", "All done."}}) {
            collector.accept(Event.builder().id(Event.generateEventId())
                    .invocationId("i").author(spoken[0]).content(ScriptedLlm.text(spoken[1]).content().orElseThrow()).build());
        }
        assertEquals("The file is written.\n\nAll done.", collector.text());
    }
}
