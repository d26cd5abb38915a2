package ai.lango.skills;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Agent Skills specification's rules for SKILL.md, as SkillFormat reads and writes it. */
class SkillFormatTest {

    private static Skill read(String folder, String text) {
        return SkillFormat.read(Path.of("/skills", folder), text);
    }

    @Test
    void namesAreLowercaseLettersDigitsAndSingleHyphensNotAtEitherEndAtMost64() {
        for (String good : List.of("pdf", "pdf-tools", "a", "a1-b2-c3", "x".repeat(64))) {
            assertNull(SkillFormat.nameProblem(good), good);
        }
        for (String bad : List.of("", "PDF", "Pdf-tools", "-pdf", "pdf-", "pdf--tools", "pdf_tools", "pdf tools", "pdf.tools",
                "x".repeat(65), "é")) {
            assertTrue(SkillFormat.nameProblem(bad) != null, bad);
        }
    }

    @Test
    void theNameMustEqualTheFolders() {
        Skill skill = read("other", "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\nBody");
        assertEquals(List.of("name: must equal the folder's name (\"pdf-tools\" is in the folder \"other\")"), skill.problems());
        assertFalse(skill.usable());
    }

    @Test
    void aDescriptionIsRequiredAndAtMost1024Characters() {
        assertEquals(List.of("description: required (what the skill does and when to use it)"),
                read("a", "---\nname: a\n---\nBody").problems());
        assertTrue(read("a", "---\nname: a\ndescription: " + "d".repeat(1025) + "\n---\n").problems().get(0)
                .startsWith("description: at most 1024 characters"));
        assertTrue(read("a", "---\nname: a\ndescription: " + "d".repeat(1024) + "\n---\n").usable());
    }

    @Test
    void frontMatterWithAnUnquotedColonQuotesAndUnknownFieldsIsReadAsMeant() {
        Skill colon = read("deploy", "---\nname: deploy\ndescription: Use when: the user says \"ship it\"\nauthor: ann\n---\n# Steps\n1. Build");
        assertEquals(List.of(), colon.problems(), "strict YAML refuses the colon; the skill is read anyway");
        assertEquals("Use when: the user says \"ship it\"", colon.description());
        assertEquals("# Steps\n1. Build", colon.body());

        Skill quoted = read("q", "---\nname: q\ndescription: 'It''s: quoted'\nlicense: Apache-2.0\ncompatibility: needs git\n"
                + "metadata:\n  author: ann\n  version: \"1.0\"\nallowed-tools: Bash(git:*) Read\nx-unknown: [1, 2]\n---\nBody");
        assertEquals(List.of(), quoted.problems());
        assertEquals("It's: quoted", quoted.description());
        assertEquals(Map.of("author", "ann", "version", "1.0"), quoted.metadata());
        assertEquals(List.of("Bash(git:*)", "Read"), quoted.allowedTools());
        assertEquals("Apache-2.0", quoted.license());
    }

    @Test
    void whatIsWrongNamesTheFieldAndTheRule() {
        assertEquals(List.of("front matter: SKILL.md must start with a line \"---\", the YAML front matter, and another \"---\""),
                read("a", "# no front matter").problems());
        assertEquals(List.of("front matter: no closing \"---\" line"), read("a", "---\nname: a\n").problems());
        assertTrue(read("a", "---\nname: a\ndescription: d\ncompatibility: " + "c".repeat(501) + "\n---\n").problems().get(0)
                .startsWith("compatibility: 1 to 500 characters"));
        assertEquals(List.of("metadata: values are text (\"nested\" is not)"),
                read("a", "---\nname: a\ndescription: d\nmetadata:\n  nested:\n    deep: 1\n---\n").problems());
    }

    @Test
    void whatCreateSkillWritesReadsBackAsWrittenWhateverTheDescriptionHolds() {
        for (String description : List.of("Plain.", "Use when: asked", "\"quoted\" and 'single'", "- starts like a list",
                "# like a comment", "yes", "123", "multi\nline: text", "trailing colon:")) {
            String text = SkillFormat.write("tricky", description, "Do it.\n");
            Skill skill = read("tricky", text);
            assertEquals(List.of(), skill.problems(), text);
            assertEquals(description, skill.description(), text);
            assertEquals("Do it.", skill.body());
        }
    }
}
