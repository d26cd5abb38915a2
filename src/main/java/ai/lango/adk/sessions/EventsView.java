package ai.lango.adk.sessions;

import ai.lango.session.Message;
import com.google.adk.events.Event;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's events, converted from its stored messages once, on first read, however often the
 * view is read afterwards. Appending works as on any list.
 */
final class EventsView extends AbstractList<Event> {

    private final List<Message> messages;
    private final String rootAgentName;
    private List<Event> events;
    private int conversions;

    EventsView(List<Message> messages, String rootAgentName) {
        this.messages = List.copyOf(messages);
        this.rootAgentName = rootAgentName;
    }

    private synchronized List<Event> events() {
        if (events == null) {
            events = new ArrayList<>(EventMessages.toEvents(messages, rootAgentName));
            conversions++;
        }
        return events;
    }

    /** How often the messages were converted; one after any number of reads. */
    synchronized int conversions() {
        return conversions;
    }

    @Override
    public Event get(int index) {
        return events().get(index);
    }

    @Override
    public int size() {
        return events().size();
    }

    @Override
    public synchronized void add(int index, Event event) {
        events().add(index, event);
    }

    @Override
    public synchronized Event set(int index, Event event) {
        return events().set(index, event);
    }

    @Override
    public synchronized Event remove(int index) {
        return events().remove(index);
    }
}
