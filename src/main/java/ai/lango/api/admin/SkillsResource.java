package ai.lango.api.admin;

import ai.lango.api.ApiError;
import ai.lango.api.ApiJson;
import ai.lango.skills.Skill;
import ai.lango.skills.SkillLibrary;
import ai.lango.skills.SkillToolset;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** For operators: the skills folder — every skill with what is wrong with a broken one, one skill whole, a skill deleted. */
@Path("admin/skills")
@Produces(MediaType.APPLICATION_JSON)
@ApplicationScoped
public class SkillsResource {

    @Inject
    SkillLibrary library;

    @GET
    public Response skills() {
        List<Skill> skills = library.all();
        ObjectNode body = ApiJson.MAPPER.createObjectNode().put("dir", library.dir().toString());
        body.set("skills", ApiJson.MAPPER.valueToTree(skills.stream().map(SkillToolset::summary).toList()));
        return ApiJson.ok(body.put("count", skills.size()).put("usable", skills.stream().filter(Skill::usable).count()));
    }

    @GET
    @Path("{name}")
    public Response skill(@PathParam("name") String name) {
        return library.find(name).map(skill -> {
            ObjectNode body = (ObjectNode) ApiJson.MAPPER.valueToTree(SkillToolset.summary(skill));
            body.put("license", skill.license()).put("compatibility", skill.compatibility()).put("instructions", skill.body());
            body.set("metadata", ApiJson.MAPPER.valueToTree(skill.metadata()));
            body.set("allowedTools", ApiJson.MAPPER.valueToTree(skill.allowedTools()));
            body.set("resources", ApiJson.MAPPER.valueToTree(skill.usable() ? library.resources(skill) : List.of()));
            return ApiJson.ok(body);
        }).orElseGet(() -> notFound(name));
    }

    @DELETE
    @Path("{name}")
    public Response delete(@PathParam("name") String name) {
        return library.delete(name) ? Response.noContent().build() : notFound(name);
    }

    private static Response notFound(String name) {
        return ApiError.of(Response.Status.NOT_FOUND, "skill_not_found", "no skill \"" + name + "\" in the skills folder");
    }
}
