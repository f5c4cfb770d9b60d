CREATE TABLE "early_statuses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_message_id" text NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- last_inbound_at was set by texts on any channel, so it is not carried over: for at most a day,
-- WhatsApp members get templates (or SMS) instead of free-form texts.
ALTER TABLE "users" ADD COLUMN "last_whatsapp_inbound_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "early_statuses_provider_message_id_idx" ON "early_statuses" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "early_statuses_received_at_idx" ON "early_statuses" USING btree ("received_at");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "last_inbound_at";