package ai.lango.adk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.memory.repository.jdbc.HsqldbChatMemoryRepositoryDialect;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a Java team would pick instead: Spring AI's JDBC chat memory (JdbcChatMemoryRepository
 * behind MessageWindowChatMemory, its defaults), on the same database, storing the same four
 * events of a turn as Lango does, each before the turn goes on: the user message, the assistant's
 * tool call, the tool's response, the answer. A turn reads the memory first, as a chat client does.
 */
final class SpringAiMemoryTurns {

    private final ChatMemory memory;
    private final JdbcChatMemoryRepository repository;

    SpringAiMemoryTurns(DataSource dataSource) throws IOException, SQLException {
        // Spring AI's own schema for this database, from its jar.
        String schema;
        try (var in = JdbcChatMemoryRepository.class.getResourceAsStream("schema-hsqldb.sql")) {
            schema = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (Connection connection = dataSource.getConnection(); Statement ddl = connection.createStatement()) {
            for (String statement : schema.split(";")) {
                if (!statement.isBlank()) {
                    ddl.execute(statement);
                }
            }
        }
        repository = JdbcChatMemoryRepository.builder().jdbcTemplate(new JdbcTemplate(dataSource))
                .dialect(new HsqldbChatMemoryRepositoryDialect()).build();
        memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).build();
    }

    void turn(String conversation, String text) {
        memory.get(conversation);
        memory.add(conversation, new UserMessage(text));
        String callId = "call-" + System.nanoTime();
        memory.add(conversation, AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall(callId, "function", "noop", "{}"))).build());
        memory.add(conversation, ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse(callId, "noop", "{\"ok\":true}"))).build());
        memory.add(conversation, new AssistantMessage("Done: noted."));
    }

    /** What the memory still holds of a conversation after {@code turns} such turns. */
    String keptAfter(int turns) {
        String conversation = "kept-" + System.nanoTime();
        for (int i = 0; i < turns; i++) {
            turn(conversation, "please note turn " + i);
        }
        List<Message> kept = repository.findByConversationId(conversation);
        long toolCalls = kept.stream().filter(m -> m instanceof AssistantMessage a && a.hasToolCalls()).count();
        long toolResponses = kept.stream().filter(m -> m instanceof ToolResponseMessage r && !r.getResponses().isEmpty()).count();
        Map<String, Long> types = kept.stream().collect(java.util.stream.Collectors.groupingBy(
                m -> m.getMessageType().name(), java.util.TreeMap::new, java.util.stream.Collectors.counting()));
        return String.format("Spring AI after %d turns (%d events stored): keeps %d messages %s, %d with their tool call,"
                        + " %d with their tool response; the first kept is \"%s\"",
                turns, turns * TurnCostBenchmark.EVENTS_PER_TURN, kept.size(), types, toolCalls, toolResponses,
                kept.isEmpty() ? "-" : kept.get(0).getText());
    }
}
