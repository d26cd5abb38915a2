package ai.lango.adk.artifacts;

import ai.lango.artifact.ArtifactStore;
import ai.lango.turn.SessionRef;
import com.google.adk.artifacts.BaseArtifactService;
import com.google.adk.artifacts.ListArtifactsResponse;
import com.google.common.collect.ImmutableList;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.util.Objects;
import java.util.Optional;

/**
 * ADK's artifact service over the {@link ArtifactStore}: artifacts outlive the run, a restart and
 * the server that saved them. Versions are numbered as ADK's in-memory service numbers them (0 for
 * the first save of a name); a name the store refuses (blank, '/', too long) fails the call with
 * the store's message.
 */
public final class JpaArtifactService implements BaseArtifactService {

    private final ArtifactStore store;

    public JpaArtifactService(ArtifactStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public Single<Integer> saveArtifact(String appName, String userId, String sessionId, String filename, Part artifact) {
        return Single.fromCallable(() -> {
            ArtifactParts.Content content = ArtifactParts.content(artifact);
            return store.save(session(appName, userId, sessionId), filename, content.mimeType(), content.data());
        });
    }

    @Override
    public Maybe<Part> loadArtifact(String appName, String userId, String sessionId, String filename, Integer version) {
        return Maybe.fromCallable(() -> store.load(session(appName, userId, sessionId), filename, Optional.ofNullable(version))
                .map(ArtifactParts::part).orElse(null));
    }

    @Override
    public Single<ListArtifactsResponse> listArtifactKeys(String appName, String userId, String sessionId) {
        return Single.fromCallable(() -> ListArtifactsResponse.builder()
                .filenames(ImmutableList.copyOf(store.names(session(appName, userId, sessionId)))).build());
    }

    @Override
    public Completable deleteArtifact(String appName, String userId, String sessionId, String filename) {
        return Completable.fromAction(() -> store.delete(session(appName, userId, sessionId), filename));
    }

    @Override
    public Single<ImmutableList<Integer>> listVersions(String appName, String userId, String sessionId, String filename) {
        return Single.fromCallable(() -> ImmutableList.copyOf(store.versions(session(appName, userId, sessionId), filename)));
    }

    private static SessionRef session(String appName, String userId, String sessionId) {
        return new SessionRef(appName, userId, sessionId);
    }
}
