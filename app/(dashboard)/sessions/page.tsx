import { permanentRedirect } from "next/navigation";

/** The page was called "Sessions": its old address still leads to it. */
export default function SessionsPage() {
  permanentRedirect("/sign-ins");
}
