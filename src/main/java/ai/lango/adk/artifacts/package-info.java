/**
 * ADK's artifact service over Lango's durable {@link ai.lango.artifact.ArtifactStore}: what ADK's
 * tools and callbacks save and load, and what its artifact routes answer, as parts of inline data.
 * May import ADK, genai, RxJava, artifact and turn.
 */
package ai.lango.adk.artifacts;
