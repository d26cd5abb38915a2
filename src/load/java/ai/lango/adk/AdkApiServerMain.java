package ai.lango.adk;

import ai.lango.adk.agents.AgentTree;
import ai.lango.adk.models.ModelAdapter;
import ai.lango.adk.tools.ToolCatalog;
import ai.lango.config.LangoSettings;
import ai.lango.config.TestSettings;
import ai.lango.prompt.PromptBuilder;
import ai.lango.provider.Provider;
import ai.lango.provider.ProviderCatalog;
import ai.lango.provider.ProviderSettings;
import ai.lango.tool.exec.ExecToolset;
import ai.lango.tool.fs.FileToolset;
import com.google.adk.agents.BaseAgent;
import com.google.adk.tools.BaseTool;
import com.google.adk.web.AdkWebServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * ADK's own API server (google-adk-dev's Spring Boot AdkWebServer, in-memory sessions) serving the
 * same agent Lango builds in single-agent mode: Lango's ModelAdapter over the OpenAI provider, the
 * same prompt and tools. Arguments: port, model base URL, workspace.
 */
public final class AdkApiServerMain {

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        Provider provider = ProviderCatalog.create(new ProviderSettings(ProviderCatalog.OPENAI, URI.create(args[1]), "sk-load", null, null));
        LangoSettings.ToolSettings tools = TestSettings.of(Path.of(args[2]), "lango.tools.workspace", args[2]).tools();
        List<BaseTool> adapted = ToolCatalog.adapt(List.of(new FileToolset(tools), new ExecToolset(tools)),
                Executors.newCachedThreadPool());
        BaseAgent agent = AgentTree.single(new ModelAdapter("load-model", provider, ModelAdapter.DIRECT), adapted,
                PromptBuilder.load(null), AgentTree.NO_SECTIONS);
        System.setProperty("server.port", String.valueOf(port));
        System.setProperty("server.address", "127.0.0.1");
        // Spring Boot would take over logging with Logback, which clashes with Lango's slf4j-jdk14.
        System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
        AdkWebServer.start(agent);
    }
}
