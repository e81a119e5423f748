import { changeNote, removeNote } from "@/server/routes/annotations";

export const dynamic = "force-dynamic";
export { changeNote as PATCH, removeNote as DELETE };
