package ai.lango.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        Map<String, Object> written = FileTools.write(ws).call(Map.of("path", "notes/a.txt", "content", "hello"));
        assertEquals(5, written.get("bytes"));
        assertEquals("hello", FileTools.read(ws).call(Map.of("path", "notes/a.txt")).get("content"));
    }

    @Test
    void editReplacesAndInsertsLines() throws Exception {
        Workspace ws = workspace();
        Files.writeString(ws.root().resolve("f.txt"), "one\ntwo\nthree\n");
        FileTools.edit(ws).call(Map.of("path", "f.txt", "startLine", 2, "endLine", 2, "content", "TWO"));
        FileTools.edit(ws).call(Map.of("path", "f.txt", "startLine", 1, "endLine", 0, "content", "zero"));
        assertEquals("zero\none\nTWO\nthree\n", Files.readString(ws.root().resolve("f.txt")));
        assertThrows(ToolException.class,
                () -> FileTools.edit(ws).call(Map.of("path", "f.txt", "startLine", 9, "endLine", 9, "content", "x")));
    }

    @Test
    void listIsSortedByName() throws Exception {
        Workspace ws = workspace();
        Files.writeString(ws.root().resolve("b.txt"), "bb");
        Files.createDirectories(ws.root().resolve("a"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> entries = (List<Map<String, Object>>) FileTools.list(ws).call(Map.of("path", ".")).get("entries");
        assertEquals(List.of("a", "b.txt"), entries.stream().map(e -> e.get("name")).toList());
        assertEquals("dir", entries.get(0).get("type"));
        assertEquals(2L, entries.get(1).get("size"));
    }

    @Test
    void deleteRefusesTheRootAndNonEmptyDirectories() throws Exception {
        Workspace ws = workspace();
        Files.createDirectories(ws.root().resolve("d"));
        Files.writeString(ws.root().resolve("d/x"), "x");
        assertThrows(ToolException.class, () -> FileTools.delete(ws).call(Map.of("path", ".")));
        assertTrue(assertThrows(ToolException.class, () -> FileTools.delete(ws).call(Map.of("path", "d")))
                .getMessage().contains("not empty"));
        FileTools.delete(ws).call(Map.of("path", "d/x"));
        assertTrue(Files.notExists(ws.root().resolve("d/x")));
    }

    @Test
    void readRefusesTooLargeFiles() throws Exception {
        Workspace ws = workspace();
        Files.write(ws.root().resolve("big.bin"), new byte[(int) FileTools.MAX_READ_BYTES + 1]);
        assertTrue(assertThrows(ToolException.class, () -> FileTools.read(ws).call(Map.of("path", "big.bin")))
                .getMessage().contains("at most"));
    }
}
