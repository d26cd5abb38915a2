package ai.lango.adk;

import ai.lango.adk.artifacts.JpaArtifactService;
import ai.lango.artifact.ArtifactStore;
import ai.lango.turn.Names;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * The artifacts of the ADK-compatible API, through the same artifact service the runner uses, so
 * the routes answer what ADK's server answers: names, versions, and each version as a part in ADK's
 * own JSON ({@code {"inlineData":{"mimeType":…,"data":"<base64>"}}}).
 */
@ApplicationScoped
public class AdkArtifacts {

    @Inject
    ArtifactStore store;

    private JpaArtifactService artifacts;

    @PostConstruct
    void init() {
        artifacts = new JpaArtifactService(store);
    }

    /** The names of the user's session's artifacts, sorted; none for a session the user does not have. */
    public List<String> names(String userId, String sessionId) {
        return artifacts.listArtifactKeys(Names.APP, userId, sessionId).blockingGet().filenames();
    }

    /** The versions of one artifact, ascending; empty when there is none by that name. */
    public List<Integer> versions(String userId, String sessionId, String name) {
        return artifacts.listVersions(Names.APP, userId, sessionId, name).blockingGet();
    }

    /** One version (the latest when {@code version} is empty) as a part in ADK's JSON; empty when there is none. */
    public Optional<String> part(String userId, String sessionId, String name, Optional<Integer> version) {
        return Optional.ofNullable(artifacts.loadArtifact(Names.APP, userId, sessionId, name, version.orElse(null)).blockingGet())
                .map(AdkSessions::json);
    }

    /** Deletes every version of one artifact; nothing happens when there is none. */
    public void delete(String userId, String sessionId, String name) {
        artifacts.deleteArtifact(Names.APP, userId, sessionId, name).blockingAwait();
    }
}
