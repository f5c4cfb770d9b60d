ALTER TABLE "loops" ADD COLUMN "newsletter_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "send_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "skipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "approval_reminder_for" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "newsletters_scheduled_drafts_idx" ON "newsletters" USING btree ("send_at") WHERE "newsletters"."status" = 'draft' and "newsletters"."skipped_at" is null and "newsletters"."send_at" is not null;