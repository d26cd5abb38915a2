package ai.lango.tool.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.tool.ToolException;
import ai.lango.tool.Workspace;
import ai.lango.tool.WorkspaceTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileToolsTest {

    @TempDir
    Path dir;

    private Workspace workspace() {
        return new Workspace(dir.resolve("ws"));
    }

    @Test
    void aWriteIntoADotFolderOrDotFileIsDangerousAndAnyOtherModerate() {
        WriteFile write = new WriteFile(WorkspaceTool.fixed(workspace()));
        for (String path : List.of(".git/config", "repo/.git/hooks/pre-commit", ".ssh/authorized_keys", ".bashrc", "a/.config/x")) {
            assertEquals(ai.lango.tool.Safety.DANGEROUS, write.safety(Map.of("path", path)), path);
        }
        for (String path : List.of("notes.txt", "src/Main.java", "./notes.txt", "a/../b.txt")) {
            assertEquals(ai.lango.tool.Safety.MODERATE, write.safety(Map.of("path", path)), path);
        }
    }

    @Test
    void dotDotEscapeIsRefused() {
        ToolException error = assertThrows(ToolException.class, () -> workspace().resolve("../secret.txt"));
        assertTrue(error.getMessage().contains("outside the workspace"));
    }

    @Test
    void absolutePathOutsideIsRefusedAndInsideAccepted() throws Exception {
        Workspace ws = workspace();
        assertThrows(ToolException.class, () -> ws.resolve("/etc/passwd"));
        assertEquals(ws.root().resolve("a/b.txt"), ws.resolve(ws.root().resolve("a/b.txt").toString()));
    }

    @Test
    void symlinkLeadingOutIsRefused() throws Exception {
        Workspace ws = workspace();
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.createSymbolicLink(ws.root().resolve("link"), outside);
        assertThrows(ToolException.class, () -> ws.resolve("link/file.txt"));
        assertThrows(ToolException.class, () -> ws.resolve("link"));
    }

    @Test
    void symlinkInsideTheWorkspaceIsFine() throws Exception {
        Workspace ws = workspace();
        Files.createDirectories(ws.root().resolve("real"));
        Files.createSymbolicLink(ws.root().resolve("alias"), ws.root().resolve("real"));
        assertEquals(ws.root().resolve("alias/x.txt"), ws.resolve("alias/x.txt"));
    }

    @Test
    void writeThenReadRoundTrips() throws Exception {
        Workspace ws = workspace();
        Map<String, Object> written = new WriteFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "notes/a.txt", "content", "hello"), null);
        assertEquals(5, written.get("bytes"));
        assertEquals("hello", new ReadFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "notes/a.txt"), null).get("content"));
    }

    @Test
    void editReplacesAndInsertsLines() throws Exception {
        Workspace ws = workspace();
        Files.writeString(ws.root().resolve("f.txt"), "one\ntwo\nthree\n");
        new EditFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "f.txt", "startLine", 2, "endLine", 2, "content", "TWO"), null);
        new EditFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "f.txt", "startLine", 1, "endLine", 0, "content", "zero"), null);
        assertEquals("zero\none\nTWO\nthree\n", Files.readString(ws.root().resolve("f.txt")));
        assertThrows(ToolException.class,
                () -> new EditFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "f.txt", "startLine", 9, "endLine", 9, "content", "x"), null));
    }

    @Test
    void listIsSortedByName() throws Exception {
        Workspace ws = workspace();
        Files.writeString(ws.root().resolve("b.txt"), "bb");
        Files.createDirectories(ws.root().resolve("a"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> entries = (List<Map<String, Object>>) new ListDirectory(WorkspaceTool.fixed(ws)).call(Map.of("path", "."), null).get("entries");
        assertEquals(List.of("a", "b.txt"), entries.stream().map(e -> e.get("name")).toList());
        assertEquals("dir", entries.get(0).get("type"));
        assertEquals(2L, entries.get(1).get("size"));
    }

    @Test
    void deleteRefusesTheRootAndNonEmptyDirectories() throws Exception {
        Workspace ws = workspace();
        Files.createDirectories(ws.root().resolve("d"));
        Files.writeString(ws.root().resolve("d/x"), "x");
        assertThrows(ToolException.class, () -> new DeleteFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "."), null));
        assertTrue(assertThrows(ToolException.class, () -> new DeleteFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "d"), null))
                .getMessage().contains("not empty"));
        new DeleteFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "d/x"), null);
        assertTrue(Files.notExists(ws.root().resolve("d/x")));
    }

    @Test
    void readRefusesTooLargeFiles() throws Exception {
        Workspace ws = workspace();
        Files.write(ws.root().resolve("big.bin"), new byte[(int) ReadFile.MAX_READ_BYTES + 1]);
        assertTrue(assertThrows(ToolException.class, () -> new ReadFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "big.bin"), null))
                .getMessage().contains("at most"));
    }

    @Test
    void editReplacesLinesWhateverTheLineEndsAndKeepsTheRest() throws Exception {
        Workspace ws = workspace();
        Files.writeString(ws.root().resolve("f.txt"), "one\r\ntwo\rthree\nfour");
        Map<String, Object> result = new EditFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "f.txt", "startLine", 2, "endLine", 3,
                "content", "TWO\nTHREE\nTHREE-AND-A-HALF"), null);
        assertEquals("one\nTWO\nTHREE\nTHREE-AND-A-HALF\nfour\n", Files.readString(ws.root().resolve("f.txt")));
        assertEquals(5, result.get("lines"));
        new EditFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "f.txt", "startLine", 6, "endLine", 5, "content", "five"), null);
        assertTrue(Files.readString(ws.root().resolve("f.txt")).endsWith("four\nfive\n"), "appended after the last line");
        ToolException outside = assertThrows(ToolException.class, () -> new EditFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "f.txt",
                "startLine", 9, "endLine", 9, "content", "x"), null));
        assertTrue(outside.getMessage().contains("which has 6 lines"), outside.getMessage());
    }

    @Test
    void editStreamsAFileLargerThanTheHeapCouldHoldTwice() throws Exception {
        Workspace ws = workspace();
        Path big = ws.root().resolve("big.txt");
        // 64 MiB on one line and a short second one: read whole (as chars, twice) it would be 256 MiB.
        try (var out = Files.newBufferedWriter(big)) {
            char[] block = new char[1 << 20];
            java.util.Arrays.fill(block, 'x');
            for (int i = 0; i < 64; i++) {
                out.write(block);
            }
            out.write("\nlast\n");
        }
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        long before = runtime.totalMemory() - runtime.freeMemory();
        new EditFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "big.txt", "startLine", 2, "endLine", 2, "content", "LAST"), null);
        long grew = runtime.totalMemory() - runtime.freeMemory() - before;
        assertTrue(grew < 64L << 20, "the edit held " + (grew >> 20) + " MiB");
        assertEquals((64L << 20) + 6, Files.size(big));
        assertEquals(List.of(), Files.list(ws.root()).filter(p -> p.getFileName().toString().endsWith(".tmp")).toList(),
                "no temporary file is left");
    }

    @Test
    void readOfALargeFileSaysHowToReadItInPartsAndReadsLineRanges() throws Exception {
        Workspace ws = workspace();
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 100_000; i++) {
            text.append("line ").append(i).append(" of a large file\n");
        }
        Files.writeString(ws.root().resolve("large.txt"), text);
        ToolException whole = assertThrows(ToolException.class, () -> new ReadFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "large.txt"), null));
        assertTrue(whole.getMessage().contains("startLine and endLine (it has 100000 lines)"), whole.getMessage());
        Map<String, Object> part = new ReadFile(WorkspaceTool.fixed(ws)).call(Map.of("path", "large.txt", "startLine", 500, "endLine", 501), null);
        assertEquals("line 500 of a large file\nline 501 of a large file\n", part.get("content"));
        assertEquals(100_000, part.get("lines"));
    }

    @Test
    void aListingShowsLinksAsLinksSkipsNothingAndNamesNoTarget() throws Exception {
        Workspace ws = workspace();
        Files.writeString(ws.root().resolve("a.txt"), "12345");
        Files.createSymbolicLink(ws.root().resolve("dangling"), dir.resolve("nowhere"));
        Path outside = Files.writeString(dir.resolve("secret.txt"), "x".repeat(1000));
        Files.createSymbolicLink(ws.root().resolve("out"), outside);
        Map<String, Object> listing = new ListDirectory(WorkspaceTool.fixed(ws)).call(Map.of("path", "."), null);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> entries = (List<Map<String, Object>>) listing.get("entries");
        assertEquals(List.of("a.txt", "dangling", "out"), entries.stream().map(e -> e.get("name")).toList());
        assertEquals(List.of("file", "link", "link"), entries.stream().map(e -> e.get("type")).toList());
        assertEquals(5L, entries.get(0).get("size"));
        assertTrue((Long) entries.get(2).get("size") < 1000, "the link's own size, not its target's");
        assertTrue(!listing.toString().contains(dir.toString()), "no absolute path: " + listing);
    }

    @Test
    void aHugeDirectoryIsListedInPart() throws Exception {
        Workspace ws = workspace();
        Path many = Files.createDirectories(ws.root().resolve("many"));
        for (int i = 0; i < ListDirectory.MAX_LIST_ENTRIES + 5; i++) {
            Files.createFile(many.resolve("f" + i));
        }
        Map<String, Object> listing = new ListDirectory(WorkspaceTool.fixed(ws)).call(Map.of("path", "many"), null);
        assertEquals(ListDirectory.MAX_LIST_ENTRIES, ((List<?>) listing.get("entries")).size());
        assertEquals("5 entries not listed (at most " + ListDirectory.MAX_LIST_ENTRIES + ")", listing.get("more"));
    }

    @Test
    void everyFileWriteKeepsSecretReferencesAsTextAndIsDangerousIntoADotFolder() throws Exception {
        Workspace ws = workspace();
        for (ai.lango.tool.Tool write : List.of(new WriteFile(WorkspaceTool.fixed(ws)), new EditFile(WorkspaceTool.fixed(ws)),
                new MakeDirectory(WorkspaceTool.fixed(ws)))) {
            assertTrue(write.keepsText(), write.name() + " stores {{secret:…}} as written, never the value");
            for (String hidden : List.of(".git/config", "repo/.git/hooks", ".ssh/authorized_keys", ".bashrc")) {
                assertEquals(ai.lango.tool.Safety.DANGEROUS, write.safety(Map.of("path", hidden)), write.name() + " " + hidden);
            }
            assertEquals(ai.lango.tool.Safety.MODERATE, write.safety(Map.of("path", "notes/todo.txt")), write.name());
        }
    }
}
