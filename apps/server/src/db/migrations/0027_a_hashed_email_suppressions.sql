CREATE TABLE "hashed_email_suppressions" (
	"address_hash" text PRIMARY KEY NOT NULL,
	"reason" "email_suppression_reason" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
