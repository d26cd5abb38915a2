package ai.lango.tool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.tool.fs.FileToolset;
import ai.lango.turn.Names;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With authentication on, each user's file tools work in a folder of their own; the operator's in the workspace. */
class WorkspacePerUserTest {

    @TempDir
    Path dir;

    private Map<String, Tool> tools(boolean perUser) {
        // A user's own folder comes with authentication: a token.
        LangoSettings.ToolSettings settings = TestSettings.of(dir, "lango.tools.workspace", dir.resolve("ws").toString(),
                "lango.tools.exec.timeout", "PT5S", "lango.auth.token", perUser ? "operator-token" : null).tools();
        Map<String, Tool> byName = new java.util.HashMap<>();
        new FileToolset(settings).tools().forEach(tool -> byName.put(tool.name(), tool));
        return byName;
    }

    private static Caller as(String user) {
        return new Caller(user, "s", false, false);
    }

    @Test
    void aUsersFilesAreInTheirOwnFolderAndNoOtherUserReachesThem() throws Exception {
        Map<String, Tool> fs = tools(true);
        fs.get("fs_write").call(Map.of("path", "private/diary.txt", "content", "ann's PIN is 4921"), as("ann"));
        assertTrue(Files.exists(dir.resolve("ws/users/ann/private/diary.txt")));

        for (String path : List.of("private/diary.txt", "../ann/private/diary.txt", "../../users/ann/private/diary.txt",
                dir.resolve("ws/users/ann/private/diary.txt").toString())) {
            assertThrows(ToolException.class, () -> fs.get("fs_read").call(Map.of("path", path), as("bob")), path);
        }
        assertFalse(fs.get("fs_list").call(Map.of("path", "."), as("bob")).toString().contains("private"), "bob lists his own folder");
        assertTrue(fs.get("fs_read").call(Map.of("path", "private/diary.txt"), as("ann")).toString().contains("4921"));
        assertTrue(fs.get("fs_read").call(Map.of("path", "users/ann/private/diary.txt"), as("user")).toString()
                .contains("4921"), "the operator administers: the workspace holds every user's folder");
    }

    @Test
    void twoUsersWhoChooseTheSameEvalSessionIdDoNotShareItsScratchFolder() throws Exception {
        // a session id is the client's to choose: one with the eval runs' prefix must not open another user's folder
        String session = Names.EVAL_SESSION_PREFIX + java.util.UUID.randomUUID();
        List<Path> scratch = List.of(TestSettings.defaults(dir).tools().workspaceOf("ann", session, "user"),
                TestSettings.defaults(dir).tools().workspaceOf("bob", session, "user"));
        try {
            sharedByNoOne(session);
        } finally {
            for (Path folder : scratch) {
                if (Files.exists(folder)) {
                    try (var files = Files.walk(folder)) {
                        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                    }
                }
                folder.getParent().toFile().delete(); // the user's, when no other session of theirs is there
            }
        }
    }

    private void sharedByNoOne(String session) throws Exception {
        for (boolean perUser : List.of(true, false)) {
            Map<String, Tool> fs = tools(perUser);
            fs.get("fs_write").call(Map.of("path", "loot.txt", "content", "ann's token " + perUser), new Caller("ann", session, false, false));
            assertThrows(ToolException.class, () -> fs.get("fs_read").call(Map.of("path", "loot.txt"), new Caller("bob", session, false, false)),
                    "bob's session of that id is a folder of his own");
            assertTrue(fs.get("fs_read").call(Map.of("path", "loot.txt"), new Caller("ann", session, false, false)).toString()
                    .contains("ann's token " + perUser));
            assertFalse(Files.exists(dir.resolve("ws").resolve("loot.txt")), "a scratch folder, never the workspace");
        }
    }

    @Test
    void withoutAuthenticationEveryCallerIsTheOperatorInTheWorkspace() throws Exception {
        Map<String, Tool> fs = tools(false);
        fs.get("fs_write").call(Map.of("path", "notes.txt", "content", "shared"), as("ann"));
        assertTrue(Files.exists(dir.resolve("ws/notes.txt")));
        assertTrue(fs.get("fs_read").call(Map.of("path", "notes.txt"), as("bob")).toString().contains("shared"));
    }
}
