-- E-mails that carry a one-time link keep no usable copy once sent through a transport (issue 56):
-- the copies stored before this migration lose their parts and props; dedupe keys that held a raw
-- sign-in token get the row's id instead. Copies kept in the outbox (no transport) stay: only their
-- addressee reads them now.
UPDATE "email_outbox"
SET "html" = '<p>This e-mail carried a one-time link for its addressee only. It was sent; its copy is not kept.</p>',
    "text" = 'This e-mail carried a one-time link for its addressee only. It was sent; its copy is not kept.',
    "props" = '{}'::jsonb
WHERE "template" IN ('email-change-confirmation', 'invitation', 'sign-in-link', 'sign-up-confirmation', 'sign-up-existing')
  AND "status" <> 'outbox';
--> statement-breakpoint
UPDATE "email_outbox"
SET "dedupe_key" = "template" || ':before-0034:' || "id"
WHERE "template" IN ('sign-in-link', 'sign-up-existing');
