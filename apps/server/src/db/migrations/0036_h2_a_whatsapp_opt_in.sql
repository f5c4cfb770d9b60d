DROP INDEX "phone_codes_phone_number_purpose_key";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "whatsapp_opted_in_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_codes_phone_number_purpose_holder_key" ON "phone_codes" USING btree ("phone_number","purpose","holder_hash");--> statement-breakpoint
-- Who already chose WhatsApp themselves (decision 0060): an account holder's preference came from
-- their own sign-up form or Profile, and anyone who ever texted Loop on WhatsApp chose it too.
-- Everyone else whose preference is WhatsApp (typed by an owner) gets SMS until they choose it.
UPDATE "users" u SET "whatsapp_opted_in_at" = now()
WHERE u."messaging_preference" = 'whatsapp'
  AND (u."password_hash" IS NOT NULL
    OR u."last_whatsapp_inbound_at" IS NOT NULL
    OR EXISTS (SELECT 1 FROM "messages" m WHERE m."direction" = 'inbound' AND m."channel" = 'whatsapp' AND m."from_address" = 'whatsapp:' || u."phone_number"));
