-- Where a secret's value may go, per secret: the hosts a network tool may send it to, the tools that may
-- use it, and (of a shared secret) the users who may besides administrators; comma-separated, NULL for the
-- defaults (no host, the tools exec and browser_type, administrators only). What a person is shown besides
-- a call before approving it (the secrets it carries and where, the files changed since the last approved
-- exec): lango_approvals.notes, a JSON object. Whether a person approved a payment (payments a person did
-- not approve count towards the approval threshold over 24 hours).
ALTER TABLE lango_secrets ADD COLUMN hosts VARCHAR(4000);
ALTER TABLE lango_secrets ADD COLUMN tools VARCHAR(4000);
ALTER TABLE lango_secrets ADD COLUMN users VARCHAR(4000);
ALTER TABLE lango_approvals ADD COLUMN notes VARCHAR(16000);
ALTER TABLE lango_payments ADD COLUMN approved BOOLEAN DEFAULT FALSE NOT NULL;
