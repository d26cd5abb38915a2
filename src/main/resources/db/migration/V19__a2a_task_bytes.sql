-- The size of each stored A2A task (its JSON, in UTF-8 bytes), so a page of ListTasks is chosen by size before
-- any task is read; the tasks stored before are counted in characters, near enough.
ALTER TABLE lango_a2a_tasks ADD COLUMN task_bytes BIGINT DEFAULT 0 NOT NULL;
UPDATE lango_a2a_tasks SET task_bytes = LENGTH(task);
