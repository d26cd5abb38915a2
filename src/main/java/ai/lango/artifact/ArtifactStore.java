package ai.lango.artifact;

import ai.lango.masking.MaskedLogs;
import ai.lango.masking.SecretMask;
import ai.lango.session.SessionDeleted;
import ai.lango.turn.SessionRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * A session's artifacts, durable and shared by every server on the database: each save of a name
 * is a new version (0 for the first, then 1, 2…, as ADK numbers them). Two saves of one name at once,
 * on one server or two, never take the same version: the database's unique constraint refuses the
 * second, which tries again with the next. Text artifacts are stored with every known secret masked,
 * as every other stored text is.
 */
@ApplicationScoped
public class ArtifactStore {

    /** The most one artifact may hold: 10 MiB (a full-page screenshot fits). */
    public static final int MAX_BYTES = 10 * 1024 * 1024;
    /** The longest name, in characters (the column's). */
    public static final int MAX_NAME = 255;
    /** What an artifact saved without a type is. */
    public static final String DEFAULT_MIME_TYPE = "application/octet-stream";

    /** Saves of one name that may collide with others before one gives up. */
    static final int ATTEMPTS = 8;
    /** The SQLState of a unique constraint violated, on HSQLDB and PostgreSQL alike. */
    private static final String UNIQUE_VIOLATION = "23505";

    private static final Logger LOG = MaskedLogs.of(ArtifactStore.class);

    @Inject
    ArtifactRows rows;

    /**
     * Stores {@code data} as the next version of {@code name} in the session and answers that version.
     *
     * @throws IllegalArgumentException for a name that is blank, longer than {@value #MAX_NAME}
     *         characters or holds '/' or a control character; a MIME type over 255 characters; data
     *         over {@link #MAX_BYTES} bytes
     */
    public int save(SessionRef session, String name, String mimeType, byte[] data) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(data, "data");
        requireName(name);
        String type = mimeType == null || mimeType.isBlank() ? DEFAULT_MIME_TYPE : mimeType.strip();
        if (type.length() > 255) {
            throw new IllegalArgumentException("an artifact's MIME type may be at most 255 characters, \"" + name + "\"'s has "
                    + type.length());
        }
        if (data.length > MAX_BYTES) {
            throw new IllegalArgumentException("artifact \"" + name + "\" is " + data.length + " bytes; an artifact may be at most "
                    + MAX_BYTES + " bytes (10 MiB)");
        }
        byte[] stored = masked(type, data);
        for (int attempt = 1; ; attempt++) {
            try {
                return rows.insert(session, name, type, stored, System.currentTimeMillis());
            } catch (RuntimeException e) {
                if (!duplicate(e) || attempt == ATTEMPTS) {
                    throw e;
                }
                LOG.fine(() -> "artifact \"" + name + "\": another save took the version first, trying the next");
            }
        }
    }

    /** The version asked for, or the latest when {@code version} is empty; empty when there is none. */
    public Optional<Artifact> load(SessionRef session, String name, Optional<Integer> version) {
        requireName(name);
        return rows.find(session.scope(), name, version.orElse(null));
    }

    /** The names of the session's artifacts, sorted. */
    public List<String> names(SessionRef session) {
        return rows.names(session.scope()).stream().sorted().toList();
    }

    /** The versions stored of {@code name}, ascending; empty when there is none. */
    public List<Integer> versions(SessionRef session, String name) {
        requireName(name);
        return rows.versions(session.scope(), name);
    }

    /** Deletes every version of {@code name}; false when there was none. */
    public boolean delete(SessionRef session, String name) {
        requireName(name);
        return rows.delete(session.scope(), name) > 0;
    }

    void sessionDeleted(@Observes SessionDeleted deleted) {
        int gone = rows.deleteSession(deleted.session().scope());
        if (gone > 0) {
            LOG.fine(() -> gone + " artifacts went with session " + deleted.session().key());
        }
    }

    /**
     * Checks an artifact's name: not blank, at most {@value #MAX_NAME} characters, no '/' (ADK's
     * routes take it as one path segment) and no control character.
     *
     * @throws IllegalArgumentException saying which rule the name breaks
     */
    public static String requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an artifact needs a name that is not blank");
        }
        if (name.length() > MAX_NAME) {
            throw new IllegalArgumentException("an artifact's name may be at most " + MAX_NAME + " characters, this one has "
                    + name.length());
        }
        if (name.indexOf('/') >= 0) {
            throw new IllegalArgumentException("an artifact's name may not contain '/': \"" + name + "\"");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("an artifact's name may not contain control characters (such as a line break)");
        }
        return name;
    }

    /** Text (text/*, JSON, XML) in UTF-8 with every known secret masked; anything else as it is. */
    static byte[] masked(String mimeType, byte[] data) {
        String type = mimeType.toLowerCase(Locale.ROOT);
        if (!(type.startsWith("text/") || type.contains("json") || type.contains("xml"))) {
            return data;
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException e) {
            return data; // not UTF-8: no text to mask that a reader would see as such
        }
        String masked = SecretMask.mask(text);
        return masked.equals(text) ? data : masked.getBytes(StandardCharsets.UTF_8);
    }

    /** A unique constraint refused the row (SQLState 23505 on HSQLDB and PostgreSQL): another save took the version. */
    static boolean duplicate(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
