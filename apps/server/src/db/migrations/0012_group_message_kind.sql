-- Staff's group messages (issue 20 item 4): the kind 'bulk' is now 'group_message', one name with
-- the schema, the service and the web app. Idempotency keys stay as they were (bulk:...): history.
UPDATE "messages" SET "kind" = 'group_message' WHERE "kind" = 'bulk';
