package ai.lango.masking;

/**
 * Who reads a masked text (and, in a turn, who the model answers): a secret this reader may use is
 * replaced by its name, {@code [SECRET:NAME]}; any other by {@link SecretScanner#UNNAMED}, which says
 * nothing of which secret it was. A reader may use the configured secrets (provider keys, the
 * operator's token) when they administer, their own vault secrets, and the shared ones that are theirs
 * (administrators, and the users a shared secret's binding names).
 *
 * @param userId the reader's user id (null: nobody in particular)
 * @param admin  whether the reader's credential administers
 */
public record Audience(String userId, boolean admin) {

    /** A reader who may use no secret: every secret is the same unnamed placeholder. */
    public static final Audience NOBODY = new Audience(null, false);
}
