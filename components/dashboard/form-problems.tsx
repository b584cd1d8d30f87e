import { ErrorNote } from "@/components/ui/card";

/** Under a form's buttons: the summary while a field is marked, and what no field on screen can show (useFormErrors gives both). */
export function FormProblems({ errors }: { errors: { summary: string | null; notice: string | null } }) {
  return (
    <>
      {errors.summary ? (
        <p role="alert" className="text-sm font-medium text-red-600">
          {errors.summary}
        </p>
      ) : null}
      <ErrorNote error={errors.notice} />
    </>
  );
}
