CREATE TABLE "undeliverable_phones" (
	"phone_number" text PRIMARY KEY NOT NULL,
	"error_code" integer NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "whatsapp_refused_at" timestamp with time zone;