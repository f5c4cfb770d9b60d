ALTER TYPE "public"."message_channel" ADD VALUE IF NOT EXISTS 'email';--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "reply_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "members_reply_token_key" ON "members" USING btree ("reply_token");