CREATE TYPE "public"."phone_code_purpose" AS ENUM('sign_up', 'reset_password');--> statement-breakpoint
CREATE TABLE "phone_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"phone_number" text NOT NULL,
	"purpose" "phone_code_purpose" NOT NULL,
	"code_hash" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "phone_codes_phone_number_purpose_key" ON "phone_codes" USING btree ("phone_number","purpose");--> statement-breakpoint
CREATE INDEX "phone_codes_expires_at_idx" ON "phone_codes" USING btree ("expires_at");