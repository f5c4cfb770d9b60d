ALTER TYPE "public"."message_channel" ADD VALUE 'voice';--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_pin_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_pin_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_pin_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calls_opted_out_at" timestamp with time zone;