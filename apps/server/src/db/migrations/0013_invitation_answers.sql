ALTER TYPE "public"."membership_status" ADD VALUE 'declined';--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "invitation_withheld" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_proven_at" timestamp with time zone;--> statement-breakpoint
-- hand-written:
-- Pending memberships whose phone never got an invitation text (it had opted out when added) are
-- withheld: the owner sees "Not invited" (decisions 0033 and 0035).
UPDATE "members" m SET "invitation_withheld" = true
WHERE m."status" = 'pending'
  AND NOT EXISTS (SELECT 1 FROM "messages" x WHERE x."kind" = 'invitation' AND x."loop_id" = m."loop_id" AND x."user_id" = m."user_id");
