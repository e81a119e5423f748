import { listAnnotations } from "@/server/routes/annotations";

export const dynamic = "force-dynamic";
export { listAnnotations as GET };
