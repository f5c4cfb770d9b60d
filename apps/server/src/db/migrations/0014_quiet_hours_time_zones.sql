ALTER TABLE "members" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "not_before" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_time_zone" text;--> statement-breakpoint
CREATE INDEX "users_phone_time_zone_unset_idx" ON "users" USING btree ("id") WHERE "users"."phone_time_zone" is null;