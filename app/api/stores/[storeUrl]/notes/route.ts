import { addNote } from "@/server/routes/annotations";

export const dynamic = "force-dynamic";
export { addNote as POST };
