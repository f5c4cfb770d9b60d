CREATE INDEX "messages_created_at_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
-- Hand-written (decision 0057): a mobile number in a country with several time zones no longer
-- counts as being in its capital's zone. Forget the phone zone looked up for numbers of those
-- countries (calling codes below; +1 keeps its area codes), so the scheduler's minute tick looks
-- them up again under the new rule; until then, texts wait for daytime in the whole country.
UPDATE "users" SET "phone_time_zone" = NULL
WHERE "phone_time_zone" <> ''
  AND "phone_number" ~ '^\+(7|34|49|52|54|55|56|60|61|62|64|86|243|299|351|357|380|593|675|686|689|691|692|970|976|998)';
