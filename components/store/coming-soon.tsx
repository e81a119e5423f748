import { EmptyState } from "@/components/ui/states";

export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <section aria-labelledby="section-title" className="space-y-4">
      <h1 id="section-title" className="text-xl font-semibold">
        {title}
      </h1>
      <EmptyState title="This section is not available yet">{description}</EmptyState>
    </section>
  );
}
