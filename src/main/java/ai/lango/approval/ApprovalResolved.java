package ai.lango.approval;

/** A CDI event (synchronous): a request was decided, by its user, the timeout or a new message. */
public record ApprovalResolved(Approval approval, Approval.Decision decision, Approval.By by) {
}
