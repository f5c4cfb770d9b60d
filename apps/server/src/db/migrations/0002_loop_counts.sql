ALTER TABLE "loops" ADD COLUMN "member_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "update_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "loops_member_count_idx" ON "loops" USING btree ("member_count","id");--> statement-breakpoint
CREATE INDEX "loops_name_lower_idx" ON "loops" USING btree (lower("name"),"id");--> statement-breakpoint
UPDATE "loops" SET
  "member_count" = (SELECT count(*) FROM "members" WHERE "members"."loop_id" = "loops"."id"),
  "update_count" = (SELECT count(*) FROM "updates" WHERE "updates"."loop_id" = "loops"."id");--> statement-breakpoint
CREATE FUNCTION "loop_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'members' THEN
    UPDATE "loops" SET "member_count" = "member_count" + c.n FROM (SELECT "loop_id", count(*) AS n FROM new_rows GROUP BY "loop_id") c WHERE "loops"."id" = c."loop_id";
  ELSE
    UPDATE "loops" SET "update_count" = "update_count" + c.n FROM (SELECT "loop_id", count(*) AS n FROM new_rows GROUP BY "loop_id") c WHERE "loops"."id" = c."loop_id";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "loop_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'members' THEN
    UPDATE "loops" SET "member_count" = "member_count" - c.n FROM (SELECT "loop_id", count(*) AS n FROM old_rows GROUP BY "loop_id") c WHERE "loops"."id" = c."loop_id";
  ELSE
    UPDATE "loops" SET "update_count" = "update_count" - c.n FROM (SELECT "loop_id", count(*) AS n FROM old_rows GROUP BY "loop_id") c WHERE "loops"."id" = c."loop_id";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "members_count_add" AFTER INSERT ON "members" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "loop_counts_add"();--> statement-breakpoint
CREATE TRIGGER "members_count_remove" AFTER DELETE ON "members" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "loop_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "updates_count_add" AFTER INSERT ON "updates" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "loop_counts_add"();--> statement-breakpoint
CREATE TRIGGER "updates_count_remove" AFTER DELETE ON "updates" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "loop_counts_remove"();
