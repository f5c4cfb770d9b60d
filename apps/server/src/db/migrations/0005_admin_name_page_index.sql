DROP INDEX "loops_name_lower_idx";--> statement-breakpoint
CREATE INDEX "loops_name_lower_id_name_idx" ON "loops" USING btree (lower("name"),"id","name");