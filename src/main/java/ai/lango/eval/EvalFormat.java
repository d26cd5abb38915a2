package ai.lango.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * ADK's evaluation format, both ways. Files (*.evalset.json) are written in snake_case as ADK writes them; the
 * dev UI's API speaks camelCase; either is read. ADK's older *.test.json (a list of {query, expected_tool_use,
 * reference}) is read as one case. Intermediate data is read as tool uses or as invocation events. Lango's own
 * fields of an invocation: {@code delegations} (the agents handed over to; read from transfer_to_agent calls when
 * absent) and {@code approvals} ({tool, args, decision}; args when recorded). Fields Lango does not read are kept and written back.
 */
public final class EvalFormat {

    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** ADK's tool that hands a turn to another agent. */
    public static final String TRANSFER = "transfer_to_agent";
    /** ADK's call that asks a person to confirm a tool call. */
    public static final String CONFIRMATION = "adk_request_confirmation";

    /** Ids of sets and cases: a file name in any system, no path (ADK's own rule allows letters, digits and '_'). */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

    private static final Set<String> SET_FIELDS = Set.of("eval_set_id", "evalSetId", "name", "description", "eval_cases",
            "evalCases", "creation_timestamp", "creationTimestamp");
    private static final Set<String> CASE_FIELDS = Set.of("eval_id", "evalId", "conversation", "session_input", "sessionInput",
            "creation_timestamp", "creationTimestamp");
    private static final Set<String> INVOCATION_FIELDS = Set.of("invocation_id", "invocationId", "user_content", "userContent",
            "final_response", "finalResponse", "intermediate_data", "intermediateData", "delegations", "approvals",
            "creation_timestamp", "creationTimestamp", "invocationIndex");

    private EvalFormat() {
    }

    /** Whether {@code id} may name a set or a case. */
    public static boolean validId(String id) {
        return id != null && ID.matcher(id).matches() && !id.contains("..");
    }

    /** The set a file holds; {@code fileName} names it in errors and, without a suffix, is the set's id. */
    public static EvalSet readFile(String fileName, String json) throws EvalFormatException {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new EvalFormatException(fileName + ": not JSON (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")");
        }
        String id = setIdOf(fileName);
        if (root != null && root.isArray()) {
            return new EvalSet(id, id, null, List.of(legacyCase(id, root, fileName)), 0, null);
        }
        return readSet(root, fileName, id);
    }

    /** A file's set id: its name without .evalset.json, .test.json or .json. */
    public static String setIdOf(String fileName) {
        for (String suffix : List.of(".evalset.json", ".test.json", ".json")) {
            if (fileName.endsWith(suffix)) {
                return fileName.substring(0, fileName.length() - suffix.length());
            }
        }
        return fileName;
    }

    /** An eval set (snake_case or camelCase); {@code id}: the set's id whatever the JSON says (null: the JSON's). */
    public static EvalSet readSet(JsonNode root, String where, String id) throws EvalFormatException {
        if (root == null || !root.isObject()) {
            throw new EvalFormatException(where + ": an eval set must be a JSON object with eval_set_id and eval_cases");
        }
        String setId = id != null ? id : text(root, where, true, "eval_set_id", "evalSetId");
        JsonNode cases = field(root, "eval_cases", "evalCases");
        if (cases != null && !cases.isNull() && !cases.isArray()) {
            throw new EvalFormatException(where + ": eval_cases must be a list");
        }
        List<EvalCase> read = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; cases != null && i < cases.size(); i++) {
            EvalCase evalCase = readCase(cases.get(i), where + ": eval_cases[" + i + "]");
            if (!seen.add(evalCase.evalId())) {
                throw new EvalFormatException(where + ": eval_cases[" + i + "].eval_id \"" + evalCase.evalId() + "\" is there twice");
            }
            read.add(evalCase);
        }
        String name = text(root, where, false, "name");
        String description = text(root, where, false, "description");
        return new EvalSet(setId, name == null ? setId : name, description, read, number(root, "creation_timestamp",
                "creationTimestamp"), extra(root, SET_FIELDS));
    }

    /** One eval case (snake_case or camelCase). */
    public static EvalCase readCase(JsonNode node, String where) throws EvalFormatException {
        if (node == null || !node.isObject()) {
            throw new EvalFormatException(where + ": an eval case must be a JSON object");
        }
        String evalId = text(node, where, true, "eval_id", "evalId");
        JsonNode conversation = field(node, "conversation");
        if (conversation == null || !conversation.isArray()) {
            throw new EvalFormatException(where + ".conversation: missing, or not a list of invocations");
        }
        List<Invocation> invocations = new ArrayList<>();
        for (int i = 0; i < conversation.size(); i++) {
            invocations.add(readInvocation(conversation.get(i), where + ".conversation[" + i + "]"));
        }
        JsonNode session = field(node, "session_input", "sessionInput");
        ObjectNode sessionInput = null;
        if (session != null && !session.isNull()) {
            if (!session.isObject()) {
                throw new EvalFormatException(where + ".session_input: must be an object {app_name, user_id, state}");
            }
            JsonNode state = field(session, "state");
            if (state != null && !state.isNull() && !state.isObject()) {
                throw new EvalFormatException(where + ".session_input.state: must be an object");
            }
            sessionInput = (ObjectNode) session.deepCopy();
        }
        return new EvalCase(evalId, invocations, sessionInput, number(node, "creation_timestamp", "creationTimestamp"),
                extra(node, CASE_FIELDS));
    }

    static Invocation readInvocation(JsonNode node, String where) throws EvalFormatException {
        if (node == null || !node.isObject()) {
            throw new EvalFormatException(where + ": an invocation must be a JSON object");
        }
        JsonNode user = field(node, "user_content", "userContent");
        if (user == null || user.isNull()) {
            throw new EvalFormatException(where + ".user_content: missing (the user's message)");
        }
        String userText = contentText(user, where + ".user_content");
        JsonNode finalNode = field(node, "final_response", "finalResponse");
        String finalResponse = finalNode == null || finalNode.isNull() ? null : contentText(finalNode, where + ".final_response");
        List<Invocation.ToolUse> toolUses = new ArrayList<>();
        List<String> transfers = new ArrayList<>();
        JsonNode data = field(node, "intermediate_data", "intermediateData");
        if (data != null && !data.isNull()) {
            if (!data.isObject()) {
                throw new EvalFormatException(where + ".intermediate_data: must be an object");
            }
            JsonNode uses = field(data, "tool_uses", "toolUses");
            JsonNode events = field(data, "invocation_events", "invocationEvents");
            if (uses != null && !uses.isNull()) {
                if (!uses.isArray()) {
                    throw new EvalFormatException(where + ".intermediate_data.tool_uses: must be a list");
                }
                for (int i = 0; i < uses.size(); i++) {
                    toolUses.add(toolUse(uses.get(i), where + ".intermediate_data.tool_uses[" + i + "]"));
                }
            } else if (events != null && !events.isNull()) {
                if (!events.isArray()) {
                    throw new EvalFormatException(where + ".intermediate_data.invocation_events: must be a list");
                }
                for (int i = 0; i < events.size(); i++) {
                    JsonNode parts = events.get(i).path("content").path("parts");
                    for (int j = 0; j < parts.size(); j++) {
                        JsonNode call = field(parts.get(j), "function_call", "functionCall");
                        if (call != null && !call.isNull() && !CONFIRMATION.equals(call.path("name").asText())) {
                            toolUses.add(toolUse(call, where + ".intermediate_data.invocation_events[" + i + "].content.parts["
                                    + j + "].function_call"));
                        }
                    }
                }
            }
        }
        for (Invocation.ToolUse use : toolUses) {
            if (TRANSFER.equals(use.name()) && use.args().path("agent_name").isTextual()) {
                transfers.add(use.args().path("agent_name").asText());
            }
        }
        List<String> delegations = transfers;
        JsonNode named = field(node, "delegations");
        if (named != null && !named.isNull()) {
            if (!named.isArray()) {
                throw new EvalFormatException(where + ".delegations: must be a list of agent names");
            }
            delegations = new ArrayList<>();
            for (int i = 0; i < named.size(); i++) {
                if (!named.get(i).isTextual()) {
                    throw new EvalFormatException(where + ".delegations[" + i + "]: must be an agent's name");
                }
                delegations.add(named.get(i).asText());
            }
        }
        List<Invocation.ApprovalStep> approvals = new ArrayList<>();
        JsonNode asked = field(node, "approvals");
        if (asked != null && !asked.isNull()) {
            if (!asked.isArray()) {
                throw new EvalFormatException(where + ".approvals: must be a list of {tool, args, decision}");
            }
            for (int i = 0; i < asked.size(); i++) {
                String at = where + ".approvals[" + i + "]";
                String tool = text(asked.get(i), at, true, "tool");
                String decision = text(asked.get(i), at, true, "decision");
                if (!decision.equals("approved") && !decision.equals("denied")) {
                    throw new EvalFormatException(at + ".decision: \"" + decision + "\" is neither approved nor denied");
                }
                JsonNode args = asked.get(i).get("args");
                if (args != null && !args.isNull() && !args.isObject()) {
                    throw new EvalFormatException(at + ".args: must be the call's arguments, an object");
                }
                approvals.add(new Invocation.ApprovalStep(tool, decision.equals("approved"), args == null || args.isNull() ? null : args));
            }
        }
        String id = text(node, where, false, "invocation_id", "invocationId");
        return new Invocation(id == null ? "" : id, userText, finalResponse, toolUses, delegations, approvals,
                number(node, "creation_timestamp", "creationTimestamp"), extra(node, INVOCATION_FIELDS));
    }

    private static Invocation.ToolUse toolUse(JsonNode node, String where) throws EvalFormatException {
        if (node == null || !node.isObject()) {
            throw new EvalFormatException(where + ": a tool use must be an object {name, args}");
        }
        String name = text(node, where, true, "name");
        JsonNode args = field(node, "args");
        if (args != null && !args.isNull() && !args.isObject()) {
            throw new EvalFormatException(where + ".args: must be an object");
        }
        return new Invocation.ToolUse(name, args == null || args.isNull() ? JsonNodeFactory.instance.objectNode() : args.deepCopy());
    }

    /** ADK's older test file: one case whose turns are {query, expected_tool_use[{tool_name, tool_input}], reference}. */
    private static EvalCase legacyCase(String id, JsonNode turns, String where) throws EvalFormatException {
        List<Invocation> invocations = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            JsonNode turn = turns.get(i);
            String at = where + ": [" + i + "]";
            if (!turn.isObject()) {
                throw new EvalFormatException(at + ": a turn must be an object {query, expected_tool_use, reference}");
            }
            String query = text(turn, at, true, "query");
            List<Invocation.ToolUse> uses = new ArrayList<>();
            JsonNode expected = turn.path("expected_tool_use");
            for (int j = 0; j < expected.size(); j++) {
                JsonNode use = expected.get(j);
                String name = text(use, at + ".expected_tool_use[" + j + "]", true, "tool_name");
                JsonNode input = use.path("tool_input");
                uses.add(new Invocation.ToolUse(name, input.isObject() ? input.deepCopy() : JsonNodeFactory.instance.objectNode()));
            }
            List<String> delegations = new ArrayList<>();
            for (Invocation.ToolUse use : uses) {
                if (TRANSFER.equals(use.name()) && use.args().path("agent_name").isTextual()) {
                    delegations.add(use.args().path("agent_name").asText());
                }
            }
            String reference = text(turn, at, false, "reference");
            invocations.add(new Invocation("", query, reference == null ? "" : reference, uses, delegations, List.of(), 0, null));
        }
        return new EvalCase(id, invocations, null, 0, null);
    }

    // ------------------------------------------------------------------------------ writing

    /** The set as an *.evalset.json file holds it (snake_case). */
    public static ObjectNode fileJson(EvalSet set) {
        ObjectNode json = base(set.extra());
        json.put("eval_set_id", set.id());
        json.put("name", set.name() == null ? set.id() : set.name());
        if (set.description() != null) {
            json.put("description", set.description());
        }
        ArrayNode cases = json.putArray("eval_cases");
        for (EvalCase evalCase : set.cases()) {
            cases.add(caseJson(evalCase, false));
        }
        json.put("creation_timestamp", set.created());
        return json;
    }

    /** The set as the dev UI reads it: the set's own keys in snake_case (as ADK's EvalSet), its cases in camelCase. */
    public static ObjectNode wireSet(EvalSet set) {
        ObjectNode json = fileJson(set);
        ArrayNode cases = json.putArray("eval_cases");
        for (EvalCase evalCase : set.cases()) {
            cases.add(caseJson(evalCase, true));
        }
        return json;
    }

    /** One case, in camelCase ({@code wire}) or snake_case. */
    public static ObjectNode caseJson(EvalCase evalCase, boolean wire) {
        ObjectNode json = base(evalCase.extra());
        json.put(wire ? "evalId" : "eval_id", evalCase.evalId());
        ArrayNode conversation = json.putArray("conversation");
        for (Invocation invocation : evalCase.conversation()) {
            conversation.add(invocationJson(invocation, wire, false));
        }
        if (evalCase.sessionInput() != null) {
            ObjectNode input = JsonNodeFactory.instance.objectNode();
            evalCase.sessionInput().fields().forEachRemaining(e -> input.set(wire ? camel(e.getKey()) : snake(e.getKey()), e.getValue()));
            json.set(wire ? "sessionInput" : "session_input", input);
        }
        json.put(wire ? "creationTimestamp" : "creation_timestamp", evalCase.created());
        return json;
    }

    /**
     * One invocation; {@code actual}: one that a run produced, written whole for the dev UI (which reads its final
     * response and tool uses without checking that they are there).
     */
    public static ObjectNode invocationJson(Invocation invocation, boolean wire, boolean actual) {
        ObjectNode json = base(invocation.extra());
        json.put(wire ? "invocationId" : "invocation_id", invocation.id());
        json.set(wire ? "userContent" : "user_content", content("user", invocation.userText()));
        if (invocation.finalResponse() != null || actual) {
            json.set(wire ? "finalResponse" : "final_response", content("model",
                    invocation.finalResponse() == null ? "" : invocation.finalResponse()));
        }
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        ArrayNode uses = data.putArray(wire ? "toolUses" : "tool_uses");
        for (Invocation.ToolUse use : invocation.toolUses()) {
            uses.addObject().put("name", use.name()).set("args", use.args());
        }
        json.set(wire ? "intermediateData" : "intermediate_data", data);
        List<String> transfers = invocation.toolUses().stream().filter(u -> TRANSFER.equals(u.name()))
                .map(u -> u.args().path("agent_name").asText()).toList();
        if (!invocation.delegations().equals(transfers) || actual) {
            ArrayNode delegations = json.putArray("delegations");
            invocation.delegations().forEach(delegations::add);
        }
        if (!invocation.approvals().isEmpty() || actual) {
            ArrayNode approvals = json.putArray("approvals");
            for (Invocation.ApprovalStep step : invocation.approvals()) {
                ObjectNode written = approvals.addObject().put("tool", step.tool());
                if (step.args() != null) {
                    written.set("args", step.args());
                }
                written.put("decision", step.decision());
            }
        }
        json.put(wire ? "creationTimestamp" : "creation_timestamp", invocation.created());
        return json;
    }

    private static ObjectNode content(String role, String text) {
        ObjectNode content = JsonNodeFactory.instance.objectNode().put("role", role);
        content.putArray("parts").addObject().put("text", text);
        return content;
    }

    // ------------------------------------------------------------------------------ helpers

    private static ObjectNode base(ObjectNode extra) {
        return extra == null ? JsonNodeFactory.instance.objectNode() : extra.deepCopy();
    }

    private static ObjectNode extra(JsonNode node, Set<String> known) {
        ObjectNode extra = JsonNodeFactory.instance.objectNode();
        node.fields().forEachRemaining(e -> {
            if (!known.contains(e.getKey())) {
                extra.set(e.getKey(), e.getValue().deepCopy());
            }
        });
        return extra.isEmpty() ? null : extra;
    }

    private static JsonNode field(JsonNode node, String... names) {
        for (String name : names) {
            if (node.has(name)) {
                return node.get(name);
            }
        }
        return null;
    }

    private static String text(JsonNode node, String where, boolean required, String... names) throws EvalFormatException {
        JsonNode value = field(node, names);
        if (value == null || value.isNull()) {
            if (required) {
                throw new EvalFormatException(where + "." + names[0] + ": missing");
            }
            return null;
        }
        if (!value.isTextual()) {
            throw new EvalFormatException(where + "." + names[0] + ": must be a string");
        }
        return value.asText();
    }

    private static double number(JsonNode node, String... names) {
        JsonNode value = field(node, names);
        return value != null && value.isNumber() ? value.asDouble() : 0;
    }

    /** The text of a Content ({role, parts[{text}]}): its text parts joined by new lines, thoughts left out. */
    static String contentText(JsonNode content, String where) throws EvalFormatException {
        if (content.isTextual()) {
            return content.asText();
        }
        JsonNode parts = content.path("parts");
        if (!content.isObject() || (!parts.isMissingNode() && !parts.isNull() && !parts.isArray())) {
            throw new EvalFormatException(where + ": must be a content {role, parts: [{text}]}");
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode part : parts) {
            if (part.path("text").isTextual() && !part.path("thought").asBoolean(false)) {
                texts.add(part.path("text").asText());
            }
        }
        return String.join("\n", texts);
    }

    private static String camel(String key) {
        StringBuilder out = new StringBuilder();
        boolean up = false;
        for (char c : key.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                out.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return out.toString();
    }

    private static String snake(String key) {
        StringBuilder out = new StringBuilder();
        for (char c : key.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('_').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
