package ai.lango.skills;

import ai.lango.config.LangoSettings;
import ai.lango.masking.MaskedLogs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The skills folder (lango.skills.dir): read at every call, so a skill added, changed or removed on
 * disk counts from the next turn; a SKILL.md is parsed again only when its size or time changed.
 * Folders whose name starts with "." are the library's own work (an import being unpacked) and are
 * not skills.
 */
@ApplicationScoped
public class SkillLibrary {

    private static final Logger LOG = MaskedLogs.of(SkillLibrary.class);
    /** The largest SKILL.md read, and the largest resource load_skill_resource answers. */
    static final long MAX_FILE_BYTES = 256 * 1024;

    @Inject
    LangoSettings.Skills settings;

    private final Map<Path, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(FileTime modified, long size, Skill skill) {
    }

    public boolean enabled() {
        return settings.enabled();
    }

    public Path dir() {
        return settings.dir();
    }

    /** Every skill of the folder, good and bad, by name. */
    public List<Skill> all() {
        Path dir = settings.dir();
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Skill> skills = new ArrayList<>();
        try (Stream<Path> folders = Files.list(dir)) {
            for (Path folder : folders.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList()) {
                skills.add(read(folder));
            }
        } catch (IOException e) {
            LOG.warning(() -> "the skills folder " + dir + " cannot be read: " + e.getMessage());
        }
        cache.keySet().removeIf(folder -> !Files.exists(folder));
        return skills;
    }

    public List<Skill> usable() {
        return all().stream().filter(Skill::usable).toList();
    }

    /** The skill in the folder {@code name} (a broken one too, by its folder's name). */
    public Optional<Skill> find(String name) {
        if (!folderName(name)) {
            return Optional.empty();
        }
        Path folder = settings.dir().resolve(name);
        return Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS) ? Optional.of(read(folder)) : Optional.empty();
    }

    /** A name that can only be a folder directly in the skills folder: no separator, no "..", not hidden. */
    private static boolean folderName(String name) {
        return name != null && name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}") && !name.contains("..");
    }

    private Skill read(Path folder) {
        Path file = folder.resolve(SkillFormat.FILE);
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                cache.remove(folder);
                return problem(folder, "SKILL.md: the folder has none");
            }
            FileTime modified = Files.getLastModifiedTime(file);
            long size = Files.size(file);
            Cached cached = cache.get(folder);
            if (cached != null && cached.modified().equals(modified) && cached.size() == size) {
                return cached.skill();
            }
            Skill skill = size > MAX_FILE_BYTES ? problem(folder, "SKILL.md: larger than " + MAX_FILE_BYTES / 1024 + " KiB")
                    : SkillFormat.read(folder, Files.readString(file, StandardCharsets.UTF_8));
            cache.put(folder, new Cached(modified, size, skill));
            return skill;
        } catch (IOException e) {
            return problem(folder, "SKILL.md: cannot be read (" + e.getMessage() + ")");
        }
    }

    private static Skill problem(Path folder, String problem) {
        return new Skill(folder.getFileName().toString(), null, null, null, Map.of(), List.of(), "", folder, List.of(problem));
    }

    /** A file of a usable skill's folder, as text; {@link SkillException} for a path that leaves the folder, or none. */
    public String resource(String name, String relative) throws SkillException {
        Skill skill = find(name).filter(Skill::usable).orElseThrow(() -> new SkillException("there is no usable skill \"" + name
                + "\"; list_skills shows the skills there are"));
        Path folder = skill.folder().toAbsolutePath().normalize();
        Path file = folder.resolve(relative == null ? "" : relative).normalize();
        if (relative == null || relative.isBlank() || !file.startsWith(folder) || file.equals(folder)) {
            throw new SkillException("path \"" + relative + "\" is not a file inside the skill " + name);
        }
        try {
            // A link anywhere on the way could lead out of the folder: only real files and folders count.
            Path real = file.toRealPath();
            if (!real.startsWith(folder.toRealPath())) {
                throw new SkillException("path \"" + relative + "\" leads out of the skill " + name);
            }
            if (!Files.isRegularFile(real)) {
                throw new SkillException("path \"" + relative + "\" is not a file of the skill " + name);
            }
            if (Files.size(real) > MAX_FILE_BYTES) {
                throw new SkillException("\"" + relative + "\" is larger than " + MAX_FILE_BYTES / 1024 + " KiB");
            }
            return Files.readString(real, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException binary) {
            throw new SkillException("\"" + relative + "\" is not UTF-8 text");
        } catch (java.nio.file.NoSuchFileException missing) {
            throw new SkillException("the skill " + name + " has no file \"" + relative + "\"");
        } catch (IOException e) {
            throw new SkillException("\"" + relative + "\" cannot be read: " + e.getMessage());
        }
    }

    /** The files of a usable skill's folder besides SKILL.md, relative, at most 100. */
    public List<String> resources(Skill skill) {
        try (Stream<Path> files = Files.walk(skill.folder())) {
            return files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(p -> skill.folder().relativize(p).toString().replace('\\', '/'))
                    .filter(p -> !p.equals(SkillFormat.FILE)).sorted().limit(100).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Writes a new skill (or, with {@code overwrite}, a new SKILL.md for an existing one), checked by
     * the specification's rules before anything is written; the file appears whole or not at all.
     */
    public Skill create(String name, String description, String body, boolean overwrite) throws SkillException {
        String text = SkillFormat.write(name, description == null ? "" : description.strip(), body == null ? "" : body);
        Path folder = settings.dir().resolve(name == null ? "" : name).normalize();
        Skill checked = SkillFormat.read(folder, text);
        if (SkillFormat.nameProblem(name) != null || !checked.usable()) {
            throw new SkillException("the skill was not written: " + String.join("; ", checked.problems().isEmpty()
                    ? List.of(SkillFormat.nameProblem(name)) : checked.problems()));
        }
        if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS) && !overwrite) {
            throw new SkillException("a skill \"" + name + "\" exists already; set overwrite to replace its SKILL.md");
        }
        try {
            Files.createDirectories(folder);
            Path temporary = folder.resolve("." + SkillFormat.FILE + "." + UUID.randomUUID());
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            move(temporary, folder.resolve(SkillFormat.FILE));
        } catch (IOException e) {
            throw new SkillException("the skill could not be written: " + e.getMessage());
        }
        return read(folder);
    }

    /** Moves a staged skill folder into place as {@code name}; the old one (with {@code overwrite}) goes. */
    Skill install(Path staged, String name, boolean overwrite) throws SkillException {
        Path target = settings.dir().resolve(name);
        try {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                if (!overwrite) {
                    throw new SkillException("a skill \"" + name + "\" exists already; set overwrite to replace it");
                }
                Path old = settings.dir().resolve(".old-" + name + "-" + UUID.randomUUID());
                move(target, old);
                move(staged, target);
                deleteTree(old);
            } else {
                move(staged, target);
            }
            return read(target);
        } catch (IOException e) {
            throw new SkillException("the skill could not be installed: " + e.getMessage());
        }
    }

    /** Deletes a skill's folder; whether there was one. */
    public boolean delete(String name) {
        if (!folderName(name)) {
            return false;
        }
        Path folder = settings.dir().resolve(name);
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try {
            Path gone = settings.dir().resolve(".deleted-" + name + "-" + UUID.randomUUID());
            move(folder, gone);
            deleteTree(gone);
            cache.remove(folder);
            return true;
        } catch (IOException e) {
            LOG.warning(() -> "the skill " + name + " could not be deleted: " + e.getMessage());
            return false;
        }
    }

    /** A new folder, in the skills folder, for the library's own work. */
    Path staging() throws IOException {
        Files.createDirectories(settings.dir());
        return Files.createDirectory(settings.dir().resolve(".import-" + UUID.randomUUID()));
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // what is left is a hidden folder the library skips
                }
            });
        } catch (IOException ignored) {
            // ditto
        }
    }
}
