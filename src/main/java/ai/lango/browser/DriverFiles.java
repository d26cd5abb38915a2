package ai.lango.browser;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Playwright's driver (the JavaScript its Node.js runs) out of its jar, once per version, into a
 * folder of the data directory. Playwright would unpack it itself, but not from a jar inside a WAR
 * as an application server's class loader shows it (a wsjar: URL on Liberty); given the folder as
 * playwright.cli.dir, it uses it as a preinstalled driver.
 */
final class DriverFiles {

    /** Where the driver's files are in its jar. */
    private static final String PACKAGE = "driver/package/";
    private static final String DONE = ".unpacked";

    private DriverFiles() {
    }

    /** The folder holding package/cli.js under {@code parent}, unpacked if not yet. */
    static Path unpack(Path parent) throws IOException {
        URL cli = DriverFiles.class.getClassLoader().getResource(PACKAGE + "cli.js");
        if (cli == null) {
            throw new IOException("Playwright's driver (com.microsoft.playwright:driver) is not on the class path");
        }
        String version = String.valueOf(com.microsoft.playwright.Playwright.class.getPackage().getImplementationVersion());
        Path dir = parent.resolve("playwright-driver-" + version.replaceAll("[^A-Za-z0-9._-]", "_"));
        if (Files.exists(dir.resolve(DONE))) {
            return dir;
        }
        Path staging = parent.resolve(".unpacking-" + UUID.randomUUID());
        Files.createDirectories(staging);
        try {
            String url = cli.toString();
            int bang = url.indexOf("!/");
            if (bang >= 0) {
                try (ZipFile jar = new ZipFile(jarFile(url.substring(0, bang)))) {
                    Enumeration<? extends ZipEntry> entries = jar.entries();
                    while (entries.hasMoreElements()) {
                        ZipEntry entry = entries.nextElement();
                        if (entry.getName().startsWith(PACKAGE) && !entry.isDirectory()) {
                            Path target = staging.resolve(entry.getName().substring("driver/".length())).normalize();
                            if (!target.startsWith(staging)) {
                                throw new IOException("a driver entry escapes its folder: " + entry.getName());
                            }
                            Files.createDirectories(target.getParent());
                            try (InputStream in = jar.getInputStream(entry)) {
                                Files.copy(in, target);
                            }
                        }
                    }
                }
            } else {
                Path source = Path.of(cli.toURI()).getParent();
                try (Stream<Path> files = Files.walk(source)) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        Path target = staging.resolve("package").resolve(source.relativize(file).toString());
                        if (Files.isDirectory(file)) {
                            Files.createDirectories(target);
                        } else {
                            Files.copy(file, target);
                        }
                    }
                }
            }
            Files.writeString(staging.resolve(DONE), version);
            deleteTree(dir);
            Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("could not unpack Playwright's driver from " + cli + ": " + e.getMessage(), e);
        } finally {
            deleteTree(staging);
        }
        return dir;
    }

    /** The jar's file from the part of a jar:, wsjar: or zip: URL before "!/". */
    private static String jarFile(String prefix) {
        String path = prefix.substring(prefix.indexOf("file:") + "file:".length());
        while (path.startsWith("//")) {
            path = path.substring(1);
        }
        return URLDecoder.decode(path, StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
