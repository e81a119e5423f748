import { redirect } from "next/navigation";
import { hasPageSession } from "@/lib/session/page-session";

export default async function HomePage() {
  redirect((await hasPageSession()) ? "/context" : "/sign-in");
}
