package ai.lango;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rules of the house (README, "Layout"), checked on the compiled main classes. */
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
        slices().matching("ai.lango.(*)..").should().beFreeOfCycles().check(classes);
    }

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
}
