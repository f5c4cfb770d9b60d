ALTER TABLE "members" ADD COLUMN "invite_id" bigint;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_invite_id_invites_id_fk" FOREIGN KEY ("invite_id") REFERENCES "public"."invites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "members_invite_id_idx" ON "members" USING btree ("invite_id");