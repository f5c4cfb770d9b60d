ALTER TABLE "media" ALTER COLUMN "update_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "cover_media_id" bigint;--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "cover_alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "loops" ADD CONSTRAINT "loops_cover_media_id_media_id_fk" FOREIGN KEY ("cover_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;