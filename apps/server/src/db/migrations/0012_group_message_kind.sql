-- Staff's group messages: the kind 'bulk' is now 'group_message', one name with
-- the schema, the service and the web app. Idempotency keys stay as they were (bulk:...): history.
UPDATE "messages" SET "kind" = 'group_message' WHERE "kind" = 'bulk';
