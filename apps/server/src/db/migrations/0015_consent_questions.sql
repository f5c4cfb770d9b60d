CREATE TABLE "consent_questions" (
	"phone_number" text PRIMARY KEY NOT NULL,
	"membership_ids" jsonb NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
