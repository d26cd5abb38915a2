package ai.lango.prompt;

import ai.lango.masking.MaskedLogs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.StreamSupport;

/**
 * The per-turn sections of every {@link ContextSource}, in order, each after a blank line. A
 * source that fails is left out of this model call and logged: the turn goes on without it.
 */
@ApplicationScoped
public class ContextSections {

    private static final Logger LOG = MaskedLogs.of(ContextSections.class);

    @Inject
    @Any
    Instance<ContextSource> sources;

    private List<ContextSource> ordered;

    public ContextSections() {
        // for CDI
    }

    /** Sections from these sources, for code that runs without the container. */
    public ContextSections(List<ContextSource> sources) {
        this.ordered = sort(sources);
    }

    /** What the sources have to say for this turn, to append to the fixed prompt ("" when nothing). */
    public String render(PromptContext context) {
        StringBuilder text = new StringBuilder();
        for (ContextSource source : sources()) {
            try {
                Optional<String> section = source.section(context);
                section.filter(s -> !s.isBlank()).ifPresent(s -> text.append("\n\n").append(s.strip()));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the prompt section \"" + source.name() + "\" failed and is left out", e);
            }
        }
        return text.toString();
    }

    private List<ContextSource> sources() {
        if (ordered == null) {
            ordered = sort(StreamSupport.stream(sources.spliterator(), false).toList());
        }
        return ordered;
    }

    private static List<ContextSource> sort(List<ContextSource> sources) {
        return sources.stream().sorted(Comparator.comparingInt(ContextSource::order).thenComparing(ContextSource::name))
                .toList();
    }
}
