CREATE TABLE "code_texts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"prefix" text NOT NULL,
	"country" text NOT NULL,
	"code_hash" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "priority" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "code_texts_prefix_sent_at_idx" ON "code_texts" USING btree ("prefix","sent_at");--> statement-breakpoint
CREATE INDEX "code_texts_country_sent_at_idx" ON "code_texts" USING btree ("country","sent_at");--> statement-breakpoint
CREATE INDEX "code_texts_sent_at_idx" ON "code_texts" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "code_texts_code_hash_idx" ON "code_texts" USING btree ("code_hash");--> statement-breakpoint
-- Hand-written (decision 0051): texts a person waits for that are still queued when this runs go
-- before the bulk texts queued with them.
UPDATE "messages" SET "priority" = 1 WHERE "direction" = 'outbound' AND "status" IN ('queued', 'sending') AND "kind" IN ('code', 'reply', 'opt_out_notice', 'welcome');
