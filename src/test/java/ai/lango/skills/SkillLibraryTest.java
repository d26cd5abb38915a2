package ai.lango.skills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.TestSettings;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkillLibraryTest {

    @TempDir
    Path root;

    private Path dir;
    private SkillLibrary library;
    private SkillImports imports;

    @BeforeEach
    void library() {
        dir = root.resolve("skills");
        library = new SkillLibrary();
        library.settings = TestSettings.of(root, "lango.skills.dir", dir.toString()).skills();
        imports = new SkillImports();
        imports.library = library;
        imports.web = new ai.lango.net.egress.Egress() {
            @Override
            public ai.lango.net.egress.HostPolicy policy() {
                return new ai.lango.net.egress.HostPolicy(List.of(), List.of());
            }
        };
    }

    private void skill(String folder, String text) throws Exception {
        Files.createDirectories(dir.resolve(folder));
        Files.writeString(dir.resolve(folder).resolve("SKILL.md"), text);
    }

    @Test
    void aMalformedSkillIsListedWithItsReasonAndHidesNoOther() throws Exception {
        skill("good-one", "---\nname: good-one\ndescription: Works.\n---\nDo it.");
        skill("Broken_Name", "---\nname: Broken_Name\ndescription: Bad name.\n---\n");
        skill("no-front", "just text");
        Files.createDirectories(dir.resolve("empty-folder"));
        skill("good-two", "---\nname: good-two\ndescription: Works too.\n---\nDo that.");
        List<Skill> all = library.all();
        assertEquals(List.of("Broken_Name", "empty-folder", "good-one", "good-two", "no-front"), all.stream().map(Skill::name).toList());
        assertEquals(List.of("good-one", "good-two"), library.usable().stream().map(Skill::name).toList());
        assertTrue(all.get(0).problems().get(0).startsWith("name: must be 1 to 64 lowercase letters"), all.get(0).problems().toString());
        assertEquals(List.of("SKILL.md: the folder has none"), all.get(1).problems());
    }

    @Test
    void aSkillAddedChangedOrRemovedOnDiskIsSeenAtTheNextCall() throws Exception {
        assertEquals(List.of(), library.all());
        skill("fresh", "---\nname: fresh\ndescription: First.\n---\nOne");
        assertEquals("First.", library.find("fresh").orElseThrow().description());
        Files.writeString(dir.resolve("fresh/SKILL.md"), "---\nname: fresh\ndescription: Second, longer.\n---\nTwo");
        assertEquals("Second, longer.", library.find("fresh").orElseThrow().description());
        SkillLibrary.deleteTree(dir.resolve("fresh"));
        assertEquals(List.of(), library.all());
    }

    @Test
    void aResourceIsReadOnlyFromInsideItsSkillsFolder() throws Exception {
        skill("docs", "---\nname: docs\ndescription: D.\n---\nSee references/guide.md");
        Files.createDirectories(dir.resolve("docs/references"));
        Files.writeString(dir.resolve("docs/references/guide.md"), "the guide");
        Files.writeString(root.resolve("secret.txt"), "outside");
        Files.createSymbolicLink(dir.resolve("docs/references/link.md"), root.resolve("secret.txt"));
        assertEquals("the guide", library.resource("docs", "references/guide.md"));
        assertEquals(List.of("references/guide.md"), library.resources(library.find("docs").orElseThrow()));
        for (String escape : List.of("../../secret.txt", "/etc/passwd", root.resolve("secret.txt").toString(), "references/link.md",
                "references", "")) {
            assertThrows(SkillException.class, () -> library.resource("docs", escape), escape);
        }
    }

    @Test
    void createSkillChecksTheRulesBeforeWritingAndKeepsAnExistingOneUnlessAskedToOverwrite() throws Exception {
        SkillException bad = assertThrows(SkillException.class, () -> library.create("Bad_Name", "d", "b", false));
        assertTrue(bad.getMessage().contains("name: must be"), bad.getMessage());
        assertThrows(SkillException.class, () -> library.create("ok", "", "b", false));
        assertFalse(Files.exists(dir.resolve("Bad_Name")) || Files.exists(dir.resolve("ok")), "nothing was written");
        Skill created = library.create("release-notes", "Write release notes: from the git log.", "1. Read the log.", false);
        assertTrue(created.usable(), created.problems().toString());
        assertThrows(SkillException.class, () -> library.create("release-notes", "Again.", "b", false));
        assertEquals("Again.", library.create("release-notes", "Again.", "b", true).description());
    }

    @Test
    void aZipWhoseEntryWouldLandOutsideIsRefusedAndNothingIsWritten() throws Exception {
        Path zip = root.resolve("evil.zip");
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(zip.toFile())) {
            entry(out, "evil/SKILL.md", "---\nname: evil\ndescription: E.\n---\n");
            entry(out, "evil/../../../escaped.txt", "out");
        }
        SkillException refused = assertThrows(SkillException.class, () -> imports.importSkill(zip.toString(), false));
        assertTrue(refused.getMessage().contains("would land outside"), refused.getMessage());
        assertFalse(Files.exists(root.resolve("escaped.txt")) || Files.exists(dir.resolve("escaped.txt")));
        assertEquals(List.of(), library.all(), "no skill and no leftover");
    }

    private static void entry(ZipArchiveOutputStream out, String name, String text) throws Exception {
        out.putArchiveEntry(new ZipArchiveEntry(name));
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.closeArchiveEntry();
    }

    @Test
    void aTarGzIsImportedWholeAndOneHoldingALinkIsRefused() throws Exception {
        Path good = tarGz("good.tar.gz", false);
        Skill imported = imports.importSkill(good.toString(), false);
        assertTrue(imported.usable(), imported.problems().toString());
        assertEquals("the form", library.resource("forms", "references/form.md"));
        assertThrows(SkillException.class, () -> imports.importSkill(good.toString(), false), "it exists");

        SkillLibrary.deleteTree(dir.resolve("forms"));
        SkillException link = assertThrows(SkillException.class, () -> imports.importSkill(tarGz("link.tar.gz", true).toString(), false));
        assertTrue(link.getMessage().contains("holds a link"), link.getMessage());
        assertEquals(List.of(), library.all());
    }

    private Path tarGz(String name, boolean withLink) throws Exception {
        Path file = root.resolve(name);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(bytes))) {
            for (String[] f : new String[][] {{"forms/SKILL.md", "---\nname: forms\ndescription: Fill forms.\n---\nUse references/form.md"},
                    {"forms/references/form.md", "the form"}}) {
                byte[] content = f[1].getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry entry = new TarArchiveEntry(f[0]);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
            if (withLink) {
                TarArchiveEntry link = new TarArchiveEntry("forms/passwd", TarArchiveEntry.LF_SYMLINK);
                link.setLinkName("/etc/passwd");
                tar.putArchiveEntry(link);
                tar.closeArchiveEntry();
            }
        }
        Files.write(file, bytes.toByteArray());
        return file;
    }

    @Test
    void aLocalFolderIsImportedAndPlainHttpAnUnreachableOrAnInternalGitRepositoryIsAClearError() throws Exception {
        Path source = root.resolve("elsewhere/lint");
        Files.createDirectories(source.resolve("scripts"));
        Files.writeString(source.resolve("SKILL.md"), "---\nname: lint\ndescription: Lint the code.\n---\nRun scripts/lint.sh");
        Files.writeString(source.resolve("scripts/lint.sh"), "echo lint");
        assertTrue(imports.importSkill(source.toString(), false).usable());
        assertEquals("echo lint", library.resource("lint", "scripts/lint.sh"));

        assertTrue(assertThrows(SkillException.class, () -> imports.importSkill("http://example.com/SKILL.md", false))
                .getMessage().contains("only https://"));
        String git = assertThrows(SkillException.class, () -> imports.importSkill("https://nowhere.invalid/skills.git", false))
                .getMessage();
        assertEquals("refused: nowhere.invalid does not resolve", git);
        String internal = assertThrows(SkillException.class, () -> imports.importSkill("git@127.0.0.1:skills.git", false)).getMessage();
        assertTrue(internal.startsWith("refused: 127.0.0.1 is a loopback address"), internal);
        assertEquals(List.of("lint"), library.all().stream().map(Skill::name).toList(), "no leftover of the failures");
    }
}
