CREATE TYPE "public"."group_message_status" AS ENUM('scheduled', 'sent', 'cancelled');--> statement-breakpoint
CREATE TABLE "group_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loop_id" bigint NOT NULL,
	"sender_id" bigint,
	"sender_name" text NOT NULL,
	"message" text NOT NULL,
	"status" "group_message_status" DEFAULT 'scheduled' NOT NULL,
	"send_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"texts_queued" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "group_messages" ADD CONSTRAINT "group_messages_loop_id_loops_id_fk" FOREIGN KEY ("loop_id") REFERENCES "public"."loops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_messages" ADD CONSTRAINT "group_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_messages_loop_id_created_at_idx" ON "group_messages" USING btree ("loop_id","created_at");--> statement-breakpoint
CREATE INDEX "group_messages_due_idx" ON "group_messages" USING btree ("send_at") WHERE "group_messages"."status" = 'scheduled';