CREATE TYPE "public"."membership_status" AS ENUM('pending', 'active');--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "status" "membership_status" DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invited_by_id" bigint;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_invited_by_id_users_id_fk" FOREIGN KEY ("invited_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Memberships from before consent existed were texted a welcome with STOP and kept getting texts: they stay active (decision 0013).
UPDATE "members" SET "status" = 'active', "confirmed_at" = "created_at";
