package ai.lango.api;

import ai.lango.masking.Audience;
import ai.lango.masking.SecretMask;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * /api's edge for secrets: every known secret is masked in every answer (the ADK and admin APIs'
 * JSON, stored histories included) and in every request body before a resource reads it (a chat
 * message, a knowledge entry), so none is stored or sent on — for the caller: a secret they may not
 * use is unnamed, so a value they send never comes back named. The vault's own admin routes read
 * bodies as sent: they are how values get in. SSE streams mask each event as they write it.
 */
@Provider
public class SecretMasking implements WriterInterceptor, ReaderInterceptor {

    /** Routes whose bodies carry values on purpose: a secret to store, a new passphrase, a wallet key to import. */
    private static final List<String> VALUE_ROUTES = List.of("admin/secrets", "admin/vault", "admin/payment/wallet");

    @Context
    UriInfo uri;

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        if (SecretMask.scanner().isEmpty() || context.getEntity() instanceof StreamingOutput) {
            context.proceed();
            return;
        }
        if (context.getEntity() instanceof String text) {
            context.setEntity(SecretMask.mask(text, reader(context)));
            context.proceed();
            return;
        }
        OutputStream original = context.getOutputStream();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        context.setOutputStream(buffer);
        try {
            context.proceed();
        } finally {
            context.setOutputStream(original);
        }
        original.write(SecretMask.mask(buffer.toString(StandardCharsets.UTF_8), reader(context)).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (SecretMask.scanner().isEmpty() || carriesValues()) {
            return context.proceed();
        }
        String body = new String(context.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        context.setInputStream(new ByteArrayInputStream(SecretMask.mask(body, reader(context)).getBytes(StandardCharsets.UTF_8)));
        return context.proceed();
    }

    /** The caller of the request, as the bearer filter authenticated it (the operator when nobody authenticates). */
    private static Audience reader(jakarta.ws.rs.ext.InterceptorContext context) {
        return context.getProperty(Callers.PROPERTY) instanceof ai.lango.security.Identity identity ? identity.audience()
                : ai.lango.security.Identity.OPERATOR.audience();
    }

    private boolean carriesValues() {
        String path = uri == null ? "" : uri.getPath().replaceAll("^/+", "");
        return VALUE_ROUTES.stream().anyMatch(path::startsWith);
    }
}
