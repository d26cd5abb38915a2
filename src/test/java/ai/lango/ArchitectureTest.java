package ai.lango;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import jakarta.ws.rs.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rules of the house (docs/architecture.md, "Layout"), checked on the compiled main classes. */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("ai.lango");
    }

    @Test
    void onlyTheAdkPackageUsesAdkGenaiOrRxJava() {
        noClasses().that().resideOutsideOfPackage("ai.lango.adk..")
                .should().dependOnClassesThat().resideInAnyPackage("com.google.adk..", "com.google.genai..", "io.reactivex..")
                .check(classes);
    }

    @Test
    void everyLoggerMasksSecrets() {
        noClasses().that().resideOutsideOfPackage("ai.lango.masking..")
                .should().callMethod(java.util.logging.Logger.class, "getLogger", String.class)
                .because("a logger from MaskedLogs.of masks every known secret in what it logs")
                .check(classes);
    }

    @Test
    void nothingDependsOnTheEdges() {
        noClasses().that().resideOutsideOfPackage("ai.lango.api..")
                .should().dependOnClassesThat().resideInAPackage("ai.lango.api..")
                .check(classes);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(classes);
    }

    /**
     * The packages the cycle rule compares: each of ai.lango's own, its sub-packages with it, except net's, which are
     * four packages of their own (sse, jsonrpc, http, egress) that share a name and nothing else.
     */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass type) {
            String name = type.getPackageName();
            if (!name.startsWith("ai.lango.")) {
                return SliceIdentifier.ignore();
            }
            String[] parts = name.substring("ai.lango.".length()).split("\\.");
            return SliceIdentifier.of(parts[0].equals("net") && parts.length > 1 ? "net." + parts[1] : parts[0]);
        }

        @Override
        public String getDescription() {
            return "ai.lango's packages, net's four each one";
        }
    };

    @Test
    void adkConceptsHaveNoCyclesAndNeverReferBackToTheService() {
        slices().matching("ai.lango.adk.(*)..").should().beFreeOfCycles().check(classes);
        noClasses().that().resideInAnyPackage("ai.lango.adk.sessions..", "ai.lango.adk.models..", "ai.lango.adk.tools..",
                        "ai.lango.adk.agents..", "ai.lango.adk.runner..", "ai.lango.adk.memory..")
                .should().dependOnClassesThat().resideInAPackage("ai.lango.adk")
                .check(classes);
    }

    @Test
    void theAgentLayerKnowsSubsystemsOnlyThroughTheirPlugInPoints() {
        noClasses().that().resideInAPackage("ai.lango.adk..")
                .should().dependOnClassesThat().resideInAnyPackage("ai.lango.memory..", "ai.lango.learning..", "ai.lango.knowledge..")
                .check(classes);
    }

    @Test
    void onlyRetrievalUsesTheEmbeddingRuntimeAndLucene() {
        noClasses().that().resideOutsideOfPackage("ai.lango.retrieval..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.langchain4j..", "ai.djl..", "ai.onnxruntime..",
                        "org.apache.lucene..")
                .check(classes);
    }

    @Test
    void theAgentLayerKnowsRetrievalAndTheGraphOnlyThroughTheirPlugInPoints() {
        noClasses().that().resideInAPackage("ai.lango.adk..")
                .should().dependOnClassesThat().resideInAnyPackage("ai.lango.retrieval..", "ai.lango.graph..")
                .check(classes);
    }

    @Test
    void theTurnVocabularyIsPlainJava() {
        noClasses().that().resideInAPackage("ai.lango.turn..")
                .should().dependOnClassesThat().resideOutsideOfPackages("ai.lango.turn..", "java..")
                .check(classes);
    }

    @Test
    void pureLogicKnowsNoContainer() {
        noClasses().that().resideInAnyPackage("ai.lango.orchestration..", "ai.lango.turn..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta..")
                .check(classes);
    }

    /**
     * The tiers of docs/architecture.md: each may use the tiers below it, never one above; and the edges reach the
     * engine only through the application layer (what a turn is, written once), but for the ADK API's views of stored
     * sessions and artifacts as ADK writes them.
     */
    @Test
    void tiersDependOnlyDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("edges").definedBy("ai.lango.api..")
                .layer("application").definedBy(APPLICATION)
                .layer("engine").definedBy("ai.lango.adk..", "ai.lango.orchestration..")
                .layer("capabilities").definedBy(CAPABILITIES)
                .layer("platform").definedBy(PLATFORM)
                .whereLayer("edges").mayNotBeAccessedByAnyLayer()
                .whereLayer("application").mayOnlyBeAccessedByLayers("edges")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("application", "edges")
                .whereLayer("capabilities").mayOnlyBeAccessedByLayers("edges", "application", "engine")
                .whereLayer("platform").mayOnlyBeAccessedByLayers("edges", "application", "engine", "capabilities")
                .check(classes);
        noClasses().that().resideInAPackage("ai.lango.api..")
                .should().dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe("the engine but its ADK views",
                        (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName().startsWith("ai.lango.adk")
                                && !c.getSimpleName().equals("AdkSessions") && !c.getSimpleName().equals("AdkArtifacts")))
                .orShould().dependOnClassesThat().resideInAPackage("ai.lango.orchestration..")
                .because("an edge translates its wire format into the application layer's calls; what a turn does is decided there")
                .check(classes);
    }

    /**
     * A turn's state is passed, never looked up: no thread-local anywhere (a continuation after an approval may run on
     * another thread), and no static map or set where tools and the runner would find a turn by its session (who
     * runs a call is the turn's context, handed down through ADK's invocation and tool contexts).
     */
    @Test
    void noPerTurnStateIsAmbient() {
        noClasses().should().dependOnClassesThat().areAssignableTo(ThreadLocal.class)
                .because("a turn's caller, budget, trace and deadline travel in its TurnContext, to any thread").check(classes);
        noClasses().that().resideInAnyPackage("ai.lango.tool..", "ai.lango.turn..", "ai.lango.adk.tools..", "ai.lango.adk.runner..",
                        "ai.lango.turns..")
                .should().callConstructorWhere(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "a map or set made for a static field",
                        (com.tngtech.archunit.core.domain.JavaConstructorCall call) -> call.getOrigin().getName().equals("<clinit>")
                                && (call.getTargetOwner().isAssignableTo(java.util.Map.class)
                                || call.getTargetOwner().isAssignableTo(java.util.Set.class))))
                .because("a registry keyed by session is per-turn state looked up, where it must be passed").check(classes);
    }

    /** Every package says what it holds: a package-info.java beside its classes. */
    @Test
    void everyPackageHasAPackageInfo() throws java.io.IOException {
        java.nio.file.Path main = java.nio.file.Path.of("src/main/java");
        try (java.util.stream.Stream<java.nio.file.Path> dirs = java.nio.file.Files.walk(main)) {
            java.util.List<String> undocumented = dirs.filter(java.nio.file.Files::isDirectory).filter(dir -> {
                try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(dir)) {
                    return files.anyMatch(f -> f.toString().endsWith(".java"))
                            && !java.nio.file.Files.exists(dir.resolve("package-info.java"));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(main::relativize).map(java.nio.file.Path::toString).sorted().toList();
            assertEquals(java.util.List.of(), undocumented, "packages without a package-info.java");
        }
    }

    /** Every JPA entity is in persistence.xml (its unit lists its classes and excludes the rest: one left out is silently not mapped). */
    @Test
    void everyEntityIsListedInPersistenceXml() throws java.io.IOException {
        String unit = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/resources/META-INF/persistence.xml"));
        java.util.List<String> unlisted = classes.stream().filter(c -> c.isAnnotatedWith(jakarta.persistence.Entity.class))
                .map(JavaClass::getName).filter(name -> !unit.contains("<class>" + name + "</class>")).sorted().toList();
        assertEquals(java.util.List.of(), unlisted, "entities missing from persistence.xml");
        assertFalse(classes.stream().noneMatch(c -> c.isAnnotatedWith(jakarta.persistence.Entity.class)), "entities were found at all");
    }

    /** The application layer: the use cases of a turn (start, answer, expire, stop), which every edge calls. */
    static final String[] APPLICATION = {"ai.lango.turns.."};

    static final String[] CAPABILITIES = {"ai.lango.a2a..", "ai.lango.approval..", "ai.lango.artifact..", "ai.lango.browser..", "ai.lango.eval..", "ai.lango.mcp..",
            "ai.lango.graph..", "ai.lango.knowledge..", "ai.lango.learning..", "ai.lango.memory..", "ai.lango.payment..",
            "ai.lango.retrieval..", "ai.lango.schedule..", "ai.lango.skills..", "ai.lango.vault.."};
    static final String[] PLATFORM = {"ai.lango.config..", "ai.lango.database..", "ai.lango.masking..", "ai.lango.net..", "ai.lango.prompt..",
            "ai.lango.provider..", "ai.lango.security..", "ai.lango.session..", "ai.lango.tool..", "ai.lango.turn..", "ai.lango.usage..", "ai.lango.telemetry.."};

    /** Every package is in a tier: a new one must be placed (here and in docs/architecture.md) before it builds. */
    @Test
    void everyPackageHasATier() {
        classes().that().resideOutsideOfPackages("ai.lango.api..", "ai.lango.adk..", "ai.lango.orchestration..")
                .and().resideOutsideOfPackages(APPLICATION)
                .and().resideOutsideOfPackages(CAPABILITIES).and().resideOutsideOfPackages(PLATFORM)
                .should().resideInAPackage("nothing.else")
                .because("every package belongs to a tier of docs/architecture.md").allowEmptyShould(true)
                .check(classes);
    }

    /** The edges are rooms of their own: one sub-package per edge, sharing only what api's top level holds. */
    @Test
    void edgesDoNotUseEachOther() {
        slices().matching("ai.lango.api.(*)..").should().notDependOnEachOther().check(classes);
        noClasses().that().resideInAPackage("ai.lango.api")
                .should().dependOnClassesThat().resideInAPackage("ai.lango.api.(*)..")
                .because("what every edge shares must not depend on one edge")
                .check(classes);
    }

    /** No two JAX-RS resources claim the same path, and none claims the whole API. */
    @Test
    void everyResourceHasAPathOfItsOwn() {
        Map<String, String> owners = new HashMap<>();
        for (JavaClass resource : classes.that(com.tngtech.archunit.base.DescribedPredicate.describe("a resource",
                (JavaClass c) -> c.isAnnotatedWith(Path.class)))) {
            String path = resource.getAnnotationOfType(Path.class).value().replaceAll("^/+|/+$", "");
            String earlier = owners.put(path, resource.getName());
            assertEquals(null, earlier, "@Path(\"" + path + "\") of " + resource.getName() + " is also " + earlier + "'s");
        }
        assertFalse(owners.isEmpty());
    }

    @Test
    void onlyEntitiesAndRowClassesUseJpa() {
        noClasses().that().haveSimpleNameNotEndingWith("Entity").and().haveSimpleNameNotEndingWith("Rows")
                .and().haveSimpleNameNotEndingWith("Store").and().haveSimpleNameNotEndingWith("Ledger")
                .and().resideOutsideOfPackage("ai.lango.database..")
                .should().dependOnClassesThat().resideInAPackage("jakarta.persistence..")
                .because("a table is read and written in one place: its *Rows (or store) class")
                .check(classes);
    }

    @Test
    void maskingAndTheTurnVocabularyUseOnlyTheJdk() {
        noClasses().that().resideInAnyPackage("ai.lango.masking..", "ai.lango.turn..")
                .should().dependOnClassesThat().resideOutsideOfPackages("ai.lango.masking..", "ai.lango.turn..", "java..")
                .check(classes);
    }

    /** One way to write a tool: every tool extends DeclaredTool, which takes its family, so none is routed by accident. */
    @Test
    void everyToolIsADeclaredTool() {
        classes().that().implement(ai.lango.tool.Tool.class).and().doNotHaveFullyQualifiedName(ai.lango.tool.DeclaredTool.class.getName())
                .should().beAssignableTo(ai.lango.tool.DeclaredTool.class)
                .check(classes);
    }
}
