// A "Copy" button beside a read-only field (the host's invitation link, games/_invitation_link.html).
// The button is hidden until this script runs: without JavaScript the field is there to select.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const field = document.getElementById(button.dataset.copy);
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        button.textContent = button.dataset.copied;
        setTimeout(() => { button.textContent = label; }, 2000);
      } catch {
        // No clipboard (an insecure page, a refused permission): the text stays selected to copy by hand.
      }
    });
  }
});
