ALTER TABLE "members" ADD COLUMN "first_name" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "last_name" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "messaging_preference" "messaging_preference";