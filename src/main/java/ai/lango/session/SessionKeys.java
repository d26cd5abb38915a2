package ai.lango.session;

/** Validation of the identifiers a session is stored under. */
final class SessionKeys {

    private SessionKeys() {
    }

    /** Refuses blank or over-long keys before they reach the database (no half-written row). */
    static String require(String what, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidSessionKeyException(what + " must not be empty");
        }
        if (value.length() > SessionEntity.KEY_LENGTH) {
            throw new InvalidSessionKeyException(what + " is " + value.length()
                    + " characters long; at most " + SessionEntity.KEY_LENGTH + " are accepted");
        }
        return value;
    }
}
