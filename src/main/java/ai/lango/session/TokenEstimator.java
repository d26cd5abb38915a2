package ai.lango.session;

import java.util.List;

/**
 * A deterministic token estimate that needs no tokenizer: a quarter token per code point, half a
 * token per CJK code point (those tokenise denser).
 */
public final class TokenEstimator {

    /** Per-message overhead (role, separators). */
    static final int MESSAGE_OVERHEAD = 4;

    private TokenEstimator() {
    }

    public static int estimate(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        int cjk = 0;
        int other = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (isCjk(cp)) {
                cjk++;
            } else {
                other++;
            }
            i += Character.charCount(cp);
        }
        return other / 4 + cjk / 2;
    }

    /**
     * A message's tokens: its overhead, its content and each tool call's id, name and arguments. A result is stored
     * twice — as its call's output and within the content, for readers of the content alone — so an output is counted
     * only when the content does not already hold it (a row stored without it in the content).
     */
    public static int messageTokens(Message message) {
        String content = message.content();
        int tokens = MESSAGE_OVERHEAD + estimate(content);
        for (ToolCall call : message.toolCalls()) {
            tokens += estimate(call.id()) + estimate(call.name()) + estimate(call.input());
            if (call.output() != null && !content.contains(call.output())) {
                tokens += estimate(call.output());
            }
        }
        return tokens;
    }

    public static int messagesTokens(List<Message> messages) {
        return messages.stream().mapToInt(TokenEstimator::messageTokens).sum();
    }

    private static boolean isCjk(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0xAC00 && cp <= 0xD7AF);
    }
}
