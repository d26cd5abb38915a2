package ai.lango.eval;

import ai.lango.config.LangoSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The eval sets a user may see and change. Shared sets are the administrators': only those who administer see, run
 * and change them (a case made from a user's session holds what that user said, so no other user reads it); they are
 * the files of lango.eval.dir (read again when one changes, so a team keeps them in its repository) and rows of
 * lango_eval_sets; a shared set changed through the API is written back to its file. A user who does not
 * administer makes sets of their own, kept in the database only and seen by no other user. A file that cannot be
 * read is a problem naming the file and the field; the other files still load.
 */
@ApplicationScoped
public class EvalLibrary {

    private static final Logger LOG = ai.lango.masking.MaskedLogs.of(EvalLibrary.class);
    /** The owner of a shared set (the administrators'). */
    public static final String SHARED = "";

    /** A file of the eval folder that did not load, and why. */
    public record Problem(String file, String error) {
    }

    /** A set, and whose it is ({@link #SHARED}: the administrators'). */
    public record Owned(String owner, EvalSet set) {

        public boolean shared() {
            return SHARED.equals(owner);
        }
    }

    /** A request about eval sets that cannot be done: the HTTP status it means, a code and the reason. */
    public static final class Refused extends RuntimeException {
        private final int status;
        private final String code;

        public Refused(int status, String code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }

        public int status() {
            return status;
        }

        public String code() {
            return code;
        }
    }

    @Inject
    LangoSettings settings;

    @Inject
    EvalStore store;

    private volatile List<Problem> problems = List.of();
    private final Set<String> warned = new HashSet<>();
    private String lastListing;

    /** The files that did not load at the last look at the folder. */
    public List<Problem> problems() {
        sync();
        return problems;
    }

    /** The ids of the sets {@code userId} sees ({@code admin}: who administers sees the shared ones too), sorted. */
    public List<String> ids(String userId, boolean admin) {
        sync();
        return store.visibleTo(userId, admin).stream().map(EvalStore.Stored::setId).collect(java.util.stream.Collectors.toCollection(TreeSet::new))
                .stream().toList();
    }

    /** The set {@code setId} as {@code userId} sees it: their own, else the shared one when they administer. */
    public Optional<Owned> find(String userId, boolean admin, String setId) {
        sync();
        return store.find(userId, setId).or(() -> admin ? store.find(SHARED, setId) : Optional.empty()).map(EvalLibrary::read);
    }

    public Owned get(String userId, boolean admin, String setId) {
        return find(userId, admin, setId).orElseThrow(() -> new Refused(404, "eval_set_not_found", "no eval set \"" + setId + "\""));
    }

    /** A new empty set: shared when an administrator makes it, else the user's own. */
    public Owned create(String userId, boolean admin, String setId) {
        if (!EvalFormat.validId(setId)) {
            throw new Refused(400, "invalid_eval_set_id", "an eval set id is 1-128 letters, digits, '_', '-' or '.': \"" + setId + "\"");
        }
        if (find(userId, admin, setId).isPresent()) {
            throw new Refused(400, "eval_set_exists", "an eval set \"" + setId + "\" exists already");
        }
        Owned made = new Owned(admin ? SHARED : userId, EvalSet.empty(setId, System.currentTimeMillis() / 1000.0));
        save(userId, admin, made);
        return made;
    }

    /** Stores a changed set (and writes a shared one's file); only its owner, or an administrator for a shared set. */
    public void save(String userId, boolean admin, Owned owned) {
        mayChange(userId, admin, owned);
        String json = EvalFormat.fileJson(owned.set()).toPrettyString();
        String hash = null;
        if (owned.shared()) {
            hash = write(owned.set().id(), json);
        }
        store.put(owned.owner(), owned.set().id(), json, hash);
    }

    public void delete(String userId, boolean admin, Owned owned) {
        mayChange(userId, admin, owned);
        if (owned.shared()) {
            try {
                for (Path file : files(settings.eval().dir())) {
                    if (EvalFormat.setIdOf(file.getFileName().toString()).equals(owned.set().id())) {
                        Files.deleteIfExists(file);
                    }
                }
            } catch (IOException e) {
                throw new Refused(500, "eval_dir_unwritable", "cannot delete the file of eval set \"" + owned.set().id() + "\": "
                        + e.getMessage());
            }
        }
        store.delete(owned.owner(), owned.set().id());
    }

    private static void mayChange(String userId, boolean admin, Owned owned) {
        if (owned.shared() ? !admin : !owned.owner().equals(userId)) {
            throw new Refused(403, "forbidden", "eval set \"" + owned.set().id() + "\" is shared: only an administrator changes it");
        }
    }

    private static Owned read(EvalStore.Stored stored) {
        try {
            return new Owned(stored.owner(), EvalFormat.readSet(EvalFormat.MAPPER.readTree(stored.json()), stored.setId(), stored.setId()));
        } catch (IOException | EvalFormatException e) {
            throw new IllegalStateException("stored eval set " + stored.setId() + " does not read: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------------------ the folder

    /** Reads the folder again when a file in it was added, changed or removed since the last look. */
    synchronized void sync() {
        Path dir = settings.eval().dir();
        List<Problem> found = new ArrayList<>();
        Map<String, Path> loaded = new HashMap<>();
        List<Path> files;
        String listing;
        try {
            files = files(dir);
            StringBuilder seen = new StringBuilder();
            for (Path file : files) {
                seen.append(file).append(' ').append(Files.size(file)).append(' ').append(Files.getLastModifiedTime(file).toMillis()).append('\n');
            }
            listing = seen.toString();
        } catch (IOException e) {
            problems = List.of(new Problem(dir.toString(), "cannot read the folder: " + e.getMessage()));
            return;
        }
        if (listing.equals(lastListing)) {
            return;
        }
        lastListing = listing;
        for (Path file : files) {
            String name = file.getFileName().toString();
            String setId = EvalFormat.setIdOf(name);
            String shown = dir.relativize(file).toString();
            if (!EvalFormat.validId(setId)) {
                found.add(problem(shown, "the file name does not make a valid eval set id (letters, digits, '_', '-', '.')", ""));
                continue;
            }
            if (loaded.containsKey(setId)) {
                Path other = loaded.get(setId);
                boolean legacyBeside = name.endsWith(".test.json") != other.getFileName().toString().endsWith(".test.json");
                if (!legacyBeside) {
                    found.add(problem(shown, "eval set \"" + setId + "\" is in " + dir.relativize(other) + " already", ""));
                }
                continue; // beside an *.evalset.json of the same set (written back by Lango), ADK's older file is not read
            }
            try {
                String content = Files.readString(file, StandardCharsets.UTF_8);
                String hash = sha256(content);
                loaded.put(setId, file);
                Optional<EvalStore.Stored> stored = store.find(SHARED, setId);
                if (stored.isPresent() && hash.equals(stored.get().fileHash())) {
                    continue;
                }
                EvalSet set = EvalFormat.readFile(name, content);
                set = new EvalSet(setId, set.name(), set.description(), set.cases(), set.created(), set.extra());
                store.put(SHARED, setId, EvalFormat.fileJson(set).toPrettyString(), hash);
            } catch (EvalFormatException e) {
                loaded.remove(setId);
                found.add(problem(shown, e.getMessage().startsWith(name + ": ") ? e.getMessage().substring(name.length() + 2)
                        : e.getMessage(), sha256Quiet(file)));
            } catch (IOException e) {
                loaded.remove(setId);
                found.add(problem(shown, "cannot read: " + e.getMessage(), ""));
            }
        }
        // a shared set whose file was removed is gone; one made through the API without a folder keeps no hash
        for (EvalStore.Stored shared : store.shared()) {
            if (shared.fileHash() != null && !loaded.containsKey(shared.setId())
                    && found.stream().noneMatch(p -> EvalFormat.setIdOf(Path.of(p.file()).getFileName().toString()).equals(shared.setId()))) {
                store.delete(SHARED, shared.setId());
            }
        }
        problems = List.copyOf(found);
    }

    private Problem problem(String file, String error, String hash) {
        if (warned.add(file + "\n" + error + "\n" + hash)) {
            LOG.warning("an eval set file is left out: " + file + ": " + error);
        }
        return new Problem(file, error);
    }

    /** Writes a shared set's file (atomically); the hash of what was written, or null when the folder is not writable. */
    private String write(String setId, String json) {
        Path dir = settings.eval().dir();
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(setId + ".evalset.json");
            Path temporary = Files.createTempFile(dir, ".", ".tmp");
            Files.writeString(temporary, json, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return sha256(json);
        } catch (IOException e) {
            throw new Refused(500, "eval_dir_unwritable", "cannot write eval set \"" + setId + "\" to " + dir + ": " + e.getMessage());
        }
    }

    private static List<Path> files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir, 3)) {
            return walk.filter(Files::isRegularFile).filter(p -> {
                String name = p.getFileName().toString();
                return !name.startsWith(".") && (name.endsWith(".evalset.json") || name.endsWith(".test.json"));
            }).sorted().toList();
        }
    }

    private static String sha256(String content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256Quiet(Path file) {
        try {
            return sha256(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return "";
        }
    }
}
