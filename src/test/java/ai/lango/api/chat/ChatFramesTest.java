package ai.lango.api.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChatFramesTest {

    @Test
    void aChunkFrameIsTheTextItsJsonTreeWrites() {
        for (String text : List.of("", "plain", "quote \" backslash \\ slash /", "new\nline\ttab\r\u0001\u001f\u007f",
                "\u00e9t\u00e9 \u2028 \ud83d\ude00", "</script>")) {
            assertEquals(ChatFrames.event("agent.chunk", ChatFrames.payload("s-1").put("chunk", text)).toString(),
                    ChatFrames.chunk("s-1", text), text);
        }
        assertEquals(ChatFrames.event("agent.chunk", ChatFrames.payload("a\"b").put("chunk", "x")).toString(),
                ChatFrames.chunk("a\"b", "x"));
    }
}
