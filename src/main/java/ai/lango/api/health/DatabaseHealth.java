package ai.lango.api.health;

import ai.lango.config.LangoSettings;
import ai.lango.database.LangoStartup;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** /health reports whether the database answers, and which one it is. */
@Readiness
@ApplicationScoped
public class DatabaseHealth implements HealthCheck {

    private static final int TIMEOUT_SECONDS = 2;

    @Resource(lookup = LangoStartup.DATA_SOURCE)
    DataSource dataSource;

    @Inject
    LangoSettings settings;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("database").withData("kind", settings.database().kind().key());
        try (Connection connection = dataSource.getConnection()) {
            var meta = connection.getMetaData();
            response.withData("product", meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion());
            return response.status(connection.isValid(TIMEOUT_SECONDS)).build();
        } catch (SQLException e) {
            return response.down().withData("error", e.getClass().getSimpleName()).build();
        }
    }
}
