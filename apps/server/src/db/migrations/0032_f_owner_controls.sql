ALTER TABLE "loops" ADD COLUMN "newsletter_day" text DEFAULT 'sunday' NOT NULL;--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "newsletter_time" text DEFAULT '18:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "organizer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "preview_text_for" timestamp with time zone;--> statement-breakpoint
-- Hand-written: drafts that already have a send time had their preview text (or were moved on purpose); none gets a second one.
UPDATE "newsletters" SET "preview_text_for" = "send_at" WHERE "send_at" IS NOT NULL;
