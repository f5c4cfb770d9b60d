ALTER TYPE "public"."phone_code_purpose" ADD VALUE 'sign_in';--> statement-breakpoint
ALTER TABLE "phone_codes" ADD COLUMN "holder_hash" text;