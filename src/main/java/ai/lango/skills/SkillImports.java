package ai.lango.skills;

import ai.lango.net.egress.Egress;
import ai.lango.net.egress.HostPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.ArchiveEntry;
import org.apache.commons.compress.archivers.ArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * import_skill's sources: a folder, a SKILL.md or an archive on this machine; an https URL of a
 * SKILL.md, a .zip or a .tar.gz (at most {@link #MAX_DOWNLOAD} bytes); or a git repository when git
 * is installed. Everything is unpacked into a hidden folder of the skills folder first, checked (an
 * entry that would land outside it, or a link, refuses the whole archive; so do more than {@link
 * #MAX_ENTRIES} entries or {@link #MAX_UNPACKED} bytes), validated as a skill, and only then moved
 * into place.
 */
@ApplicationScoped
public class SkillImports {

    static final long MAX_DOWNLOAD = 5L * 1024 * 1024;
    static final long MAX_UNPACKED = 20L * 1024 * 1024;
    static final int MAX_ENTRIES = 1000;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Inject
    SkillLibrary library;

    /** The way out every download takes: the browser's host policy and the egress proxy (no redirect followed). */
    @Inject
    Egress web;

    /** Imports the skill {@code source} holds; it must not exist yet unless {@code overwrite}. */
    public Skill importSkill(String source, boolean overwrite) throws SkillException {
        if (source == null || source.isBlank()) {
            throw new SkillException("source: a folder or file on the server, an https URL or a git URL");
        }
        String from = source.strip();
        Path staging;
        try {
            staging = library.staging();
        } catch (IOException e) {
            throw new SkillException("the skills folder cannot be written: " + e.getMessage());
        }
        try {
            Path unpacked = staging.resolve("unpacked");
            Files.createDirectory(unpacked);
            if (isGit(from)) {
                clone(web, from, unpacked);
            } else if (from.startsWith("https://")) {
                download(web, from, unpacked);
            } else if (from.matches("(?i)[a-z][a-z0-9+.-]*://.*")) {
                throw new SkillException("source: only https:// URLs (or a git URL) are fetched, not \"" + from + "\"");
            } else {
                local(Path.of(from), unpacked);
            }
            Path folder = locate(unpacked);
            SkillLibrary.deleteTree(folder.resolve(".git"));
            String text = Files.readString(folder.resolve(SkillFormat.FILE), StandardCharsets.UTF_8);
            String name = SkillFormat.declaredName(text);
            String nameProblem = SkillFormat.nameProblem(name);
            if (nameProblem != null) {
                throw new SkillException("the skill was not imported: " + nameProblem);
            }
            Skill skill = SkillFormat.read(folder.resolveSibling(name), text);
            if (!skill.usable()) {
                throw new SkillException("the skill was not imported: " + String.join("; ", skill.problems()));
            }
            return library.install(folder, name, overwrite);
        } catch (IOException e) {
            throw new SkillException("the skill could not be imported from " + from + ": " + e.getMessage());
        } finally {
            SkillLibrary.deleteTree(staging);
        }
    }

    private static boolean isGit(String source) {
        String s = source.toLowerCase(Locale.ROOT);
        return s.startsWith("git@") || s.startsWith("git://") || s.startsWith("ssh://") || s.endsWith(".git");
    }

    /** The folder holding SKILL.md: the top one, or the only one below it (an archive's or repository's single folder). */
    private static Path locate(Path unpacked) throws IOException, SkillException {
        if (Files.isRegularFile(unpacked.resolve(SkillFormat.FILE), LinkOption.NOFOLLOW_LINKS)) {
            return unpacked;
        }
        List<Path> found;
        try (Stream<Path> files = Files.walk(unpacked, 3)) {
            found = files.filter(p -> p.getFileName().toString().equals(SkillFormat.FILE))
                    .filter(p -> !p.toString().contains("/.git/")).map(Path::getParent).toList();
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        throw new SkillException(found.isEmpty() ? "the source holds no SKILL.md"
                : "the source holds several skills (" + found.stream().map(p -> unpacked.relativize(p).toString()).toList()
                + "); import them one by one");
    }

    private static void local(Path path, Path unpacked) throws IOException, SkillException {
        Path source = path.toAbsolutePath().normalize();
        if (Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
            copyTree(source, unpacked);
        } else if (Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.size(source) > MAX_DOWNLOAD) {
                throw new SkillException(source + " is larger than " + MAX_DOWNLOAD / (1024 * 1024) + " MiB");
            }
            unpack(source.getFileName().toString(), Files.readAllBytes(source), unpacked);
        } else {
            throw new SkillException("there is no folder or file " + source + " on the server");
        }
    }

    private static void copyTree(Path source, Path target) throws IOException, SkillException {
        long bytes = 0;
        int entries = 0;
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.toList()) {
                if (Files.isSymbolicLink(path)) {
                    throw new SkillException("the folder holds a link (" + source.relativize(path) + "): refused");
                }
                Path copy = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                } else {
                    bytes += Files.size(path);
                    if (++entries > MAX_ENTRIES || bytes > MAX_UNPACKED) {
                        throw new SkillException("the folder is larger than a skill may be (" + MAX_ENTRIES + " files, "
                                + MAX_UNPACKED / (1024 * 1024) + " MiB)");
                    }
                    Files.copy(path, copy);
                }
            }
        }
    }

    /**
     * The URL's body, through the same guard as the browser's pages: a host on this machine or a
     * private network is refused unless lango.tools.browser.allowed-hosts names it, and the
     * connection goes to the very address that was checked. A redirect is not followed.
     */
    private static void download(Egress web, String url, Path unpacked) throws IOException, SkillException {
        HostPolicy.Verdict verdict = web.policy().check(url);
        if (!verdict.allowed()) {
            throw new SkillException("refused: " + verdict.refusal());
        }
        HttpClient http = web.guardedHttp();
        HttpResponse<InputStream> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new SkillException("could not fetch " + url + ": " + e.getMessage() + " (is the network reachable?)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SkillException("interrupted while fetching " + url);
        } catch (IllegalArgumentException e) {
            throw new SkillException("not a URL: " + url);
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw new SkillException(url + " answered HTTP " + response.statusCode()
                        + (response.statusCode() / 100 == 3 ? " (a redirect, which import_skill does not follow: give the URL"
                        + " it leads to)" : ""));
            }
            byte[] bytes = body.readNBytes((int) MAX_DOWNLOAD + 1);
            if (bytes.length > MAX_DOWNLOAD) {
                throw new SkillException(url + " is larger than " + MAX_DOWNLOAD / (1024 * 1024) + " MiB");
            }
            unpack(URI.create(url).getPath(), bytes, unpacked);
        }
    }

    /** An archive by its name (.zip, .tar.gz, .tgz), else the bytes are a SKILL.md. */
    private static void unpack(String name, byte[] bytes, Path unpacked) throws IOException, SkillException {
        String lower = name == null ? "" : name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".zip")) {
            try (ZipArchiveInputStream zip = new ZipArchiveInputStream(new ByteArrayInputStream(bytes))) {
                extract(zip, unpacked);
            }
        } else if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) {
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(new ByteArrayInputStream(bytes)))) {
                extract(tar, unpacked);
            }
        } else {
            String text = new String(bytes, StandardCharsets.UTF_8);
            if (!text.replace("\uFEFF", "").startsWith("---")) {
                throw new SkillException("the source is neither a SKILL.md (it does not start with \"---\") nor a .zip or .tar.gz");
            }
            Files.write(unpacked.resolve(SkillFormat.FILE), bytes);
        }
    }

    /** Every entry into {@code target}: one that leaves it, or a link, refuses the archive; so do too many or too large. */
    static void extract(ArchiveInputStream<? extends ArchiveEntry> archive, Path target) throws IOException, SkillException {
        Path root = target.toAbsolutePath().normalize();
        long bytes = 0;
        int entries = 0;
        ArchiveEntry entry;
        while ((entry = archive.getNextEntry()) != null) {
            if (++entries > MAX_ENTRIES) {
                throw new SkillException("the archive has more than " + MAX_ENTRIES + " entries");
            }
            String name = entry.getName();
            if (entry instanceof TarArchiveEntry tar && (tar.isSymbolicLink() || tar.isLink())
                    || entry instanceof ZipArchiveEntry zip && zip.isUnixSymlink()) {
                throw new SkillException("the archive holds a link (" + name + "): refused");
            }
            if (entry instanceof TarArchiveEntry tar && !tar.isFile() && !tar.isDirectory()) {
                throw new SkillException("the archive holds a special file (" + name + "): refused");
            }
            Path path = root.resolve(name).normalize();
            if (name.startsWith("/") || name.contains("\\") || !path.startsWith(root) || path.equals(root) && !entry.isDirectory()) {
                throw new SkillException("the archive's entry \"" + name + "\" would land outside the skill's folder: refused");
            }
            if (entry.isDirectory()) {
                Files.createDirectories(path);
                continue;
            }
            Files.createDirectories(path.getParent());
            byte[] content = archive.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, MAX_UNPACKED - bytes + 1));
            bytes += content.length;
            if (bytes > MAX_UNPACKED) {
                throw new SkillException("the archive unpacks to more than " + MAX_UNPACKED / (1024 * 1024) + " MiB");
            }
            Files.write(path, content);
        }
    }

    /**
     * git clone --depth 1, https, ssh and git protocols only, never asking for a password, and through
     * the same guard as a download: the host is checked first, ssh and git then connect to the checked
     * address, https goes through the guard's proxy (which checks every connection, redirects included).
     */
    private static void clone(Egress web, String url, Path unpacked) throws IOException, SkillException {
        GitSource source = GitSource.parse(url).orElseThrow(() -> new SkillException(
                "source: a git URL is https://, ssh://, git:// or user@host:path, not \"" + url + "\""));
        HostPolicy.Verdict verdict = web.policy().check(source.host(), source.port());
        if (!verdict.allowed()) {
            throw new SkillException("refused: " + verdict.refusal());
        }
        Path repository = unpacked.resolve("repository");
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        if (source.kind() == GitSource.Kind.HTTPS) {
            command.addAll(List.of("-c", "http.proxy=" + web.guardProxy(), "-c", "http.followRedirects=false"));
        }
        command.addAll(List.of("clone", "--depth", "1", "--quiet", "--", source.towards(verdict.address()), repository.toString()));
        ProcessBuilder git = new ProcessBuilder(command).redirectErrorStream(true);
        git.environment().put("GIT_TERMINAL_PROMPT", "0");
        git.environment().put("GIT_ALLOW_PROTOCOL", "https:ssh:git");
        git.environment().put("GIT_SSH_COMMAND", "ssh -o BatchMode=yes -o HostKeyAlias=" + source.hostKeyAlias());
        // the guard's proxy is for every host: none may be exempted by the server's environment
        List.of("no_proxy", "NO_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY").forEach(git.environment()::remove);
        Process process;
        try {
            process = git.start();
        } catch (IOException notInstalled) {
            throw new SkillException("git is not installed on the server, so a git URL cannot be imported");
        }
        try {
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new SkillException("git clone " + url + " took longer than " + TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new SkillException("interrupted while cloning " + url);
        }
        String said = new String(process.getInputStream().readNBytes(8192), StandardCharsets.UTF_8).strip();
        if (process.exitValue() != 0) {
            throw new SkillException("git could not clone " + url + ": " + (said.isEmpty() ? "exit " + process.exitValue()
                    : said.lines().reduce((a, b) -> b).orElse(said)) + " (is the network reachable?)");
        }
    }
}
