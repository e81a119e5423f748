import { inbox } from "@/server/routes/notifications";

export const dynamic = "force-dynamic";
export { inbox as GET };
