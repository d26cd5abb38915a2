package ai.lango.adk.memory;

import ai.lango.turn.Recall;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.memory.SearchMemoryResponse;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;

/**
 * ADK's memory service over Lango's durable memory: {@code searchMemory} (what ADK's loadMemory
 * tool calls) searches what the user's sessions remember — every session of that user, so a new
 * conversation can recall an earlier one. {@code addSessionToMemory} has nothing to do: the
 * observer already writes memory after every turn.
 */
public final class RecallMemoryService implements BaseMemoryService {

    /** Remembered pieces one search returns at most. */
    public static final int LIMIT = 10;
    /** The author of a recalled piece, as the model sees it. */
    static final String AUTHOR = "memory";

    private final Recall recall;

    public RecallMemoryService(Recall recall) {
        this.recall = recall;
    }

    @Override
    public Completable addSessionToMemory(Session session) {
        return Completable.complete();
    }

    @Override
    public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
        return Single.fromCallable(() -> SearchMemoryResponse.builder().memories(recall.search(appName, userId, query, LIMIT)
                .stream()
                .map(r -> MemoryEntry.builder()
                        .content(Content.builder().role("user").parts(Part.fromText(r.text())).build())
                        .author(AUTHOR)
                        .timestamp(r.at())
                        .build())
                .toList()).build());
    }
}
