import { Notice } from "../ui/controls";

/** Placeholder until the invitation screen is built (issue #15 item 9). */
export default function AcceptInvitation() {
  return (
    <main id="main" class="center-box">
      <Notice kind="info" title="Invitations are being built." />
    </main>
  );
}
