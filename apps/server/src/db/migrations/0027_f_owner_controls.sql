ALTER TABLE "loops" ADD COLUMN "newsletter_day" text DEFAULT 'sunday' NOT NULL;--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "newsletter_time" text DEFAULT '18:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "organizer" boolean DEFAULT false NOT NULL;