CREATE TABLE "sender_paces" (
	"sender" text PRIMARY KEY NOT NULL,
	"next_free_at" timestamp with time zone NOT NULL
);
