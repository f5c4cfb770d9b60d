CREATE EXTENSION IF NOT EXISTS "pg_trgm";--> statement-breakpoint
CREATE TABLE "row_counts" (
	"table_name" text PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "row_counts" ("table_name", "count") VALUES ('loops', (SELECT count(*) FROM "loops")), ('newsletters', (SELECT count(*) FROM "newsletters"));--> statement-breakpoint
CREATE FUNCTION "row_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint := (SELECT count(*) FROM new_rows);
BEGIN
  IF n > 0 THEN
    UPDATE "row_counts" SET "count" = "count" + n WHERE "table_name" = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "row_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint := (SELECT count(*) FROM old_rows);
BEGIN
  IF n > 0 THEN
    UPDATE "row_counts" SET "count" = "count" - n WHERE "table_name" = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "row_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "row_counts" SET "count" = 0 WHERE "table_name" = TG_TABLE_NAME;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "loops_row_count_add" AFTER INSERT ON "loops" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "loops_row_count_remove" AFTER DELETE ON "loops" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "loops_row_count_truncate" AFTER TRUNCATE ON "loops" FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncate"();--> statement-breakpoint
CREATE TRIGGER "newsletters_row_count_add" AFTER INSERT ON "newsletters" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_add"();--> statement-breakpoint
CREATE TRIGGER "newsletters_row_count_remove" AFTER DELETE ON "newsletters" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "newsletters_row_count_truncate" AFTER TRUNCATE ON "newsletters" FOR EACH STATEMENT EXECUTE FUNCTION "row_counts_truncate"();--> statement-breakpoint
DROP INDEX "loops_created_at_idx";--> statement-breakpoint
DROP INDEX "messages_newsletter_id_idx";--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE FUNCTION "loop_search_text"("loop_name" text, "creator" bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT lower("loop_name") || E'\x1f' || lower(u."first_name" || ' ' || u."last_name") || E'\x1f' || lower(coalesce(u."email", ''))
  FROM "users" u WHERE u."id" = "creator"
$$;--> statement-breakpoint
UPDATE "loops" SET "search_text" = coalesce("loop_search_text"("name", "creator_id"), '');--> statement-breakpoint
CREATE FUNCTION "loops_search_text_set"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."search_text" := coalesce("loop_search_text"(NEW."name", NEW."creator_id"), '');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE FUNCTION "users_search_text_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "loops" SET "search_text" = coalesce("loop_search_text"("name", "creator_id"), '') WHERE "creator_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "loops_search_text_set" BEFORE INSERT OR UPDATE OF "name", "creator_id", "search_text" ON "loops" FOR EACH ROW EXECUTE FUNCTION "loops_search_text_set"();--> statement-breakpoint
CREATE TRIGGER "users_search_text_sync" AFTER UPDATE OF "first_name", "last_name", "email" ON "users" FOR EACH ROW
  WHEN (OLD."first_name" IS DISTINCT FROM NEW."first_name" OR OLD."last_name" IS DISTINCT FROM NEW."last_name" OR OLD."email" IS DISTINCT FROM NEW."email")
  EXECUTE FUNCTION "users_search_text_sync"();--> statement-breakpoint
CREATE INDEX "loops_created_at_id_idx" ON "loops" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "loops_search_text_trgm_idx" ON "loops" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "members_loop_id_created_at_idx" ON "members" USING btree ("loop_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_newsletter_id_status_idx" ON "messages" USING btree ("newsletter_id","status");--> statement-breakpoint
CREATE INDEX "newsletters_newest_idx" ON "newsletters" USING btree (coalesce("sent_at", "created_at"),"id");--> statement-breakpoint
CREATE INDEX "newsletters_loop_id_last_sent_idx" ON "newsletters" USING btree ("loop_id","sent_at") WHERE "newsletters"."status" = 'sent' and "newsletters"."kind" = 'newsletter';
