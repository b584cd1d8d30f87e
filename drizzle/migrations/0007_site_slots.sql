CREATE TABLE "site_slots" (
	"site_id" integer NOT NULL,
	"worker_id" text NOT NULL,
	"slots" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "site_slots_site_id_worker_id_pk" PRIMARY KEY("site_id","worker_id")
);
--> statement-breakpoint
ALTER TABLE "site_slots" ADD CONSTRAINT "site_slots_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;