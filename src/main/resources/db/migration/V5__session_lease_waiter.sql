-- Fair waiting across servers: a turn that finds its session taken puts itself on the lease as its
-- waiter, and the holder hands the lease over on release instead of deleting it.
ALTER TABLE lango_session_leases ADD COLUMN waiter VARCHAR(255);
