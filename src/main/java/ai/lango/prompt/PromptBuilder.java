package ai.lango.prompt;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Assembles system prompts from {@link PromptSection}s. The single agent gets every section; the
 * orchestrator swaps the identity for a delegation-focused one and gets no tool-usage section,
 * whose tool words a model could take for agent names; a sub-agent keeps tool usage only when it
 * has tools.
 */
public final class PromptBuilder {

    static final String BUNDLED = "/prompts/";

    private final Map<PromptSection, String> sections;

    PromptBuilder(Map<PromptSection, String> sections) {
        this.sections = new EnumMap<>(sections);
    }

    /** The bundled sections, each replaced by {@code overrides/<file>} where the operator put one. */
    public static PromptBuilder load(Path overrides) {
        return of(section -> {
            Path file = overrides == null ? null : overrides.resolve(section.file());
            if (file != null && Files.isRegularFile(file)) {
                try {
                    return Files.readString(file, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read prompt section " + file, e);
                }
            }
            return bundled(section);
        });
    }

    static PromptBuilder of(Function<PromptSection, String> source) {
        Map<PromptSection, String> sections = new EnumMap<>(PromptSection.class);
        for (PromptSection section : PromptSection.values()) {
            sections.put(section, source.apply(section).strip());
        }
        return new PromptBuilder(sections);
    }

    /** A SHA-256 of every section as loaded (the first 12 hex digits): which prompts an eval result ran under. */
    public String fingerprint() {
        try {
            java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
            for (PromptSection section : PromptSection.values()) {
                digest.update(section.file().getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
                digest.update(sections.get(section).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            return java.util.HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public String section(PromptSection section) {
        return sections.get(section);
    }

    /** Where the identity says what the agent's tools let it do. */
    static final String TOOLS = "{tools}";

    /** The single agent's prompt: every section, the identity naming only the capabilities of the tools it has. */
    public String singleAgent(String capabilities) {
        String tools = capabilities.isBlank() ? "You have no tools in this conversation: answer from what you know."
                : "With your tools you can act on the user's behalf: " + capabilities + ".";
        return join(PromptSection.IDENTITY, PromptSection.SAFETY, PromptSection.CONVERSATION, PromptSection.TOOL_USAGE)
                .replace(TOOLS, tools);
    }

    /** The orchestrator's prompt: delegation identity, no tool usage, then the delegation rules. */
    public String orchestrator(String delegationRules) {
        return join(PromptSection.ORCHESTRATOR_IDENTITY, PromptSection.SAFETY, PromptSection.CONVERSATION)
                + "\n\n" + delegationRules;
    }

    /** A sub-agent's prompt: its role first, safety, and tool usage when it has tools. */
    public String subAgent(String role, boolean hasTools) {
        return role + "\n\n" + (hasTools ? join(PromptSection.SAFETY, PromptSection.TOOL_USAGE) : join(PromptSection.SAFETY));
    }

    private String join(PromptSection... parts) {
        return Stream.of(parts).map(sections::get).filter(text -> !text.isEmpty()).collect(Collectors.joining("\n\n"));
    }

    private static String bundled(PromptSection section) {
        try (InputStream in = PromptBuilder.class.getResourceAsStream(BUNDLED + section.file())) {
            Objects.requireNonNull(in, () -> "prompt section " + section.file() + " is missing from the build");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
