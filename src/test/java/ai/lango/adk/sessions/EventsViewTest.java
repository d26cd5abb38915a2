package ai.lango.adk.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.lango.session.Message;
import com.google.adk.events.Event;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One session's event view is computed once however often it is read. */
class EventsViewTest {

    private static EventsView view() {
        return new EventsView(List.of(
                new Message("user", "hi", Instant.EPOCH, null, List.of()),
                new Message("assistant", "hello", Instant.EPOCH, null, List.of())), "lango-agent");
    }

    @Test
    void eventViewIsComputedOnceHoweverOftenRead() {
        EventsView view = view();
        for (int i = 0; i < 100; i++) {
            assertEquals(2, view.size());
            view.get(1);
            view.forEach(event -> { });
        }
        assertEquals(1, view.conversions());
    }

    @Test
    void nothingIsConvertedUntilFirstRead() {
        assertEquals(0, view().conversions());
    }

    @Test
    void appendedEventIsVisibleInView() {
        EventsView view = view();
        Event appended = Event.builder().id("new").invocationId("i").author("user").timestamp(1L).build();
        view.add(appended);
        assertEquals(3, view.size());
        assertEquals("new", view.get(2).id());
        assertEquals(1, view.conversions());
    }
}
