CREATE TYPE "public"."email_suppression_reason" AS ENUM('unsubscribed', 'bounced', 'complained');--> statement-breakpoint
CREATE TYPE "public"."newsletter_delivery" AS ENUM('text', 'email', 'both');--> statement-breakpoint
ALTER TYPE "public"."message_channel" ADD VALUE IF NOT EXISTS 'email';--> statement-breakpoint
CREATE TABLE "email_suppressions" (
	"address" text PRIMARY KEY NOT NULL,
	"reason" "email_suppression_reason" NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"address" text NOT NULL,
	"user_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "newsletter_delivery" "newsletter_delivery" DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_address" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirm_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_tokens_address_idx" ON "email_tokens" USING btree ("address");